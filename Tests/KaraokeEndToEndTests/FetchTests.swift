import Foundation
import Testing

/// `karaoke fetch` against our LRCLIB-compatible server on 127.0.0.1 (DESIGN §11): never the internet.
@Suite(
    "Fetching lyrics from LRCLIB", .enabled(if: LRCLIBServer.isAvailable, "needs python3 and libcurl4"),
    .concurrencyLimit(2))
struct FetchTests {
    /// The User-Agent karaoke must send.
    static let userAgent = "karaoke/0.1.0 (+https://github.com/karaoke-terminal/karaoke)"

    /// One test's server, temporary folder and cache.
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

        /// A path in the folder.
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        /// Runs `karaoke fetch ARGUMENTS --lrclib-url SERVER` with this test's cache and no proxy.
        func fetch(_ arguments: [String], environment: [String: String] = [:]) throws -> KaraokeProcess.Output {
            var env = [
                "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path, "no_proxy": "*", "NO_PROXY": "*",
                "KARAOKE_LRCLIB_URL": "", "KARAOKE_HTTP_TIMEOUT": "",
            ]
            for (key, value) in environment { env[key] = value }
            return try KaraokeProcess.run(["fetch"] + arguments + ["--lrclib-url", server.url], environment: env)
        }

        /// `fetch --artist 'Test Artist' --title TITLE --duration 200`, the server's case TITLE.
        func fetch(title: String, _ more: [String] = [], environment: [String: String] = [:]) throws
            -> KaraokeProcess.Output
        {
            try fetch(
                ["--artist", "Test Artist", "--title", title, "--duration", "200"] + more, environment: environment)
        }

        /// An empty audio file named `Test Artist - TITLE.mp3`; its name gives the artist and title.
        func audio(_ title: String) throws -> String {
            let path = path("Test Artist - \(title).mp3")
            _ = FileManager.default.createFile(atPath: path, contents: Data())
            return path
        }

