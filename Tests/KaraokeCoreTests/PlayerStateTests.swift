import Testing
@testable import KaraokeCore

/// The playback seconds each line of `Fixtures.clockwork` starts at, with no offset.
private let lineStarts = [2.0, 5.0, 9.0, 14.0]

/// The monotonic time the fake clock starts at: not 0, so anchoring mistakes show.
private let t0 = 1_000.0

/// A player on the fake clock, playing `Fixtures.clockwork` from `start`.
private func player(
    start: Double = 0, fileOffset: Int? = nil, userOffset: Int = 0,
    reduceMotion: Bool = false
) throws -> PlayerState {
    let header = fileOffset.map { "[offset:\($0)]\n" } ?? ""
    let song = try Fixtures.song(text: header + Fixtures.clockwork)
    return PlayerState(song: song, start: start, now: t0, reduceMotion: reduceMotion, userOffset: userOffset)
}

@Suite("Player state on a fake clock")
struct PlayerStateTests {
    @Test("the song lasts until its [length:]")
    func durationIsTheLength() throws {
        let state = try player()
        #expect(state.duration == 30)
    }

    @Test("playing advances the position one second a second")
    func playingAdvances() throws {
        let state = try player()
        #expect(state.position(at: t0) == 0)
        #expect(state.position(at: t0 + 1) == 1)
        #expect(state.position(at: t0 + 12.25) == 12.25)
    }

    @Test(
        "a start position is honoured and clamped to the song",
        arguments: [
            (start: 7.5, expected: 7.5), // inside the song
            (start: -3.0, expected: 0.0), // before it
            (start: 99.0, expected: 30.0), // after it
        ])
    func startIsClamped(start: Double, expected: Double) throws {
        let state = try player(start: start)
        #expect(state.position(at: t0) == expected)
    }

    @Test("the position never runs past the end while playing")
    func positionStopsAtTheEnd() throws {
        let state = try player(start: 28)
        #expect(state.position(at: t0 + 10) == 30)
    }

    @Test("pausing freezes the position and resuming continues from it")
    func pauseAndResume() throws {
        var state = try player()
        state.apply(.togglePause, at: t0 + 3)
        #expect(state.isPaused)
        #expect(state.position(at: t0 + 3) == 3)
        #expect(state.position(at: t0 + 50) == 3)
        state.apply(.togglePause, at: t0 + 50)
        #expect(!state.isPaused)
        #expect(state.position(at: t0 + 50) == 3)
        #expect(state.position(at: t0 + 52.5) == 5.5)
    }

    @Test(
        "seeking moves by five seconds and clamps at both ends",
        arguments: [
            (from: 10.0, action: PlayerAction.seek(5), expected: 15.0), // forward
            (from: 10.0, action: PlayerAction.seek(-5), expected: 5.0), // back
            (from: 3.0, action: PlayerAction.seek(-5), expected: 0.0), // back past the start
            (from: 27.0, action: PlayerAction.seek(5), expected: 30.0), // forward past the end
        ])
    func seekClamps(from: Double, action: PlayerAction, expected: Double) throws {
        var state = try player(start: from)
        state.apply(action, at: t0)
        #expect(state.position(at: t0) == expected)
    }

    @Test("seeking while paused stays paused at the new position")
    func seekWhilePaused() throws {
        var state = try player(start: 10)
        state.apply(.togglePause, at: t0)
        state.apply(.seek(5), at: t0 + 4)
        #expect(state.isPaused)
        #expect(state.position(at: t0 + 20) == 15)
    }

    @Test("the next line lands exactly on each line's start, one after another")
    func nextLineRepeatedly() throws {
        var state = try player()
        #expect(state.currentLine(at: state.position(at: t0)) == nil)
        for (index, start) in lineStarts.enumerated() {
            state.apply(.nextLine, at: t0)
            let position = state.position(at: t0)
            #expect(abs(position - start) < 0.000_1, "line \(index)")
            #expect(state.currentLine(at: position) == index)
        }
        // After the last line there is no next one: the end of the song.
        state.apply(.nextLine, at: t0)
        #expect(state.position(at: t0) == state.duration)
    }

    @Test("the previous line lands exactly on each line's start, back to the beginning")
    func previousLineRepeatedly() throws {
        var state = try player(start: 16)
        #expect(state.currentLine(at: 16) == 3)
        for index in stride(from: 2, through: 0, by: -1) {
            state.apply(.previousLine, at: t0)
            let position = state.position(at: t0)
            #expect(abs(position - lineStarts[index]) < 0.000_1, "line \(index)")
            #expect(state.currentLine(at: position) == index)
        }
        // From the first line (and before it) the previous line is the start of the song.
        state.apply(.previousLine, at: t0)
        #expect(state.position(at: t0) == 0)
        state.apply(.previousLine, at: t0)
        #expect(state.position(at: t0) == 0)
    }

