import Foundation
import Testing

/// `karaoke follow --player mpd… --print` against a real mpd of the test's own (DESIGN §12.3).
@Suite(
    "Following MPD", .enabled(if: MPDServer.isAvailable, "needs mpd, mpc and ffmpeg (make deps-test installs them)"),
    .concurrencyLimit(2, runLimit: .seconds(300)))
struct MPDTests {
    /// karaoke following `server`, with its stderr in the server's folder.
    static func follow(_ server: MPDServer, _ more: [String] = [], environment: [String: String] = [:]) throws
        -> FollowProcess
    {
        try FollowProcess(
            ["--player", server.player] + more, environment: environment,
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
    }

    /// Waits until mpc says `check` holds, up to 5 s.
    static func eventually(
        _ server: MPDServer, timeout: Double = 5, _ check: ((state: String?, elapsed: Double, title: String)) -> Bool
    ) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if check(try server.state()) { return true }
            usleep(50_000)
        } while Date() < deadline
        return false
    }

    @Test("the first report names the playing track, with its file under --music-dir")
    func firstReport() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server, ["--music-dir", server.musicFolder.path + "/"])
        defer { karaoke.stop() }
        let report = try #require(karaoke.waitFor { $0.event == "report" }, "stderr: \(karaoke.stderr)")
        #expect(report.object["player"] as? String == "mpd")
        #expect(report.state == "playing")
        #expect(report.title == "Lantern River")
        #expect(report.track("artist") as? String == "The Karaoke Band")
        #expect(report.track("album") as? String == "Test Album")
        #expect(report.track("file") as? String == server.trackPath(0))
        let length = try #require(report.track("length") as? Double)
        #expect(abs(length - 30) < 0.5)
        // `at` is karaoke's monotonic clock, which is this machine's: close to when the line came.
        let at = try #require(report.at)
        #expect(at <= report.arrival + 0.01 && report.arrival - at < 2)
    }

    @Test("over TCP without --music-dir, MPD's file name is the location; localhost tries each of its addresses")
    func locationWithoutMusicFolder() throws {
        let server = try MPDServer()
        defer { server.stop() }
        // MPD listens on 127.0.0.1 only: where localhost also has ::1, that one is refused and the next tried.
        let karaoke = try FollowProcess(
            ["--player", "mpd:localhost:\(server.port!)"],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        let report = try #require(karaoke.waitFor { $0.event == "report" }, "stderr: \(karaoke.stderr)")
        #expect(report.track("file") is NSNull)
        #expect(report.track("location") as? String == MPDServer.tracks[0].0)
    }

    @Test(
        "an IPv6 address in brackets is followed", .enabled(if: MPDServer.hasIPv6Loopback, "needs an IPv6 loopback"))
    func ipv6() throws {
        let server = try MPDServer(ipv6: true)
        defer { server.stop() }
        let karaoke = try FollowProcess(
            ["--player", "mpd:[::1]:\(server.port!)"],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        // What karaoke printed and what mpd logged, to tell a refused connection from a slow machine (a CI run
        // once saw no report within 10 s, with nothing on stderr).
        let report = try #require(
            karaoke.waitFor { $0.event == "report" },
            "stderr: \(karaoke.stderr); lines: \(karaoke.lines.map(\.text)); mpd: \(server.log())")
        #expect(report.title == "Lantern River")
        let stopped = karaoke.lines.count
        server.stop()
        let gone = try #require(karaoke.waitFor(after: stopped, timeout: 5) { $0.event == "gone" })
        #expect(gone.object["reason"] as? String == "waiting for MPD at [::1]:\(server.port!)…")
    }

    @Test("a pause, a seek and a track change made with mpc show up within 0.3 s")
    func outsideChanges() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        _ = try #require(karaoke.waitFor { $0.state == "playing" }, "stderr: \(karaoke.stderr)")

        /// Runs mpc, then waits for a report that `matches`; the delay counts from when mpc returned (MPD has
        /// acted by then), and is 0 when the report came before that.
        func delay(_ arguments: [String], _ matches: (FollowProcess.Line) -> Bool) throws -> Double {
            let seen = karaoke.lines.count
            let started = FollowProcess.now()
            try server.mpc(arguments)
            let returned = FollowProcess.now()
            let found = karaoke.waitFor(after: seen, timeout: 5) { matches($0) }
            let line = try #require(found, "no report after mpc \(arguments)")
            print(
                "mpd: 'mpc \(arguments.joined(separator: " "))' reported \(String(format: "%.1f", (line.arrival - returned) * 1000)) ms after mpc returned (\(String(format: "%.1f", (line.arrival - started) * 1000)) ms after it started)"
            )
            return max(0, line.arrival - returned)
        }

        #expect(try delay(["pause"]) { $0.state == "paused" } < 0.3)
        #expect(try delay(["seek", "20"]) { $0.state == "paused" && abs(($0.position ?? 0) - 20) < 0.5 } < 0.3)
        #expect(try delay(["play"]) { $0.state == "playing" } < 0.3)
        #expect(try delay(["next"]) { $0.title == "Paper Boats" } < 0.3)
    }

    @Test("commands written to karaoke's stdin reach MPD")
    func commandsReachMPD() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        _ = try #require(karaoke.waitFor { $0.state == "playing" }, "stderr: \(karaoke.stderr)")
        karaoke.send("play-pause")
        #expect(try Self.eventually(server) { $0.state == "paused" })
        #expect(karaoke.waitFor(timeout: 5) { $0.state == "paused" } != nil)
        karaoke.send("seek 10")
        #expect(try Self.eventually(server) { abs($0.elapsed - 10) <= 1 })
        karaoke.send("seek +5")
        #expect(try Self.eventually(server) { abs($0.elapsed - 15) <= 1 })
        karaoke.send("play-pause")
        #expect(try Self.eventually(server) { $0.state == "playing" })
        karaoke.send("next")
        #expect(try Self.eventually(server) { $0.title == "Paper Boats" })
        karaoke.send("previous")
        #expect(try Self.eventually(server) { $0.title == "Lantern River" })
        #expect(karaoke.stderr.isEmpty)
    }

    @Test("commands piped in while MPD is slow to take the connection are carried out in order, with no gone line")
    func commandsBeforeConnecting() throws {
        let server = try MPDServer()
        defer { server.stop() }
        // Paused, MPD holds the position the seeks leave: the check below does not race the song's last 5 s
        // (under ThreadSanitizer the polls missed a playing window of 1.5 s).
        _ = try server.mpc(["pause"])
        let door = try SlowDoor(to: server.port!, delay: 0.3)
        defer { door.stop() }
        let karaoke = try FollowProcess(
            ["--player", "mpd:127.0.0.1:\(door.port)"],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        // Written at once: karaoke reads them while its connect waits at the door. In order they give 25 s;
        // the other way round, 20.
        karaoke.send("seek 20")
        karaoke.send("seek +5")
        // The door drops karaoke's first connection attempts, which the kernel retries after 1 s, then 3 s, …:
        // on a loaded machine the connection may take several seconds.
        #expect(
            try Self.eventually(server, timeout: 20) { $0.state == "paused" && abs($0.elapsed - 25) <= 0.5 },
            "\(karaoke.transcript)")
        #expect(karaoke.waitFor(timeout: 5) { $0.event == "report" } != nil, "stderr: \(karaoke.stderr)")
        #expect(!karaoke.lines.contains { $0.event == "gone" || $0.event == "notice" }, "\(karaoke.transcript)")
    }

    @Test("a command MPD refuses becomes a notice, and following goes on")
    func refusedCommand() throws {
        let server = try MPDServer()
        defer { server.stop() }
        try server.mpc(["stop"])
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        _ = try #require(karaoke.waitFor { $0.state == "stopped" }, "stderr: \(karaoke.stderr)")
        // seekcur needs a song playing or paused.
        karaoke.send("seek +5")
        let notice = try #require(karaoke.waitFor(timeout: 5) { $0.event == "notice" })
        #expect((notice.object["text"] as? String)?.hasPrefix("MPD refused 'seekcur'") == true)
        try server.mpc(["play"])
        #expect(karaoke.waitFor(timeout: 5) { $0.state == "playing" } != nil)
    }

    @Test("MPD stopped is one gone line; started again on the same port, it is followed again")
    func mpdGoesAndComesBack() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        _ = try #require(karaoke.waitFor { $0.state == "playing" }, "stderr: \(karaoke.stderr)")
        let before = karaoke.lines.count
        server.stop()
        let gone = try #require(karaoke.waitFor(after: before, timeout: 5) { $0.event == "gone" })
        #expect(gone.object["reason"] as? String == "waiting for MPD at 127.0.0.1:\(server.port!)…")
        // Retrying every second says nothing more, and costs next to no CPU.
        let cpuBefore = try #require(karaoke.cpuSeconds())
        sleep(3)
        let cpuAfter = try #require(karaoke.cpuSeconds())
        #expect(karaoke.lines.dropFirst(before).filter { $0.event == "gone" }.count == 1)
        #expect(cpuAfter - cpuBefore < 0.3, "a busy loop while MPD is away")
        try server.start()
        let back = try #require(karaoke.waitFor(after: before, timeout: 10) { $0.event == "report" })
        #expect(back.title != nil)
        #expect(karaoke.isRunning)
    }

    @Test(
        "--player auto without a session bus to reach follows MPD at MPD_HOST and MPD_PORT",
        arguments: [false, true])
    func automaticWithoutBus(deadAddress: Bool) throws {
        let server = try MPDServer()
        defer { server.stop() }
        // No address, or one nobody listens on.
        let bus = deadAddress ? "unix:path=\(server.folder.path)/no-bus" : ""
        let karaoke = try FollowProcess(
            ["--player", "auto"],
            environment: [
                "MPD_HOST": "127.0.0.1", "MPD_PORT": String(server.port!), "DBUS_SESSION_BUS_ADDRESS": bus,
            ], stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        let report = try #require(karaoke.waitFor { $0.event == "report" }, "stderr: \(karaoke.stderr)")
        #expect(report.object["player"] as? String == "mpd")
        #expect(report.title == "Lantern River")
    }

    @Test("a password from MPD_HOST=PASSWORD@HOST is sent first")
    func password() throws {
        let server = try MPDServer(password: "secret")
        defer { server.stop() }
        let karaoke = try FollowProcess(
            ["--player", "mpd"], environment: ["MPD_HOST": "secret@127.0.0.1", "MPD_PORT": String(server.port!)],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        let report = try #require(karaoke.waitFor { $0.event == "report" }, "stderr: \(karaoke.stderr)")
        #expect(report.title == "Lantern River")
        karaoke.send("play-pause")
        #expect(try Self.eventually(server) { $0.state == "paused" })
    }

    @Test("a wrong password is said once, not retried noisily")
    func wrongPassword() throws {
        let server = try MPDServer(password: "secret")
        defer { server.stop() }
        let karaoke = try FollowProcess(
            ["--player", "mpd:wrong@127.0.0.1:\(server.port!)"],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        let gone = try #require(karaoke.waitFor(timeout: 5) { $0.event == "gone" })
        #expect((gone.object["reason"] as? String)?.contains("refused the password") == true)
        sleep(2)
        #expect(karaoke.lines.count == 1)
    }

    @Test("no password where MPD wants one: MPD's refusal is said once")
    func missingPassword() throws {
        let server = try MPDServer(password: "secret")
        defer { server.stop() }
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        let gone = try #require(karaoke.waitFor(timeout: 5) { $0.event == "gone" })
        #expect(
            (gone.object["reason"] as? String)?.hasPrefix("127.0.0.1:\(server.port!): MPD refused 'status': ") == true,
            "\(gone.text)")
        sleep(2)
        #expect(karaoke.lines.count == 1)
    }

    @Test("over a Unix socket the music folder comes from MPD's config")
    func unixSocket() throws {
        let server = try MPDServer(unixSocket: true)
        defer { server.stop() }
        let karaoke = try Self.follow(server)
        defer { karaoke.stop() }
        let report = try #require(karaoke.waitFor { $0.event == "report" }, "stderr: \(karaoke.stderr)")
        #expect(report.track("file") as? String == server.trackPath(0))
        #expect(report.title == "Lantern River")
    }

    @Test("nothing listening at the port: a gone line, and karaoke waits")
    func nothingAtThePort() throws {
        let port = try MPDServer.freePort()
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let karaoke = try FollowProcess(
            ["--player", "mpd:127.0.0.1:\(port)"], stderrPath: folder.appendingPathComponent("err").path)
        defer { karaoke.stop() }
        let gone = try #require(karaoke.waitFor(timeout: 5) { $0.event == "gone" })
        #expect(gone.object["reason"] as? String == "waiting for MPD at 127.0.0.1:\(port)…")
        usleep(1_500_000)
        #expect(karaoke.isRunning)
        #expect(karaoke.lines.count == 1)
    }

    @Test(
        "a server that is not MPD, or floods karaoke with an endless line, is a gone line: no crash, no unbounded memory",
        arguments: [
            ("SSH-2.0-OpenSSH_9.2\r\n", "", "not MPD (it said 'SSH-2.0-OpenSSH_9.2<U+000D>')"),
            ("OK MPD 0.23.5\n", "Title: AAAAAAAAAAAAAAAA", "MPD sent a line longer than 64 KiB"),
            ("OK MPD 0.23.5\n", "Artist: A\n", "MPD sent an answer larger than 1024 KiB"),
        ])
    func hostileServer(greeting: String, flood: String, reason: String) throws {
        let server = try HostileMPDServer(greeting: greeting, flood: flood)
        defer { server.stop() }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let karaoke = try FollowProcess(
            ["--player", "mpd:127.0.0.1:\(server.port)"], stderrPath: folder.appendingPathComponent("err").path)
        defer { karaoke.stop() }
        let gone = try #require(karaoke.waitFor { $0.event == "gone" })
        #expect(gone.object["reason"] as? String == "127.0.0.1:\(server.port): \(reason); trying again…")
        // A few more tries, each refused the same way, then: still running, and small.
        sleep(2)
        #expect(karaoke.isRunning)
        #expect(karaoke.lines.count == 1)
        let status = try String(contentsOfFile: "/proc/\(karaoke.pid)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
        let kilobytes = try #require(peak.flatMap { Int($0.split(separator: " ")[1]) })
        #expect(kilobytes < 64 * 1024, "karaoke's peak memory: \(kilobytes) kB")
    }

    @Test(
        "bad MPD addresses are refused before anything starts",
        arguments: [
            (["--player", "mpd:"], [:], 2, "bad value 'mpd:' for '--player'"),
            (["--player", "mpd:host:0"], [:], 2, "bad value 'mpd:host:0'"),
            (["--player", "mpd:host:99999"], [:], 2, "bad value 'mpd:host:99999'"),
            (["--player", "mpd:host:x"], [:], 2, "bad value 'mpd:host:x'"),
            (["--player", "mpd"], ["MPD_PORT": "http"], 1, "MPD_PORT is 'http'; expected a port number"),
            (["--player", "mpd"], ["MPD_HOST": "@"], 1, "names no abstract socket"),
        ] as [([String], [String: String], Int32, String)])
    func badAddresses(arguments: [String], environment: [String: String], status: Int32, message: String) throws {
        let result = try KaraokeProcess.run(["follow"] + arguments + ["--print"], environment: environment, timeout: 10)
        #expect(result.status == status)
        #expect(result.stderr.hasPrefix("karaoke: "))
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
