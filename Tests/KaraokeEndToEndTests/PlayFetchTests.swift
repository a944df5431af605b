import Foundation
import Testing

/// `karaoke play AUDIO --fetch` in tmux against our LRCLIB-compatible server on 127.0.0.1 (DESIGN §11), and
/// plain lyrics found on this machine shown as pages (DESIGN §4): never the internet, and silent
/// (`--no-audio`), so mpv is not needed.
@Suite(
    "Playing with lyrics from LRCLIB, and plain lyrics as pages",
    .enabled(if: TmuxSession.isAvailable && LRCLIBServer.isAvailable, "needs tmux, python3 and libcurl4"),
    .concurrencyLimit(2))
struct PlayFetchTests {
    /// One test's server, temporary folder (its home and cache) and audio files.
    final class Setting {
        let server: LRCLIBServer
        let folder: URL

        init() throws {
            server = try LRCLIBServer()
            folder = try KaraokeProcess.temporaryFolder()
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        /// The cache folder of this test.
        var cache: URL { folder.appendingPathComponent("cache/karaoke/lrclib") }

        /// The environment of every run: this folder as home and cache, no proxy, no server from outside.
        var environment: [String: String] {
            [
                "HOME": folder.path, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
                "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "no_proxy": "*", "NO_PROXY": "*",
                "KARAOKE_LRCLIB_URL": "",
            ]
        }

        /// An empty audio file named `Test Artist - TITLE.mp3`: its name gives the artist and title, the
        /// server's case TITLE.
        func audio(_ title: String) -> String {
            let path = folder.appendingPathComponent("Test Artist - \(title).mp3").path
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            return path
        }

        /// `karaoke play --no-audio AUDIO ARGUMENTS` in a `columns` × 16 tmux session.
        func play(
            _ audio: String, _ arguments: String, columns: Int = 60, environment more: [String: String] = [:]
        ) throws -> TmuxSession {
            try TmuxSession(
                "'\(KaraokeProcess.binary.path)' play --no-audio '\(audio)' \(arguments)", columns: columns,
                rows: 16, environment: environment.merging(more) { $1 })
        }

        /// The cache entries written.
        func cacheEntries() -> [String] {
            (try? FileManager.default.contentsOfDirectory(atPath: cache.path)) ?? []
        }
    }

    @Test("the audio starts at once with 'looking up…', and the lyrics replace it when LRCLIB answers")
    func lookingUpThenLyrics() throws {
        let setting = try Setting()
        let session = try setting.play(setting.audio("delayed"), "--fetch --lrclib-url \(setting.server.url)")
        // The server answers after 2 s: meanwhile the player runs, its clock going.
        let waiting = try session.waitFor { $0.contains { $0.contains("looking up") } }
        #expect(
            waiting.contains { $0.contains("looking up Test Artist — delayed on 127.0.0.1:\(setting.server.port)…") })
        #expect(waiting[15].hasPrefix("▶"), "\(waiting[15])")
        let found = try session.waitFor { $0.contains { $0.contains("first line of the found song") } }
        #expect(!found.contains { $0.contains("looking up") })
        #expect(found[0].contains("delayed — Test Artist"))
        #expect(found[15].contains("/ 3:20"))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(setting.cacheEntries().count == 1)
    }

    @Test("a cached answer is shown with the server stopped")
    func cacheHit() throws {
        let setting = try Setting()
        let audio = setting.audio("found")
        let fetched = try KaraokeProcess.run(
            ["fetch", audio, "--lrclib-url", setting.server.url],
            environment: setting.environment)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        setting.server.stop()
        let session = try setting.play(audio, "--fetch --lrclib-url \(setting.server.url)")
        // What is shown is checked, not how soon: under ThreadSanitizer beside the other audio tests, one CI
        // run had not shown it after 10 s (it takes well under one by itself), so the wait is 30 s.
        let screen = try session.waitFor(timeout: 30) { $0.contains { $0.contains("first line of the found song") } }
        #expect(
            screen.contains { $0.contains("first line of the found song") }, "\(screen.joined(separator: "\n"))")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("no lyrics on LRCLIB says so on screen and plays on until q")
    func noLyrics() throws {
        let setting = try Setting()
        let session = try setting.play(setting.audio("nothing"), "--fetch --lrclib-url \(setting.server.url)")
        let screen = try session.waitFor { $0.contains { $0.contains("no lyrics for") } }
        #expect(screen.contains { $0.contains("no lyrics for Test Artist — nothing") })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a lookup that times out says so and why in the lyric area, not 'no lyrics', and playback goes on")
    func failure() throws {
        let setting = try Setting()
        // 80 columns: the reason, with the server's address in it, needs the 55 cells a notice has there.
        let session = try setting.play(
            setting.audio("slow"), "--fetch --lrclib-url \(setting.server.url)", columns: 80,
            environment: ["KARAOKE_HTTP_TIMEOUT": "1"])
        let screen = try session.waitFor { $0.contains { $0.contains("could not look up") } }
        #expect(
            Self.lyricArea(screen).contains(
                "could not look up Test Artist — slow: 127.0.0.1:\(setting.server.port) did not answer within 1 s"),
            "\(screen)")
        #expect(!screen.contains { $0.contains("no lyrics for") })
        #expect(screen[15].hasPrefix("▶"), "\(screen[15])")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a server refusing connections is said to have failed, not to have no lyrics, and nothing is cached")
    func refused() throws {
        let setting = try Setting()
        // Stopped, its port refuses connections.
        setting.server.stop()
        let session = try setting.play(setting.audio("found"), "--fetch --lrclib-url \(setting.server.url)")
        let screen = try session.waitFor { $0.contains { $0.contains("could not look up") } }
        #expect(
            Self.lyricArea(screen).contains(
                "could not look up Test Artist — found: cannot connect to 127.0.0.1:\(setting.server.port): "),
            "\(screen)")
        #expect(!screen.contains { $0.contains("no lyrics for") })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(setting.cacheEntries().isEmpty)
    }