    @Test("line jumps keep counting from the moving clock while playing")
    func lineJumpsWhilePlaying() throws {
        var state = try player()
        state.apply(.nextLine, at: t0 + 0.5) // to line 0 at 2 s
        #expect(abs(state.position(at: t0 + 1.5) - 3) < 0.000_1)
        state.apply(.nextLine, at: t0 + 1.5) // from 3 s (line 0) to line 1 at 5 s
        #expect(state.currentLine(at: state.position(at: t0 + 1.5)) == 1)
        #expect(abs(state.position(at: t0 + 2.5) - 6) < 0.000_1)
    }

    @Test(
        "line jumps land on the line starts the offsets make",
        arguments: [
            (fileOffset: nil as Int?, userOffset: 700), // the user's offset alone
            (fileOffset: 1_300, userOffset: 0), // the file's [offset:] alone
            (fileOffset: -400, userOffset: 300), // both, of opposite signs
            (fileOffset: 250, userOffset: -1_100), // lyrics later than the stamps
        ])
    func lineJumpsWithOffsets(fileOffset: Int?, userOffset: Int) throws {
        var state = try player(fileOffset: fileOffset, userOffset: userOffset)
        let shift = Double((fileOffset ?? 0) + userOffset) / 1000
        for (index, start) in lineStarts.enumerated() {
            state.apply(.nextLine, at: t0)
            let position = state.position(at: t0)
            #expect(abs(position - max(0, start - shift)) < 0.000_1, "line \(index)")
            #expect(state.currentLine(at: position) == index)
        }
        for index in stride(from: 2, through: 0, by: -1) {
            state.apply(.previousLine, at: t0)
            #expect(state.currentLine(at: state.position(at: t0)) == index)
        }
    }

    @Test("Home and g go back to the start, keeping pause as it was")
    func restart() throws {
        var state = try player(start: 20)
        state.apply(.restart, at: t0 + 2)
        #expect(state.position(at: t0 + 2) == 0)
        #expect(state.position(at: t0 + 3) == 1)
        state.apply(.togglePause, at: t0 + 3)
        state.apply(.restart, at: t0 + 4)
        #expect(state.isPaused)
        #expect(state.position(at: t0 + 9) == 0)
    }

    @Test("+ and − change the user offset by 100 ms")
    func offsetSteps() throws {
        var state = try player(userOffset: 200)
        state.apply(.adjustOffset(100), at: t0)
        #expect(state.userOffset == 300)
        state.apply(.adjustOffset(-100), at: t0)
        state.apply(.adjustOffset(-100), at: t0)
        state.apply(.adjustOffset(-100), at: t0)
        #expect(state.userOffset == 0)
        state.apply(.adjustOffset(-100), at: t0)
        #expect(state.userOffset == -100)
    }

    @Test("the offset keys leave the playback position alone")
    func offsetKeepsPosition() throws {
        var state = try player(start: 8)
        state.apply(.adjustOffset(100), at: t0 + 1)
        #expect(state.position(at: t0 + 1) == 9)
    }

    @Test("a positive offset shows lyrics earlier and a negative one later")
    func offsetShiftsTheCurrentLine() throws {
        var state = try player()
        // 4.95 s: line 0 ("one"), 50 ms before "two" starts at 5 s.
        #expect(state.currentLine(at: 4.95) == 0)
        state.apply(.adjustOffset(100), at: t0)
        #expect(state.currentLine(at: 4.95) == 1)
        // 5.05 s: "two" has started; 100 ms later lyrics put it 50 ms ahead.
        state.apply(.adjustOffset(-100), at: t0)
        #expect(state.currentLine(at: 5.05) == 1)
        state.apply(.adjustOffset(-100), at: t0)
        #expect(state.currentLine(at: 5.05) == 0)
    }

    @Test("the user offset stops at an hour either way")
    func offsetIsBounded() throws {
        var state = try player(userOffset: 3_599_950)
        state.apply(.adjustOffset(100), at: t0)
        #expect(state.userOffset == 3_600_000)
        var negative = try player(userOffset: -3_600_000)
        negative.apply(.adjustOffset(-100), at: t0)
        #expect(negative.userOffset == -3_600_000)
    }

    @Test("the song ends only when playing past its duration")
    func endOfSong() throws {
        var state = try player(start: 25)
        #expect(!state.hasEnded(at: t0))
        #expect(!state.hasEnded(at: t0 + 4.99))
        #expect(state.hasEnded(at: t0 + 5.01))
        // Paused at the very end, the song waits for the user.
        var paused = try player(start: 25)
        paused.apply(.seek(5), at: t0)
        paused.apply(.togglePause, at: t0)
        #expect(!paused.hasEnded(at: t0 + 60))
        paused.apply(.togglePause, at: t0 + 60)
        #expect(paused.hasEnded(at: t0 + 60.01))
        // Seeking back from the end while playing un-ends it.
        state.apply(.seek(-5), at: t0 + 6)
        #expect(!state.hasEnded(at: t0 + 6))
    }

