import Testing
@testable import KaraokeCore

@Suite("The overlay every lyrics screen shares")
struct OverlayTests {
    @Test(
        "the user offset never passes the limit, whatever the start and the steps",
        arguments: [
            // Far past the limit at the start, held to it.
            (10_000_000, [Int](), 3_600_000),
            (-10_000_000, [], -3_600_000),
            // Steps that would pass the limit stop at it.
            (3_550_000, [100_000], 3_600_000),
            (-3_550_000, [-100_000, -100], -3_600_000),
            // Back from the limit, steps count again.
            (3_600_000, [-100], 3_599_900),
            // Within the limit, the steps add up.
            (0, [100, 100, -50], 150),
        ])
    func offsetIsClamped(start: Int, steps: [Int], expected: Int) {
        var overlay = Overlay(userOffset: start)
        for step in steps { overlay.adjustOffset(by: step) }
        #expect(overlay.userOffset == expected)
        #expect(abs(overlay.userOffset) <= Overlay.offsetLimit)
    }

    @Test("the limit is the one --offset accepts")
    func commandLineReadsTheLimit() {
        #expect(Overlay.offsetLimit == 3_600_000)
        #expect(Overlay.clampedOffset(Overlay.offsetLimit + 1) == Overlay.offsetLimit)
        #expect(Overlay.clampedOffset(-Overlay.offsetLimit - 1) == -Overlay.offsetLimit)
    }

    @Test(
        "a notice shows from its post until its end, and the end is the next wake",
        arguments: [0.0, 1.999, 2.0, 5.0])
    func noticeLastsItsTime(after: Double) {
        var overlay = Overlay()
        overlay.post("saved", at: 10, for: 2)
        let now = 10 + after
        #expect(overlay.noticeText(at: now) == (after < 2 ? "saved" : nil))
        #expect(overlay.noticeEnd(after: now) == (after < 2 ? 12 : nil))
    }

    @Test("a notice without an end stays until another replaces it, and asks for no wake")
    func noticeWithoutEndStays() {
        var overlay = Overlay()
        overlay.post("unsaved stamps", at: 0, for: nil)
        #expect(overlay.noticeText(at: 1e9) == "unsaved stamps")
        #expect(overlay.noticeEnd(after: 0) == nil)
        overlay.post("saved", at: 5, for: 1)
        #expect(overlay.noticeText(at: 5.5) == "saved")
        #expect(overlay.noticeText(at: 6) == nil)
    }

    @Test("the frame input lists the keys given while the help is open, and none while it is closed")
    func frameInputCarriesTheHelp() {
        var overlay = Overlay(reduceMotion: true, userOffset: -300)
        let keys: [HelpEntry] = [("x", "does x")]
        #expect(FrameInput(time: 1, titleTime: nil, paused: false, overlay: overlay, keys: keys, at: 0).help == nil)
        overlay.showsHelp = true
        let input = FrameInput(time: 1, titleTime: nil, paused: false, overlay: overlay, keys: keys, at: 0)
        #expect(input.help?.map(\.keys) == ["x"])
        #expect(input.userOffset == -300)
        #expect(input.reduceMotion)
    }

    @Test(
        "the shared keys mean the same on play and follow",
        arguments: [
            // The offset keys, with their aliases.
            (Key.character("+"), Overlay.Change.adjustOffset(100)), (.character("="), .adjustOffset(100)),
            (.character("-"), .adjustOffset(-100)), (.character("_"), .adjustOffset(-100)),
            (.character("−"), .adjustOffset(-100)),
            // Reduce motion and the help.
            (.character("r"), .toggleReduceMotion), (.character("R"), .toggleReduceMotion),
            (.character("?"), .toggleHelp), (.character("h"), .toggleHelp),
        ])
    func sharedKeysAreTheSame(key: Key, change: Overlay.Change) {
        #expect(PlayerAction.bound(to: key) == .overlay(change))
        #expect(FollowAction.bound(to: key) == .overlay(change))
    }

    @Test("Esc closes the help while it is open and quits otherwise, on play and follow alike")
    func escapeClosesHelpFirst() {
        #expect(PlayerAction.bound(to: .escape, helpShown: true) == .toggleHelp)
        #expect(FollowAction.bound(to: .escape, helpShown: true) == .toggleHelp)
        #expect(PlayerAction.bound(to: .escape, helpShown: false) == .quit)
        #expect(FollowAction.bound(to: .escape, helpShown: false) == .quit)
    }
}
