import Foundation
import Testing

/// `karaoke play` with a queue of songs in a real terminal (tmux): the card, n and N, songs that end
/// by themselves, an unusable entry's card, the end card, a playlist and a folder (DESIGN §14.2). Silent (`--no-audio`)
/// and with songs of two seconds, so the queue moves quickly.
@Suite("A queue of songs in a terminal", .enabled(if: TmuxSession.isAvailable, "needs tmux"), .concurrencyLimit(1))
struct QueueTests {
    /// A song called `title` whose two lines last two seconds in all.
    static func shortSong(_ title: String) -> String {
        "[ti:\(title)]\n[ar:Test Band]\n[00:00.00]\(title) begins here\n[00:01.00]\(title) is ending\n[00:02.00]\n"
    }

    /// A temporary folder holding one.lrc, two.lrc and three.lrc (short songs), plus `extra` files.
    static func folder(extra: [String: String] = [:]) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            for name in ["One", "Two", "Three"] {
                try shortSong(name).write(
                    to: folder.appendingPathComponent("\(name.lowercased()).lrc"), atomically: true, encoding: .utf8)
            }
            for (name, text) in extra {
                let url = folder.appendingPathComponent(name)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
    }

    /// `karaoke play --no-audio ARGUMENTS` in a 70 × 14 session, stderr to `folder/stderr`.
    func play(_ arguments: String, in folder: URL) throws -> TmuxSession {
        try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play --no-audio \(arguments) 2>'\(folder.path)/stderr'",
            columns: 70, rows: 14)
    }

    /// `karaoke play --no-audio ARGUMENTS` run from inside `folder` (so relative paths are shown as given),
    /// in a 70 × 14 session, stderr to `folder/stderr`.
    func play(_ arguments: String, from folder: URL) throws -> TmuxSession {
        try TmuxSession(
            "sh -c \"cd '\(folder.path)' && exec '\(KaraokeProcess.binary.path)' play --no-audio \(arguments) 2>stderr\"",
            columns: 70, rows: 14)
    }

    /// Whether a row of `screen` contains `text`.
    func shows(_ screen: [String], _ text: String) -> Bool { screen.contains { $0.contains(text) } }

    @Test("a card names the next song; space starts it, n and N move through the queue, q ends with 0")
    func cardAndKeys() throws {
        let folder = try QueueTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["one", "two", "three"].map { "'\(folder.path)/\($0).lrc'" }.joined(separator: " ")
        let session = try play("\(files) --singer Ana", in: folder)
        var screen = try session.waitFor { shows($0, "next: One — Test Band") }
        #expect(shows(screen, "sung by Ana"))
        #expect(shows(screen, "1/3  starts in"))
        try session.send("Space")
        screen = try session.waitFor { shows($0, "One begins here") }
        #expect(shows(screen, "One begins here"))
        #expect(screen[13].contains("1/3"), "the status bar shows the place in the queue: \(screen[13])")
        try session.send("n")
        screen = try session.waitFor { shows($0, "next: Two") }
        #expect(shows(screen, "2/3  starts in"))
        try session.send("n")
        screen = try session.waitFor { shows($0, "next: Three") }
        #expect(shows(screen, "next: Three"))
        try session.send("N")
        screen = try session.waitFor { shows($0, "next: Two") }
        #expect(shows(screen, "next: Two"))
        try session.send("Space")
        screen = try session.waitFor { shows($0, "Two begins here") }
        #expect(screen[13].contains("2/3"))
        try session.send("N")
        screen = try session.waitFor { shows($0, "next: One") }
        #expect(shows(screen, "next: One"))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("songs end by themselves, each card starts its song after five seconds, and the queue ends on its end card")
    func runsThrough() throws {
        let folder = try QueueTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play("'\(folder.path)/one.lrc' '\(folder.path)/two.lrc'", in: folder)
        try session.waitFor { shows($0, "next: One") }
        let shownAt = Date()
        // No key: the card goes by itself, with generous margins for a slow machine.
        var screen = try session.waitFor(timeout: 15) { shows($0, "One begins here") || shows($0, "One is ending") }
        #expect(shows(screen, "One"), "the first song started: \(screen)")
        #expect(Date().timeIntervalSince(shownAt) > 3.5, "the card stayed for about five seconds")
        screen = try session.waitFor(timeout: 15) { shows($0, "next: Two") }
        #expect(shows(screen, "2/2  starts in"), "the first song ended into the second's card")
        try session.send("Space")
        // The last song's end is no exit: the end card says what was sung and waits for q.
        screen = try session.waitFor(timeout: 15) { shows($0, "the end of the queue") }
        #expect(shows(screen, "One — Test Band") && shows(screen, "Two — Test Band"), "\(screen)")
        #expect(shows(screen, "q quit  N back  2 sung  0 skipped"), "\(screen)")
        #expect(!shows(screen, "EXIT="))
        try session.send("q")
        #expect(try session.exitStatus(timeout: 15) == 0)
    }

    @Test("an unusable entry in the middle shows its own card with the reason, and the queue goes on by itself")
    func brokenSkipped() throws {
        let folder = try QueueTests.folder(extra: ["broken.lrc": "no timed lines at all\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play("one.lrc ./broken.lrc two.lrc", from: folder)
        try session.waitFor { shows($0, "next: One") }
        try session.send("n")
        var screen = try session.waitFor { shows($0, "skipped broken.lrc: no timed lyric line") }
        let shownAt = Date()
        #expect(shows(screen, "skipped broken.lrc: no timed lyric line"), "the entry's card and why: \(screen)")
        #expect(shows(screen, "2/3  goes on in"), "\(screen)")
        // No key: the queue goes on after about three seconds.
        screen = try session.waitFor { shows($0, "next: Two") }
        #expect(shows(screen, "3/3  starts in"), "\(screen)")
        #expect(Date().timeIntervalSince(shownAt) > 1.5, "the skipped card stayed for a few seconds")
        try session.send("n")
        screen = try session.waitFor { shows($0, "the end of the queue") }
        #expect(shows(screen, "skipped broken.lrc: no timed lyric line"), "the end card names it too: \(screen)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let stderr = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)
        #expect(stderr.contains("karaoke: skipped broken.lrc: no timed lyric line"), "stderr: \(stderr)")
    }

    @Test("a playlist's missing last entry: n on the song before shows the end card naming it; N goes back, q exits 0")
    func missingLast() throws {
        let folder = try QueueTests.folder(extra: ["pl/night.m3u": "../one.lrc\n../two.lrc\n../missing.lrc\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play("pl/night.m3u", from: folder)
        try session.waitFor { shows($0, "next: One") }
        try session.send("n")
        try session.waitFor { shows($0, "next: Two") }
        try session.send("Space")
        try session.waitFor { shows($0, "Two begins here") }
        try session.send("n")
        // The file as the playlist means it (pl/../missing.lrc is missing.lrc), then why.
        var screen = try session.waitFor { shows($0, "the end of the queue") }
        #expect(shows(screen, "skipped missing.lrc: no such file"), "\(screen)")
        #expect(shows(screen, "Two — Test Band"), "what was sung: \(screen)")
        #expect(!shows(screen, "EXIT="), "the end card waits: \(screen)")
        try session.send("N")
        screen = try session.waitFor { shows($0, "next: Two") }
        #expect(shows(screen, "2/3  starts in"), "back to the last song that can be played: \(screen)")
        try session.send("n")
        try session.waitFor { shows($0, "the end of the queue") }
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let stderr = try String(contentsOf: folder.appendingPathComponent("stderr"), encoding: .utf8)
        #expect(stderr == "karaoke: skipped missing.lrc: no such file\n", "stderr: \(stderr)")
    }

    @Test("a queue in which nothing can be read shows what was skipped on its end card, and q exits 1")
    func nothingReadable() throws {
        let folder = try QueueTests.folder(extra: ["broken.lrc": "no timed lines at all\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play("broken.lrc missing.lrc", from: folder)
        var screen = try session.waitFor { shows($0, "skipped broken.lrc") }
        try session.send("Space")
        screen = try session.waitFor { shows($0, "the end of the queue") }
        #expect(shows(screen, "nothing was sung"), "\(screen)")
        #expect(shows(screen, "skipped missing.lrc: no such file"), "\(screen)")
        #expect(shows(screen, "q quit  0 sung  2 skipped"), "no way back: \(screen)")
        try session.send("q")
        #expect(try session.exitStatus() == 1)
    }

    @Test("an m3u playlist's relative paths are read against its folder, with its titles and singers")
    func playlist() throws {
        let playlist =
            "#EXTM3U\r\n#EXTINF:2,Opening\r\n#EXTSINGER:Bo\r\nsongs/first.lrc\r\nhttps://example.com/x.lrc\r\n../two.lrc\r\n"
        let folder = try QueueTests.folder(extra: [
            "songs/first.lrc": "[00:00.00]the first line\n[00:01.00]\n",
            "lists/night.m3u": playlist,
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        // Rewritten so that ../two.lrc, from lists/, is the folder's two.lrc, and songs/ sits beside it.
        try playlist.replacingOccurrences(of: "songs/first.lrc", with: "../songs/first.lrc").write(
            to: folder.appendingPathComponent("lists/night.m3u"), atomically: true, encoding: .utf8)
        let session = try play("'\(folder.path)/lists/night.m3u'", in: folder)
        var screen = try session.waitFor { shows($0, "next: Opening") }
        #expect(shows(screen, "sung by Bo"))
        #expect(shows(screen, "1/2"), "the URL is not a song: \(screen)")
        #expect(shows(screen, "URL"), "the URL's warning is on the first card")
        try session.send("n")
        screen = try session.waitFor { shows($0, "next: Two") }
        #expect(shows(screen, "2/2"))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a folder is a queue of its songs sorted by name, each once")
    func folderQueue() throws {
        let folder = try QueueTests.folder(extra: ["one.opus": "not really audio", "notes.pdf": "x"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play("'\(folder.path)'", in: folder)
        let screen = try session.waitFor { shows($0, "next: One") }
        #expect(shows(screen, "1/3"), "one.opus and one.lrc are one song: \(screen)")
        try session.send("n")
        try session.waitFor { shows($0, "next: Three") }
        try session.send("n")
        #expect(shows(try session.waitFor { shows($0, "next: Two") }, "3/3"))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test(
        "each song has its own mpv, stopped when the queue moves on",
        .enabled(if: MpvProbe.isAvailable, "needs mpv"))
    func mpvPerSong() throws {
        let folder = try QueueTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["lantern-river.lrc", "lantern-river.opus"] {
            try FileManager.default.copyItem(
                atPath: KaraokeProcess.song(name), toPath: folder.appendingPathComponent(name).path)
        }
        let audio = folder.appendingPathComponent("lantern-river.opus").path
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)/lantern-river.opus' '\(folder.path)/one.lrc' "
                + "--mpv-option ao=null",
            columns: 70, rows: 14)
        try session.waitFor { shows($0, "next: Lantern River") }
        #expect(MpvProbe.all(mentioning: folder.path).isEmpty, "no mpv while the card shows")
        try session.send("Space")
        #expect(MpvProbe.waitFor(playing: audio) != nil, "mpv plays the first song's audio")
        try session.send("n")
        try session.waitFor { shows($0, "next: One") }
        let deadline = Date().addingTimeInterval(8)
        while !MpvProbe.all(mentioning: folder.path).isEmpty && Date() < deadline { usleep(50_000) }
        #expect(MpvProbe.all(mentioning: folder.path).isEmpty, "the first song's mpv is gone")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }
}