    @Test("r toggles reduce motion both ways")
    func reduceMotionToggle() throws {
        var state = try player(reduceMotion: true)
        #expect(state.reduceMotion)
        state.apply(.toggleReduceMotion, at: t0)
        #expect(!state.reduceMotion)
        state.apply(.toggleReduceMotion, at: t0)
        #expect(state.reduceMotion)
    }

    @Test("? shows and hides the help, and Esc closes it instead of quitting")
    func helpAndEscape() throws {
        var state = try player()
        let question = try #require(PlayerAction.bound(to: .character("?"), helpShown: state.showsHelp))
        state.apply(question, at: t0)
        #expect(state.showsHelp)
        let escape = try #require(PlayerAction.bound(to: .escape, helpShown: state.showsHelp))
        state.apply(escape, at: t0)
        #expect(!state.showsHelp)
        #expect(!state.hasQuit)
        let escapeAgain = try #require(PlayerAction.bound(to: .escape, helpShown: state.showsHelp))
        state.apply(escapeAgain, at: t0)
        #expect(state.hasQuit)
    }

    @Test("the clock keeps running behind the help overlay")
    func helpDoesNotPause() throws {
        var state = try player()
        state.apply(.toggleHelp, at: t0 + 1)
        #expect(state.position(at: t0 + 4) == 4)
    }

    @Test("q quits")
    func quit() throws {
        var state = try player()
        #expect(!state.hasQuit)
        state.apply(.quit, at: t0)
        #expect(state.hasQuit)
    }

    @Test("skipping the clock holds the song where it was while suspended")
    func skipClock() throws {
        var state = try player()
        #expect(state.position(at: t0 + 5) == 5)
        state.skipClock(by: 60)
        #expect(state.position(at: t0 + 65) == 5)
        #expect(state.position(at: t0 + 66) == 6)
        #expect(!state.hasEnded(at: t0 + 65 + 24.9))
    }

    @Test("skipping the clock while paused changes nothing")
    func skipClockPaused() throws {
        var state = try player(start: 4)
        state.apply(.togglePause, at: t0)
        state.skipClock(by: 30)
        state.apply(.togglePause, at: t0 + 40)
        #expect(state.position(at: t0 + 41) == 5)
    }
}

extension PlayerStateTests {
    /// A key and the action DESIGN §6 binds to it.
    struct Binding: CustomTestStringConvertible, Sendable {
        var label: String
        var key: Key
        var action: PlayerAction?
        var testDescription: String { label }
    }

    static let bindings: [Binding] = [
        Binding(label: "space pauses", key: .character(" "), action: .togglePause),
        Binding(label: "p pauses", key: .character("p"), action: .togglePause),
        Binding(label: "← seeks back 5 s", key: .left, action: .seek(-5)),
        Binding(label: "→ seeks forward 5 s", key: .right, action: .seek(5)),
        Binding(label: "↑ goes to the previous line", key: .up, action: .previousLine),
        Binding(label: "k goes to the previous line", key: .character("k"), action: .previousLine),
        Binding(label: "↓ goes to the next line", key: .down, action: .nextLine),
        Binding(label: "j goes to the next line", key: .character("j"), action: .nextLine),
        Binding(label: "Home restarts", key: .home, action: .restart),
        Binding(label: "g restarts", key: .character("g"), action: .restart),
        Binding(label: "+ shows lyrics earlier", key: .character("+"), action: .adjustOffset(100)),
        Binding(label: "- shows lyrics later", key: .character("-"), action: .adjustOffset(-100)),
        Binding(label: "U+2212 minus shows lyrics later", key: .character("−"), action: .adjustOffset(-100)),
        Binding(label: "r toggles reduce motion", key: .character("r"), action: .toggleReduceMotion),
        Binding(label: "? toggles help", key: .character("?"), action: .toggleHelp),
        Binding(label: "q quits", key: .character("q"), action: .quit),
        Binding(label: "Esc quits", key: .escape, action: .quit),
        Binding(label: "x does nothing", key: .character("x"), action: nil),
        Binding(label: "End does nothing", key: .end, action: nil),
    ]

    @Test("every key of DESIGN §6 is bound to its action", arguments: bindings)
    func keyBinding(_ binding: Binding) {
        #expect(PlayerAction.bound(to: binding.key) == binding.action)
    }

    @Test("with the help shown, ?, h and Esc close it, q quits, and any other key turns its page", arguments: bindings)
    func keyBindingUnderHelp(_ binding: Binding) {
        let expected: PlayerAction =
            switch binding.key {
            case .escape, .character("?"), .character("h"): .toggleHelp
            case .character("q"): .quit
            default: .turnHelpPage
            }
        #expect(PlayerAction.bound(to: binding.key, helpShown: true) == expected)
    }

    @Test("the help lists every key of DESIGN §6")
    func helpListsEveryKey() {
        let keys = PlayerAction.help.map(\.keys).joined(separator: " ")
        for name in ["space", "p", "←", "→", "↑", "k", "↓", "j", "Home", "g", "+", "−", "r", "?", "q", "Esc"] {
            #expect(keys.contains(name), "\(name) missing from the help")
        }
    }
}