        /// The files in the folder besides the cache, sorted.
        func files() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "cache" }.sorted()
        }
    }

    @Test("Timed lyrics are printed as LRC with the song's names, and the match taken is named")
    func foundSynced() throws {
        let setting = try Setting()
        let run = try setting.fetch(title: "found")
        #expect(run.status == 0)
        #expect(
            run.stdout == """
                [ti:found]
                [ar:Test Artist]
                [al:Test Album]
                [length:03:20.00]
                [00:01.00]first line of the found song
                [00:03.50]second line
                [00:06.00]third line

                """)
        #expect(run.stderr.contains("found Test Artist — found · Test Album · 3:20 · synced [lrclib:11]"))
    }

    @Test("A 404 from /api/get falls back to /api/search, which takes timed lyrics closest in length")
    func searchFallback() throws {
        let setting = try Setting()
        let run = try setting.fetch(title: "fallback")
        #expect(run.status == 0)
        #expect(run.stdout.contains("[00:01.00]close version"))
        #expect(run.stderr.contains("[lrclib:33] (best of 3; --pick chooses)"))
    }

    @Test("--pick without a terminal on stdin takes the best match and says so")
    func pickWithoutTerminal() throws {
        let setting = try Setting()
        let run = try setting.fetch(title: "fallback", ["--pick"])
        #expect(run.status == 0)
        #expect(run.stdout.contains("close version"))
        #expect(run.stderr.contains("'--pick' needs a terminal on stdin"))
    }

    @Test("An instrumental is said, exits 0 and writes nothing")
    func instrumental() throws {
        let setting = try Setting()
        let audio = try setting.audio("instrumental")
        let run = try setting.fetch([audio, "--save"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("instrumental, no lyrics"))
        #expect(run.stdout.isEmpty)
        #expect(try setting.files() == ["Test Artist - instrumental.mp3"])
    }

    @Test("Untimed lyrics are saved as text beside the audio, with a warning")
    func plainOnly() throws {
        let setting = try Setting()
        let audio = try setting.audio("plain")
        let run = try setting.fetch([audio, "--save"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("warning: Test Artist — plain: only untimed lyrics"))
        let text = try String(contentsOfFile: setting.path("Test Artist - plain.txt"), encoding: .utf8)
        #expect(text == "a plain line\nanother plain line\n")
    }

    @Test("Escape sequences and bidi controls in the lyrics are dropped, as from lyric files")
    func escapesSanitised() throws {
        let setting = try Setting()
        let run = try setting.fetch(title: "escapes")
        #expect(run.status == 0)
        #expect(!run.stdout.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{202E}" || $0 == "\u{07}" })
        #expect(run.stdout.contains("[00:02.00]mirrored words\n"))
    }

    @Test("Requests name karaoke and its version in the User-Agent")
    func userAgent() throws {
        let setting = try Setting()
        let run = try setting.fetch(title: "agent")
        #expect(run.stdout.contains("[00:01.00]\(Self.userAgent)\n"))
    }

    @Test("No lyrics anywhere is 'no lyrics found', exit 1, nothing written")
    func nothingFound() throws {
        let setting = try Setting()
        let audio = try setting.audio("nothing")
        let run = try setting.fetch([audio, "--save"])
        #expect(run.status == 1)
        #expect(run.stderr == "karaoke: Test Artist — nothing: no lyrics found on 127.0.0.1:\(setting.server.port)\n")
        #expect(try setting.files() == ["Test Artist - nothing.mp3"])
    }

    @Test(
        "Faults of the server are a short message, exit 1 and nothing written",
        arguments: [
            ("error500", "127.0.0.1:PORT failed (HTTP 500); try again later"),
            ("limited", "127.0.0.1:PORT is limiting requests (HTTP 429); try again later"),
            ("malformed", "127.0.0.1:PORT sent a malformed answer: malformed JSON"),
            ("huge", "127.0.0.1:PORT's answer is over the 2 MB limit"),
            ("slow", "127.0.0.1:PORT did not answer within 1 s"), // KARAOKE_HTTP_TIMEOUT=1
        ])
    func serverFaults(title: String, message: String) throws {
        let setting = try Setting()
        let audio = try setting.audio(title)
        let run = try setting.fetch([audio, "--save"], environment: ["KARAOKE_HTTP_TIMEOUT": "1"])
        #expect(run.status == 1)
        let expected = message.replacingOccurrences(of: "PORT", with: "\(setting.server.port)")
        #expect(run.stderr.hasPrefix("karaoke: Test Artist — \(title): \(expected)"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(run.stdout.isEmpty)
        #expect(try setting.files() == ["Test Artist - \(title).mp3"])
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: setting.cache.path)) ?? []
        #expect(cached.isEmpty) // faults are not cached
    }

    @Test("A refused connection and a TLS handshake with a plain HTTP server are short messages")
    func connectionFaults() throws {
        let setting = try Setting()
        let tls = try KaraokeProcess.run(
            ["fetch", "--artist", "A", "--title", "found", "--lrclib-url", "https://127.0.0.1:\(setting.server.port)"],
            environment: ["XDG_CACHE_HOME": setting.path("cache"), "no_proxy": "*", "NO_PROXY": "*"])
        #expect(tls.status == 1)
        #expect(
            tls.stderr.hasPrefix("karaoke: A — found: TLS failure talking to 127.0.0.1:\(setting.server.port)"),
            "\(tls.stderr)")
        setting.server.stop()
        let refused = try setting.fetch(title: "found")
        #expect(refused.status == 1)
        #expect(
            refused.stderr.hasPrefix(
                "karaoke: Test Artist — found: cannot connect to 127.0.0.1:\(setting.server.port)"), "\(refused.stderr)"
        )
        #expect(refused.stdout.isEmpty)
    }

    @Test("A server name that cannot resolve (RFC 6761 .invalid) is a short message, exit 1, nothing written")
    func unresolvableName() throws {
        let setting = try Setting()
        let out = setting.path("out.lrc")
        let arguments = [
            "fetch", "--artist", "A", "--title", "found", "--lrclib-url", "http://lyrics.invalid", "-o", out,
        ]
        // Inside a network namespace of its own (`unshare -n`: only a loopback, down) when this machine allows
        // one, no packet can leave; else the name, which never resolves, reaches at most the local resolver.
        let unshare = "/usr/bin/unshare"
        let isolated =
            FileManager.default.isExecutableFile(atPath: unshare)
            && (try? KaraokeProcess.runRaw(["-n", "true"], executable: unshare))?.status == 0
        let environment = [
            "XDG_CACHE_HOME": setting.path("cache"), "no_proxy": "*", "NO_PROXY": "*", "KARAOKE_HTTP_TIMEOUT": "",
        ]
        let raw =
            isolated
            ? try KaraokeProcess.runRaw(
                ["-n", KaraokeProcess.binary.path] + arguments, executable: unshare, environment: environment)
            : try KaraokeProcess.runRaw(arguments, environment: environment)
        let stderr = String(decoding: raw.stderr, as: UTF8.self)
        #expect(raw.status == 1)
        #expect(stderr.hasPrefix("karaoke: A — found: cannot resolve lyrics.invalid"), "\(stderr)")
        #expect(stderr.split(separator: "\n").count == 1)
        #expect(raw.stdout.isEmpty)
        #expect(try setting.files().isEmpty)
        let cached = (try? FileManager.default.contentsOfDirectory(atPath: setting.cache.path)) ?? []
        #expect(cached.isEmpty) // faults are not cached
    }

    @Test("--save writes beside the audio and never replaces a file without --force")
    func saveAndForce() throws {
        let setting = try Setting()
        let audio = try setting.audio("found")
        let lyrics = setting.path("Test Artist - found.lrc")
        try "old\n".write(toFile: lyrics, atomically: true, encoding: .utf8)
        let refused = try setting.fetch([audio, "--save"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("karaoke: \(lyrics) exists; --force replaces it"))
        #expect(try String(contentsOfFile: lyrics, encoding: .utf8) == "old\n")
        let forced = try setting.fetch([audio, "--save", "--force"])
        #expect(forced.status == 0)
        #expect(try String(contentsOfFile: lyrics, encoding: .utf8).contains("[00:01.00]first line of the found song"))
        #expect(try setting.files() == ["Test Artist - found.lrc", "Test Artist - found.mp3"]) // no temporary left
    }

    @Test("-o writes the lyrics to OUT and nothing to stdout")
    func output() throws {
        let setting = try Setting()
        let out = setting.path("out.lrc")
        let run = try setting.fetch(title: "found", ["-o", out])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(try String(contentsOfFile: out, encoding: .utf8).hasPrefix("[ti:found]\n"))
    }

    @Test("An audio file whose name gives no artist and title is said, with the way out")
    func untitledAudio() throws {
        let setting = try Setting()
        let audio = setting.path("track01.mp3")
        _ = FileManager.default.createFile(atPath: audio, contents: Data())
        let run = try setting.fetch([audio])
        #expect(run.status == 1)
        #expect(run.stderr.contains("no artist and title in its tags or its name"))
        #expect(run.stderr.contains("use --artist and --title"))
    }

    @Test("A cached answer is used with the server stopped")
    func cacheHit() throws {
        let setting = try Setting()
        let first = try setting.fetch(title: "found")
        setting.server.stop()
        let second = try setting.fetch(["--artist", "test  artist", "--title", "FOUND", "--duration", "200.3"])
        #expect(second.status == 0)
        #expect(second.stdout == first.stdout)
    }

    @Test("A cached miss holds for 7 days, then the server is asked again")
    func missExpiry() throws {
        let setting = try Setting()
        _ = try setting.fetch(title: "nothing")
        setting.server.stop()
        let cached = try setting.fetch(title: "nothing")
        #expect(cached.status == 1)
        #expect(cached.stderr.contains("no lyrics found"))
        let entries = try FileManager.default.contentsOfDirectory(atPath: setting.cache.path)
        #expect(entries.count == 1)
        let eightDaysAgo = Date(timeIntervalSinceNow: -8 * 24 * 3600)
        for entry in entries {
            try FileManager.default.setAttributes(
                [.modificationDate: eightDaysAgo], ofItemAtPath: setting.cache.appendingPathComponent(entry).path)
        }
        let expired = try setting.fetch(title: "nothing")
        #expect(expired.status == 1)
        #expect(expired.stderr.contains("cannot connect"), "\(expired.stderr)")
    }

    @Test("A corrupt cache entry is ignored and replaced")
    func corruptEntry() throws {
        let setting = try Setting()
        _ = try setting.fetch(title: "found")
        let entries = try FileManager.default.contentsOfDirectory(atPath: setting.cache.path)
        let entry = try #require(entries.first)
        let path = setting.cache.appendingPathComponent(entry).path
        try "karaoke-lrclib 1\nget\n{\"id\": 1".write(toFile: path, atomically: true, encoding: .utf8)
        let run = try setting.fetch(title: "found")
        #expect(run.status == 0)
        #expect(run.stdout.contains("first line of the found song"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("first line of the found song"))
    }

    @Test("--version and render of an LRC file never load libcurl")
    func noLibcurlAtStart() throws {
        let version = try KaraokeProcess.run(["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(version.status == 0)
        #expect(version.stderr.contains("libc.so")) // LD_DEBUG works here
        #expect(!version.stderr.contains("libcurl"))
        let render = try KaraokeProcess.run(
            ["render", KaraokeProcess.song("lantern-river.lrc"), "--at", "3"], environment: ["LD_DEBUG": "libs"])
        #expect(render.status == 0)
        #expect(!render.stderr.contains("libcurl"))
    }
}
