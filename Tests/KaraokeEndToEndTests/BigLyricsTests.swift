import Foundation
import Testing

/// GNU Unifont where Debian's `unifont` puts it.
private let unifont = "/usr/share/unifont/unifont.hex"

/// Big lyrics (DESIGN §23) in a real terminal with the real GNU Unifont: what a room sees on a 200×60 screen.
@Suite(
    "Big lyrics in a terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"),
    .enabled(if: FileManager.default.fileExists(atPath: unifont), "needs Debian's unifont"),
    .concurrencyLimit(2))
struct BigLyricsTests {
    static let sung = "2;255;255;255"

    /// Whether `character` is one of the block characters big lyrics draw with (half blocks, quadrants,
    /// sextants).
    static func isBlock(_ character: Character) -> Bool {
        guard let scalar = character.unicodeScalars.first else { return false }
        return (0x2580...0x259F).contains(scalar.value) || (0x1FB00...0x1FB3B).contains(scalar.value)
    }

    /// The screen's rows of block characters, in runs of adjacent rows: a big line's band (a blank row, and
    /// the glyphs' own empty rows, lie between two lines).
    static func blockRuns(_ screen: [String]) -> [[Int]] {
        var runs: [[Int]] = []
        for (index, row) in screen.enumerated() where row.contains(where: isBlock) {
            if let last = runs.last?.last, last == index - 1 {
                runs[runs.count - 1].append(index)
            } else {
                runs.append([index])
            }
        }
        return runs
    }

    /// The cells of a styled row (tmux's `capture-pane -e`) that show a block character in the sung colour.
    static func litCells(_ styled: String) -> Int {
        var count = 0
        var color = ""
        var scalars = styled.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            guard scalar == "\u{1B}" else {
                if color == sung, isBlock(Character(scalar)) { count += 1 }
                continue
            }
            var sequence = ""
            while let next = scalars.next(), next != "m" { sequence.unicodeScalars.append(next) }
            let parts = sequence.dropFirst().split(separator: ";", omittingEmptySubsequences: false).map(String.init)
            var index = 0
            while index < parts.count {
                switch parts[index] {
                case "", "0", "39":
                    color = ""
                    index += 1
                case "38" where index + 4 < parts.count && parts[index + 1] == "2":
                    color = "2;" + parts[(index + 2)...(index + 4)].joined(separator: ";")
                    index += 5
                default:
                    index += 1
                }
            }
        }
        return count
    }

    /// `play --no-audio` of the demo song from 18.2 s (a line from 18 to 22 s) in a 200×60 session.
    func play(_ options: String) throws -> TmuxSession {
        let song = KaraokeProcess.song("lantern-river.lrc")
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play --no-audio \(song) --start 18.2 \(options)", columns: 200,
            rows: 60, term: "xterm-direct")
        try session.waitFor(timeout: 20) { BigLyricsTests.blockRuns($0).count >= 2 }
        return session
    }

    /// The screen once it stands still after a pause: two captures 300 ms apart whose block rows agree (the
    /// title may go on drifting). Returns the plain and the styled rows.
    func stillScreen(_ session: TmuxSession) throws -> (plain: [String], styled: [String]) {
        func bands() throws -> (plain: [String], styled: [String], key: [String]) {
            let plain = try session.screen()
            let styled = try session.styledScreen()
            let rows = BigLyricsTests.blockRuns(plain).joined()
            return (plain, styled, rows.map { styled.indices.contains($0) ? styled[$0] : "" })
        }
        var last = try bands()
        for _ in 0..<60 {
            usleep(300_000)
            let now = try bands()
            if now.key == last.key { return (now.plain, now.styled) }
            last = now
        }
        Issue.record("the big lines never stood still after a pause")
        return (last.plain, last.styled)
    }

    @Test("--size auto fills 200×60 with the current and the next line in big glyphs; the sweep lights the first")
    func autoFillsTheScreen() throws {
        let session = try play("--size auto")
        // The sweep is read with the clock paused, so a loaded machine cannot carry the song past the line
        // between two captures: play runs in steps of about half a second between a resume and a pause.
        try session.send("Space")
        var before = try stillScreen(session)
        var grew: [Int] = []
        for _ in 0..<8 where grew.count < 2 {
            try session.send("Space")
            usleep(500_000)
            try session.send("Space")
            let after = try stillScreen(session)
            let runs = BigLyricsTests.blockRuns(after.plain)
            try #require(runs.count >= 2, "\(after.plain.joined(separator: "\n"))")
            // Size 2 at 200×60 (the longest line, 66 letters, wraps once and still fits with the next): a Latin
            // line is 8 rows of 4-cell letters, of which Unifont's glyphs leave the top row empty.
            #expect(runs[0].count >= 6 && runs[1].count >= 6, "\(runs)")
            // The lines after the current one wait unlit.
            for row in runs.dropFirst().joined() { #expect(BigLyricsTests.litCells(after.styled[row]) == 0) }
            let lit = { (screen: [String]) in runs[0].reduce(0) { $0 + BigLyricsTests.litCells(screen[$1]) } }
            // Within one line the sweep only moves on; a new current line starts again from its first letter.
            if runs[0].map({ after.plain[$0] }) == runs[0].map({ before.plain[$0] }) {
                #expect(lit(after.styled) >= lit(before.styled), "the sweep only moves on")
                if lit(after.styled) > lit(before.styled) { grew.append(lit(after.styled)) }
            }
            before = after
        }
        #expect(grew.count == 2, "the sweep moved on twice within a line: \(grew)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("--big-cells sextants draws three pixel rows a cell with the sextant characters")
    func sextants() throws {
        let quadrantSession = try play("--size 2")
        let quadrantRows = BigLyricsTests.blockRuns(try quadrantSession.screen())
        try quadrantSession.send("q")
        let session = try play("--size 2 --big-cells sextants")
        let screen = try session.screen()
        let runs = BigLyricsTests.blockRuns(screen)
        let characters = runs.joined().flatMap { screen[$0].unicodeScalars }
        #expect(characters.contains { (0x1FB00...0x1FB3B).contains($0.value) })
        #expect(!characters.contains { (0x2596...0x259F).contains($0.value) }, "no quadrant characters")
        // 16 font pixel rows in 6 cell rows instead of 8.
        #expect(runs[0].count < quadrantRows[0].count, "\(runs[0]) against \(quadrantRows[0])")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }
}