    /// The lyric area's rows, trimmed and joined with spaces: a wrapped message reads as one line again.
    static func lyricArea(_ screen: [String]) -> String {
        screen.dropFirst().prefix(14).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .joined(separator: " ")
    }

    @Test("untimed lyrics from LRCLIB are shown as a page, marked not timed")
    func plainFromLRCLIB() throws {
        let setting = try Setting()
        let session = try setting.play(setting.audio("plain"), "--fetch --lrclib-url \(setting.server.url)")
        let screen = try session.waitFor { $0.contains { $0.contains("lyrics not timed") } }
        #expect(screen.contains { $0.contains("a plain line") })
        #expect(screen.contains { $0.contains("another plain line") })
        #expect(screen[14].contains("lyrics not timed"))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("without --fetch nothing is asked: the player says where it looked and how to ask")
    func noNetworkWithoutFetch() throws {
        let setting = try Setting()
        let session = try setting.play(setting.audio("found"), "--lrclib-url \(setting.server.url)")
        #expect(try session.exitStatus() == 1)
        let screen = try session.screen().joined(separator: " ")
        #expect(screen.contains("no lyrics found for"), "\(screen)")
        #expect(screen.contains("'--fetch' asks LRCLIB"), "\(screen)")
        // Every answer, a miss too, is cached: an empty cache means LRCLIB was not asked.
        #expect(setting.cacheEntries().isEmpty)
    }

    @Test("a plain .txt beside the audio is shown as pages that turn with the song")
    func plainSidecar() throws {
        let setting = try Setting()
        let audio = setting.audio("local")
        // 30 lines on a 60 × 16 screen: 13 rows a page, so 3 pages.
        let text = (1...30).map { "plain local line \($0)" }.joined(separator: "\n") + "\n"
        try text.write(
            toFile: setting.folder.appendingPathComponent("Test Artist - local.txt").path, atomically: true,
            encoding: .utf8)
        let session = try setting.play(audio, "")
        let screen = try session.waitFor { $0.contains { $0.contains("lyrics not timed") } }
        #expect(screen.contains { $0.contains("plain local line 1") })
        #expect(screen[14].contains("page 1/3"), "\(screen[14])")
        // No audio and no length: the song does not end by itself, and the seek keys still work.
        try session.send("End")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let check = try KaraokeProcess.run(["check", audio], environment: ["HOME": setting.folder.path])
        #expect(check.status == 0)
        #expect(check.stdout.contains("plain lyrics, not timed, 30 lines"), "\(check.stdout)")
        #expect(setting.cacheEntries().isEmpty)
    }
}

/// Which `.txt` files found for an audio file are plain lyrics (DESIGN §10.1).
@Suite("Plain .txt lyrics beside an audio file", .concurrencyLimit(4))
struct PlainTextLyricsTests {
    @Test(
        "a .txt whose lines open like stamps is still LRC with its faults, and one given as FILE is a lyric file",
        arguments: [
            ("[00:1x.00] broken stamp\n[00:2x.00] another\n", true), // meant to be LRC
            ("just words\nno times\n", false), // plain, but given as FILE below
        ])
    func notPlain(text: String, beside: Bool) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = folder.appendingPathComponent("song.mp3").path
        _ = FileManager.default.createFile(atPath: audio, contents: Data())
        let lyrics = folder.appendingPathComponent("song.txt").path
        try text.write(toFile: lyrics, atomically: true, encoding: .utf8)
        let run = try KaraokeProcess.run(["check", beside ? audio : lyrics], environment: ["HOME": folder.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no timed lyric line"), "\(run.stderr)")
        #expect(!run.stdout.contains("plain lyrics"))
    }
}
