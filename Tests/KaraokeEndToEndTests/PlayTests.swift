import Foundation
import Testing

/// `karaoke play` in a real terminal emulator (tmux): what shows, what keys do, how it ends.
///
/// Frames are made deterministic with `--start` and pause; every wait polls with a generous timeout,
/// since CI machines are slow and noisy.
@Suite("Playing in a terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"), .concurrencyLimit(2))
struct PlayTests {
    static let lantern = KaraokeProcess.song("lantern-river.lrc")

    func play(
        _ arguments: String, columns: Int = 80, rows: Int = 24, term: String = "tmux-256color",
        environment: [String: String] = [:]
    ) throws -> TmuxSession {
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play --no-audio \(arguments)", columns: columns, rows: rows,
            term: term, environment: environment)
        try session.waitFor { $0.contains { $0.contains("Lantern River") } }
        return session
    }

    /// The row that holds `text`, styled.
    func styledRow(_ session: TmuxSession, containing text: String) throws -> String? {
        let plain = try session.screen()
        guard let index = plain.firstIndex(where: { $0.contains(text) }) else { return nil }
        let styled = try session.styledScreen()
        return index < styled.count ? styled[index] : nil
    }

    @Test("the title, the lyrics and the status bar show")
    func showsTitleAndLyrics() throws {
        let session = try play("\(PlayTests.lantern) --start 19")
        let screen = try session.waitFor { $0.contains { $0.contains("Every flame a wish") } }
        #expect(screen[0].contains("Lantern River — The Karaoke Band"))
        #expect(screen.contains { $0.contains("Every flame a wish I never said") })
        #expect(screen.contains { $0.contains("The evening water hums a quiet tune") })
        #expect(screen[23].contains("/ 1:40"))
        try session.send("q")
    }

    @Test("mid-sweep the current line has sung and unsung cells in different colours and a boundary shade")
    func sweepHasBoundaryShade() throws {
        let session = try play("\(PlayTests.lantern) --start 18.2", term: "xterm-direct")
        // Sample until a frame lands between two cells (nearly every frame does).
        var colours: [String] = []
        let deadline = Date().addingTimeInterval(8)
        while Date() < deadline {
            colours = try styledRow(session, containing: "Every flame")?.foregroundColors ?? []
            if Set(colours).count >= 3 { break }
            usleep(100_000)
        }
        let distinct = Set(colours)
        #expect(distinct.contains("2;255;255;255"), "sung cells are full white: \(colours)")
        #expect(distinct.contains("2;89;89;89"), "unsung cells at the rest opacity: \(colours)")
        #expect(distinct.count >= 3, "a boundary shade between them: \(colours)")
        try session.send("q")
    }

    @Test("space pauses: the screen stands still and the status bar says so")
    func spacePauses() throws {
        let session = try play("\(PlayTests.lantern) --start 20")
        try session.send("Space")
        let paused = try session.waitFor { $0[23].hasPrefix("⏸") }
        #expect(paused[23].hasPrefix("⏸"))
        usleep(300_000)
        let first = try session.styledScreen()
        usleep(500_000)
        let second = try session.styledScreen()
        // The title drifts while paused; the lyrics and the clock do not.
        #expect(Array(first.dropFirst()) == Array(second.dropFirst()))
        try session.send("Space")
        let resumed = try session.waitFor { $0[23].hasPrefix("▶") }
        #expect(resumed[23].hasPrefix("▶"))
        try session.send("q")
    }

    @Test("→ moves the elapsed time by about 5 s, and + shows the offset")
    func seekAndOffset() throws {
        let session = try play("\(PlayTests.lantern) --start 30")
        try session.send("Space")
        let before = try session.waitFor { $0[23].hasPrefix("⏸") }
        let start = try #require(PlayTests.elapsed(before[23]))
        try session.send("Right")
        let after = try session.waitFor { PlayTests.elapsed($0[23]) != start }
        let moved = try #require(PlayTests.elapsed(after[23]))
        #expect(abs(moved - start - 5) <= 1, "\(before[23]) → \(after[23])")
        try session.send("+")
        let offset = try session.waitFor { $0[23].contains("offset +0.1s") }
        #expect(offset[23].contains("offset +0.1s"))
        try session.send("-", "-")
        let negative = try session.waitFor { $0[23].contains("offset -0.1s") }
        #expect(negative[23].contains("offset -0.1s"))
        try session.send("q")
    }

    @Test("a resize lays the lines out again at once, without leftovers")
    func resizeRelays() throws {
        let session = try play("\(PlayTests.lantern) --start 14", columns: 80, rows: 24)
        try session.send("Space")
        _ = try session.waitFor { $0[23].hasPrefix("⏸") }
        // The long line wraps at the new width, and what is on screen is exactly what render draws.
        let render = try KaraokeProcess.run([
            "render", PlayTests.lantern, "--at", "14.5", "--cols", "40", "--rows", "16",
        ])
        let expected = render.stdout.components(separatedBy: "\n").prefix(15).map { PlayTests.trimmed($0) }
        try session.resize(columns: 40, rows: 16)
        // When tmux shrinks the window it shifts the old screen up, old status bar included, until karaoke
        // repaints: wait for the new layout itself, not for a status bar on the last row.
        let screen = try session.waitFor { $0.count >= 16 && $0.prefix(15).map { PlayTests.trimmed($0) } == expected }
        let rows = Array(screen.prefix(16))
        #expect(rows[15].hasPrefix("⏸"))
        #expect(rows.prefix(15).map { PlayTests.trimmed($0) } == expected)
        try session.send("q")
    }

    @Test("--reduce-motion never shows a boundary shade")
    func reduceMotionHasNoShade() throws {
        let session = try play("\(PlayTests.lantern) --start 18.2 --reduce-motion", term: "xterm-direct")
        for _ in 0..<15 {
            let colours = Set(try styledRow(session, containing: "Every flame")?.foregroundColors ?? [])
            #expect(colours.isSubset(of: ["2;255;255;255", "2;89;89;89"]), "\(colours)")
            usleep(100_000)
        }
        try session.send("q")
    }

    @Test(
        "TERM=xterm falls back to dim and bold, NO_COLOR to bold alone",
        arguments: [("xterm", [String: String]()), ("tmux-256color", ["NO_COLOR": "1"])])
    func attributesWithoutColours(term: String, environment: [String: String]) throws {
        let session = try play("\(PlayTests.lantern) --start 20", term: term, environment: environment)
        try session.send("Space")
        _ = try session.waitFor { $0[23].hasPrefix("⏸") }
        let styled = try session.styledScreen().joined(separator: "\n")
        #expect(!styled.contains("38;5;"))
        #expect(!styled.contains("38;2;"))
        let sung = try #require(try styledRow(session, containing: "The evening water"))
        #expect(sung.sgrSequences.contains { $0.split(separator: ";").contains("1") }, "sung lines are bold: \(sung)")
        if environment["NO_COLOR"] != nil {
            // tmux's own resets (39 default colour) aside, no colour is ever set.
            let colours = styled.sgrSequences.flatMap { $0.split(separator: ";") }
                .filter { $0.count == 2 && $0.hasPrefix("3") && $0 != "39" }
            #expect(colours.isEmpty, "no colours at all: \(colours)")
        } else {
            let coming = try #require(try styledRow(session, containing: "The willows lean"))
            #expect(coming.sgrSequences.contains { $0.split(separator: ";").contains("2") }, "unsung lines are dim")
        }
        try session.send("q")
    }

    @Test("q ends with status 0 and leaves the alternate screen")
    func quitRestoresTerminal() throws {
        let session = try play("\(PlayTests.lantern) --start 20")
        try session.send("q")
        let status = try session.exitStatus()
        #expect(status == 0)
        let screen = try session.screen()
        #expect(!screen.contains { $0.contains("Lantern River") }, "the player's screen is gone")
    }

    @Test("the song's end exits 0")
    func endOfSong() throws {
        let session = try play("\(PlayTests.lantern) --start 99")
        #expect(try session.exitStatus(timeout: 15) == 0)
    }

    @Test(
        "a signal restores the terminal and exits 128 + N",
        arguments: [("C-c", 130), ("TERM", 143), ("HUP", 129)])
    func signalsRestore(signal: String, status: Int) throws {
        let session = try play("\(PlayTests.lantern) --start 20")
        if signal == "C-c" {
            try session.send("C-c")
        } else {
            let pid = try #require(try session.commandPID())
            kill(pid, signal == "TERM" ? SIGTERM : SIGHUP)
        }
        #expect(try session.exitStatus() == status)
        #expect(!(try session.screen()).contains { $0.contains("Lantern River") })
    }

    @Test("an unknown TERM is a one-line error, not a crash")
    func unknownTerminal() throws {
        let session = try TmuxSession("'\(KaraokeProcess.binary.path)' play \(PlayTests.lantern)", term: "no-such-term")
        #expect(try session.exitStatus() == 2)
        let screen = try session.screen()
        #expect(screen.contains { $0.hasPrefix("karaoke: unknown terminal type 'no-such-term'") })
    }

    @Test(
        "bad input is refused before anything starts, with one line: no cursor addressing, --start past the end, --audio that cannot be opened",
        arguments: [
            ("", "dumb", 2, "karaoke: the terminal type 'dumb' cannot move the cursor, which the player needs"),
            ("--no-audio --start 500", "tmux-256color", 2, "karaoke: --start 500 is past the end of "),
            ("--audio /nonexistent/nosuch.mp3", "tmux-256color", 1, "karaoke: /nonexistent/nosuch.mp3: no such file"),
        ])
    func refusedBeforeStarting(arguments: String, term: String, status: Int, message: String) throws {
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play \(PlayTests.lantern) \(arguments)", columns: 300, rows: 10,
            term: term)
        #expect(try session.exitStatus() == status)
        // The session's own last line is EXIT=N; a 300-column pane holds the message on one row.
        let screen = try session.screen().filter { !$0.isEmpty && !$0.hasPrefix("EXIT=") }
        #expect(screen.count == 1 && screen[0].hasPrefix(message), "\(screen)")
        #expect(!screen.contains { $0.contains("Lantern River") || $0.contains("0:00") })
    }

    @Test("a terminal too small shows a notice and keeps time")
    func tooSmall() throws {
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play \(PlayTests.lantern) --start 97 --mpv-option ao=null",
            columns: 10, rows: 4)
        let screen = try session.waitFor { $0.contains { $0.contains("too small") } }
        #expect(screen.contains { $0.contains("too small") })
        // Time goes on: the song (3 s left) ends by itself.
        #expect(try session.exitStatus(timeout: 15) == 0)
    }

    @Test("Ctrl-Z suspends and fg redraws")
    func suspendAndResume() throws {
        let session = try TmuxSession("bash --norc --noprofile -i", columns: 80, rows: 24)
        try session.send("'\(KaraokeProcess.binary.path)' play --no-audio \(PlayTests.lantern) --start 20", "Enter")
        _ = try session.waitFor { $0.contains { $0.contains("Lantern River — The Karaoke Band") } }
        try session.send("C-z")
        let stopped = try session.waitFor { $0.contains { $0.contains("Stopped") } }
        #expect(stopped.contains { $0.contains("Stopped") })
        try session.send("fg", "Enter")
        let back = try session.waitFor { $0.contains { $0.contains("Lantern River — The Karaoke Band") } }
        #expect(back.contains { $0.contains("Lantern River — The Karaoke Band") })
        #expect(back.contains { $0.contains("Every flame a wish") || $0.contains("Every ripple") })
        try session.send("q")
        // An interactive bash outlives tmux's kill-server (it keeps the server waiting): end it here, once its
        // prompt is back (capture-pane drops the prompt's trailing space).
        _ = try session.waitFor { $0.contains { $0.hasPrefix("bash") && $0.hasSuffix("#") } }
        try session.send("exit", "Enter")
        _ = try session.exitStatus()
    }

    static func elapsed(_ status: String) -> Double? {
        let fields = status.split(separator: " ")
        guard fields.count > 1 else { return nil }
        let parts = fields[1].split(separator: ":").compactMap { Double($0) }
        guard parts.count == 2 else { return nil }
        return parts[0] * 60 + parts[1]
    }

    static func trimmed(_ row: String) -> String {
        var row = row
        while row.last == " " { row.removeLast() }
        return row
    }
}
