import Testing
@testable import KaraokeCore

@Suite("Status bar")
struct StatusBarTests {
    @Test("the bar shows the state, elapsed / total, a progress bar and the key hints")
    func fullBar() {
        let text = StatusBar.text(elapsed: 30, total: 120, paused: false, userOffset: 0, width: 80)
        #expect(text.hasPrefix("▶ 0:30 / 2:00  "))
        #expect(text.contains("━"))
        #expect(text.contains("─"))
        #expect(text.contains("q quit"))
        #expect(text.contains("? help"))
        #expect(!text.contains("offset"))
    }

    @Test("paused shows the pause sign")
    func paused() {
        let text = StatusBar.text(elapsed: 30, total: 120, paused: true, userOffset: 0, width: 80)
        #expect(text.hasPrefix("⏸ 0:30 / 2:00"))
    }

    @Test("the text fills exactly the width when there is room for the bar", arguments: [34, 40, 57, 80, 200])
    func exactWidth(width: Int) {
        for offset in [0, 300] {
            let text = StatusBar.text(elapsed: 61, total: 200, paused: false, userOffset: offset, width: width)
            #expect(DisplayWidth.of(text) == width, "width \(width), offset \(offset): '\(text)'")
        }
    }

    @Test("the text never exceeds the width", arguments: Array(1...90))
    func neverTooWide(width: Int) {
        for offset in [0, -1_200] {
            let text = StatusBar.text(elapsed: 3_725, total: 7_200, paused: true, userOffset: offset, width: width)
            #expect(DisplayWidth.of(text) <= width, "width \(width): '\(text)'")
        }
    }

    @Test("hints go first when space is short, then the bar; the time stays")
    func dropOrder() {
        let narrow = StatusBar.text(elapsed: 30, total: 120, paused: false, userOffset: 0, width: 36)
        #expect(!narrow.contains("quit"))
        #expect(narrow.contains("━") || narrow.contains("─"))
        let tiny = StatusBar.text(elapsed: 30, total: 120, paused: false, userOffset: 0, width: 16)
        #expect(tiny == "▶ 0:30 / 2:00")
    }

    @Test(
        "the progress bar fills in proportion to the position",
        arguments: [
            (elapsed: 0.0, done: 0.0), // the start
            (elapsed: 50.0, done: 0.5), // half way
            (elapsed: 100.0, done: 1.0), // the end
            (elapsed: 150.0, done: 1.0), // past the end is the end
            (elapsed: -5.0, done: 0.0), // before the start is the start
        ])
    func progress(elapsed: Double, done: Double) {
        let text = StatusBar.text(elapsed: elapsed, total: 100, paused: false, userOffset: 0, width: 60)
        let heavy = text.filter { $0 == "━" }.count, light = text.filter { $0 == "─" }.count
        let bar = heavy + light
        #expect(bar >= 10)
        #expect(abs(Double(heavy) - done * Double(bar)) < 1)
    }

    @Test("a song of length 0 shows an empty bar, not a crash")
    func zeroLength() {
        let text = StatusBar.text(elapsed: 3, total: 0, paused: false, userOffset: 0, width: 60)
        #expect(text.hasPrefix("▶ 0:00 / 0:00"))
        #expect(!text.contains("━"))
    }

    @Test("the offset is shown when not 0, with its sign")
    func offsetShown() {
        let text = StatusBar.text(elapsed: 1, total: 100, paused: false, userOffset: -300, width: 80)
        #expect(text.contains("offset -0.3s"))
    }

    @Test(
        "the clock is m:ss, or h:mm:ss past an hour, rounded down",
        arguments: [
            (seconds: 0.0, text: "0:00"),
            (seconds: 9.99, text: "0:09"),
            (seconds: 61.0, text: "1:01"),
            (seconds: 599.5, text: "9:59"),
            (seconds: 3_599.0, text: "59:59"),
            (seconds: 3_600.0, text: "1:00:00"),
            (seconds: 3_725.0, text: "1:02:05"),
            (seconds: -4.0, text: "0:00"),
        ])
    func clock(seconds: Double, text: String) {
        #expect(StatusBar.clock(seconds) == text)
    }

    @Test(
        "offsets are shown in seconds with their sign, exactly",
        arguments: [
            (milliseconds: 100, text: "+0.1s"), // one key press
            (milliseconds: -100, text: "-0.1s"), // the other way
            (milliseconds: 1_200, text: "+1.2s"), // twelve presses
            (milliseconds: 2_000, text: "+2.0s"), // whole seconds keep a decimal
            (milliseconds: -250, text: "-0.25s"), // --offset need not be a multiple of 100
            (milliseconds: 30, text: "+0.03s"), // a small offset is not shown as 0
            (milliseconds: -1, text: "-0.001s"), // the smallest
            (milliseconds: 61_005, text: "+61.005s"),
        ])
    func signedSeconds(milliseconds: Int, text: String) {
        #expect(StatusBar.signedSeconds(milliseconds) == text)
    }
}

/// Notices (the volume, a missing mpv) in the status bar.
@Suite("Status bar notices")
struct StatusBarNoticeTests {
    @Test("a notice takes the hints' place, and the bar's when it needs the room", arguments: [40, 60, 80, 120])
    func noticeShows(width: Int) {
        let notice = "mpv is not installed (not on PATH); playing without sound"
        let text = StatusBar.text(elapsed: 2, total: 100, paused: false, userOffset: 0, width: width, notice: notice)
        #expect(text.hasPrefix("▶ 0:02 / 1:40"))
        #expect(!text.contains("q quit"))
        #expect(text.count <= width)
        #expect(text.contains(width >= 80 ? notice : "mpv is"))
        if width < 80 { #expect(text.hasSuffix("…")) }
    }

    @Test("a short notice leaves the progress bar")
    func shortNoticeKeepsBar() {
        let text = StatusBar.text(
            elapsed: 50, total: 100, paused: false, userOffset: 0, width: 80, notice: "volume 85%")
        #expect(text.contains("━") && text.hasSuffix("volume 85%"))
        #expect(text.count <= 80)
    }
}
