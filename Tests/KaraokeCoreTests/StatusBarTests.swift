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

    @Test(
        "the bar keeps its place and width whatever the messages after it say",
        arguments: [39, 40, 57, 60, 80, 100, 200, 400])
    func barStaysPut(width: Int) throws {
        let plain = StatusBar.layOut(elapsed: 61, total: 200, paused: false, userOffset: 0, width: width, notice: nil)
        let bar = try #require(plain.text.range(of: "━━")).lowerBound
        let start = plain.text.distance(from: plain.text.startIndex, to: bar)
        #expect(start == 15, "two cells after '▶ 1:01 / 3:20'")
        for (notice, offset, singing) in [
            ("volume 85%", 0, nil), ("mpv: audio output initialization failed; playing without sound", 0, nil),
            (nil, -1_200, "key +2  tempo 0.85×  vocals 50 %"), ("a notice", 300, "vocals 50 %"),
        ] as [(String?, Int, String?)] {
            let other = StatusBar.layOut(
                elapsed: 61, total: 200, paused: true, userOffset: offset, width: width, notice: notice,
                singing: singing)
            #expect(other.barWidth == plain.barWidth)
            let cells = Array(other.text), same = Array(plain.text)
            #expect(cells[2..<(start + plain.barWidth)] == same[2..<(start + plain.barWidth)], "'\(other.text)'")
            #expect(DisplayWidth.of(other.text) <= width)
        }
    }

    @Test(
        "the bar is a tenth of the row, 8 to 40 cells, where the short hints fit beside it",
        arguments: [
            (width: 38, bar: 0), (width: 39, bar: 8), (width: 60, bar: 8), (width: 89, bar: 8), (width: 90, bar: 9),
            (width: 100, bar: 10), (width: 120, bar: 12), (width: 200, bar: 20), (width: 400, bar: 40),
            (width: 1000, bar: 40),
        ])
    func barWidth(width: Int, bar: Int) {
        #expect(StatusBar.zones(width: width, total: 200, queuePosition: nil).barWidth == bar)
    }

    @Test(
        "the row at every width from 12 to 400 keeps the elapsed time, or the notice while it lasts, and fits",
        arguments: [12, 13, 16, 20, 24, 25, 30, 38, 39, 50, 80, 120, 200, 400])
    func everyWidth(width: Int) {
        for notice in [nil, "offset +0.2s saved to song.lrc (backup song.lrc.bak)"] {
            for paused in [false, true] {
                let text = StatusBar.text(
                    elapsed: 3_725, total: 7_200, paused: paused, userOffset: -1_200, width: width, notice: notice,
                    singing: "key +2", queuePosition: "3/12")
                #expect(DisplayWidth.of(text) <= width, "width \(width): '\(text)'")
                if let notice {
                    #expect(text.contains(notice.prefix(width >= 24 ? 9 : 5)), "width \(width): '\(text)'")
                } else {
                    #expect(text.hasPrefix(paused ? "⏸ 1:02:05" : "▶ 1:02:05"), "'\(text)'")
                }
            }
        }
    }

    @Test("the text never exceeds the width", arguments: Array(1...90))
    func neverTooWide(width: Int) {
        for offset in [0, -1_200] {
            let text = StatusBar.text(elapsed: 3_725, total: 7_200, paused: true, userOffset: offset, width: width)
            #expect(DisplayWidth.of(text) <= width, "width \(width): '\(text)'")
        }
    }

    @Test("the rows DESIGN §4.1 and the README show are the rows drawn")
    func documentedRows() {
        let design = StatusBar.layOut(
            elapsed: 62, total: 220, paused: false, userOffset: 200, width: 100, notice: nil, singing: "key +2",
            queuePosition: "2/7", score: "♪ 4,210 great")
        #expect(design.text == "▶ 1:02 / 3:40  2/7  ━━────────  ♪ 4,210 great  offset +0.2s  key +2  ? help  q quit")
        let readme = StatusBar.text(
            elapsed: 62, total: 220, paused: false, userOffset: 200, width: 80, singing: "key +2")
        #expect(readme == "▶ 1:02 / 3:40  ━━──────  offset +0.2s  key +2  ␣ pause  ←→ seek  ? help  q quit")
    }

    @Test("when room is short the hints shorten, then the bar goes, then the total; the elapsed time stays")
    func dropOrder() {
        func row(_ width: Int) -> String {
            StatusBar.text(elapsed: 30, total: 120, paused: false, userOffset: 0, width: width)
        }
        let bar60 = "━━" + String(repeating: "─", count: 6)
        #expect(row(60) == "▶ 0:30 / 2:00  \(bar60)  ␣ pause  ←→ seek  ? help  q quit")
        #expect(row(50) == "▶ 0:30 / 2:00  ━━──────  ? help  q quit")
        #expect(row(36) == "▶ 0:30 / 2:00  ? help  q quit")
        #expect(row(24) == "▶ 0:30  ? help  q quit")
        #expect(row(16) == "▶ 0:30  ? help")
        #expect(row(12) == "▶ 0:30")
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
        #expect(bar == 8, "the least, with 45 cells after the clock")
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
    @Test(
        "a notice takes the hints' place, cut with … when the row is too narrow for it", arguments: [40, 60, 80, 120])
    func noticeShows(width: Int) {
        let notice = "mpv is not installed (not on PATH); playing without sound"
        let text = StatusBar.text(elapsed: 2, total: 100, paused: false, userOffset: 0, width: width, notice: notice)
        #expect(text.hasPrefix("▶ 0:02 / 1:40  ─"), "the bar stays, still unplayed")
        #expect(!text.contains("q quit"))
        #expect(DisplayWidth.of(text) <= width)
        #expect(text.contains(width >= 100 ? notice : "mpv is"))
        if width < 100 { #expect(text.hasSuffix("…")) }
    }

    @Test("a notice follows the offset and the singer's settings, which give way only to leave it 10 cells")
    func noticeAfterSettings() {
        func row(_ notice: String, singing: String) -> String {
            StatusBar.text(
                elapsed: 2, total: 100, paused: false, userOffset: 300, width: 80, notice: notice, singing: singing)
        }
        // 55 cells for the messages at 80 columns.
        #expect(row("volume 85%", singing: "key +2").hasSuffix("─  offset +0.3s  key +2  volume 85%"))
        #expect(
            row("cannot save the offset: permission denied", singing: "key +2")
                .hasSuffix("─  offset +0.3s  key +2  cannot save the offset: permissi…"))
        #expect(
            row("volume 85% and a long reason", singing: "key +2  tempo 0.85×  vocals 50 %  and more")
                .hasSuffix("─  offset +0.3s  volume 85% and a long reason"))
    }

    @Test("on a row without a bar, a notice too long for the place beside the clock takes the whole row")
    func noticeTakesTheRow() {
        func row(_ width: Int, _ notice: String) -> String {
            StatusBar.text(elapsed: 2, total: 100, paused: false, userOffset: 0, width: width, notice: notice)
        }
        #expect(row(20, "reduce motion on") == "reduce motion on")
        #expect(row(12, "no offset to save") == "no offset t…")
        #expect(row(20, "volume 85%") == "▶ 0:02  volume 85%", "a notice that fits keeps the clock")
    }

    @Test("a notice with wide characters is cut by cells, not characters")
    func wideNotice() {
        let text = StatusBar.text(
            elapsed: 2, total: 100, paused: false, userOffset: 0, width: 40, notice: "さくら駅のうたを保存しました")
        #expect(DisplayWidth.of(text) <= 40)
        #expect(text.hasSuffix("…"))
    }

    @Test("a short notice leaves the progress bar")
    func shortNoticeKeepsBar() {
        let text = StatusBar.text(
            elapsed: 50, total: 100, paused: false, userOffset: 0, width: 80, notice: "volume 85%")
        #expect(text.contains("━") && text.hasSuffix("volume 85%"))
        #expect(text.count <= 80)
    }
}
