import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Hearing yourself end to end (DESIGN §24): `karaoke play --monitor` on a PulseAudio server of the test's own
/// with two null sinks, `mic` (its monitor is the microphone) and `speakers`. Clicks played into `mic` are
/// looked for at `speakers.monitor`, timed against `mic.monitor` on one clock; PulseAudio's own
/// `module-loopback` at its minimum latency is measured the same way in the same run. Afterwards nothing of
/// karaoke's is left in the server, whether it ended on q, SIGTERM or SIGKILL.
@Suite(
    "Hearing yourself",
    .enabled(if: PulseAudioServer.isAvailable && TmuxSession.isAvailable, "needs pulseaudio and tmux (make deps-test)"),
    .concurrencyLimit(2))
struct MonitorTests {
    /// The clicks' times in their WAV: from 1.5 s (the trap of NOTES-daemons: a null sink's monitor runs late
    /// for a moment after a stream starts), one every 0.4 s.
    static let clickTimes = (0..<8).map { 1.5 + Double($0) * 0.4 }

    /// A song long enough to monitor through, in `folder`.
    static func writeSong(in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("song.lrc").path
        try (0..<30).map {
            "[\(String(format: "%02d", $0 * 4 / 60)):\(String(format: "%02d", $0 * 4 % 60)).00]line \($0)"
        }
        .joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Plays the clicks into `mic` while recording `mic.monitor` and `speakers.monitor`; the delay of each
    /// click at the speakers (nil where it was not heard) and how many clicks were sent.
    static func measure(_ server: PulseAudioServer, clicks wav: String) throws -> (delays: [Double?], sent: Int) {
        let sent = try ClickRecorder.start(source: PulseAudioServer.source, server: server.address)
        let heard = try ClickRecorder.start(source: "speakers.monitor", server: server.address)
        try server.play(wav: wav)
        usleep(600_000)
        let sentRecording = sent.stop(), heardRecording = heard.stop()
        let delays = ClickDelay.delays(sent: sentRecording, heard: heardRecording, threshold: 0.3)
        return (delays, delays.count)
    }

    /// What `pactl list short KIND` prints (sink-inputs, source-outputs, modules).
    static func list(_ server: PulseAudioServer, _ kind: String) throws -> String {
        try server.run("pactl", ["list", "short", kind]).stdout
    }

    /// Whether karaoke has a stream in the server: its client name is `karaoke`.
    static func karaokeStreams(_ server: PulseAudioServer) throws -> [String] {
        let long =
            try server.run("pactl", ["list", "sink-inputs"]).stdout
            + server.run("pactl", ["list", "source-outputs"]).stdout
        return long.split(separator: "\n").filter { $0.contains("application.name = \"karaoke\"") }.map(String.init)
    }

    /// Waits (up to `timeout` s) until karaoke's streams number `count`; whether they did.
    static func waitForStreams(_ server: PulseAudioServer, count: Int, timeout: Double = 10) throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try karaokeStreams(server).count == count { return true }
            usleep(100_000)
        }
        return false
    }

    /// The process whose command line is karaoke's binary playing `song`.
    static func process(running song: String) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).first { pid in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            let words = command.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return words.first == KaraokeProcess.binary.path && words.contains(song)
        }
    }

    /// `karaoke play --monitor` from `mic.monitor` to `speakers` in tmux.
    static func monitoring(_ song: String, _ server: PulseAudioServer, extra: String = "") throws -> TmuxSession {
        try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(song)' --no-audio --monitor --mic \(PulseAudioServer.source) "
                + "--monitor-sink speakers \(extra)",
            environment: server.environment)
    }

    @Test("clicks into the microphone are heard at the speakers with the monitor on, not with it off", .runsAlone)
    func clicksAreHeardAtTheSpeakers() throws {
        let server = try PulseAudioServer(extraSinks: ["speakers"])
        defer { server.stop() }
        let modulesBefore = try Self.list(server, "modules")
        let song = try Self.writeSong(in: server.folder)
        let wav = server.folder.appendingPathComponent("clicks.wav").path
        try ClickWave.write(at: Self.clickTimes, seconds: Self.clickTimes.last! + 1, to: wav)

        let session = try Self.monitoring(song, server)
        try #require(try Self.waitForStreams(server, count: 2), "karaoke's two streams never appeared")
        let on = try Self.measure(server, clicks: wav)
        let onDelays = on.delays.compactMap { $0 }
        #expect(on.sent == Self.clickTimes.count, "clicks found on the microphone")
        #expect(onDelays.count >= on.sent - 1, "clicks heard at the speakers: \(on.delays)")
        let monitorMedian = try #require(ClickDelay.median(onDelays))
        #expect(monitorMedian < 1, "a sanity bound, not a budget")

        try session.send("e")
        let offScreen = try session.waitFor { $0.contains { $0.contains("monitor off") } }
        #expect(offScreen.contains { $0.contains("monitor off") })
        let off = try Self.measure(server, clicks: wav)
        #expect(off.sent == Self.clickTimes.count)
        #expect(off.delays.allSatisfy { $0 == nil }, "heard with the monitor off: \(off.delays)")
        try session.send("e")
        #expect(
            try session.waitFor { $0.contains { $0.contains("monitor on 100%") } }.contains {
                $0.contains("monitor on")
            })

        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let goneAfterQuit = try Self.waitForStreams(server, count: 0)
        #expect(goneAfterQuit, "karaoke's streams were left after q")

        // PulseAudio's own loopback at its least latency, in the same server and the same way.
        let loaded = try server.run(
            "pactl",
            ["load-module", "module-loopback", "source=\(PulseAudioServer.source)", "sink=speakers", "latency_msec=1"])
        let module = loaded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        try #require(loaded.status == 0, "module-loopback: \(loaded.stderr)")
        usleep(500_000)
        let loopback = try Self.measure(server, clicks: wav)
        _ = try server.run("pactl", ["unload-module", module])
        let loopbackDelays = loopback.delays.compactMap { $0 }
        let loopbackMedian = ClickDelay.median(loopbackDelays)
        print(
            "monitor latency: karaoke median \(Int((monitorMedian * 1000).rounded())) ms "
                + "(\(onDelays.map { Int(($0 * 1000).rounded()) }) ms); module-loopback latency_msec=1: median "
                + "\(loopbackMedian.map { "\(Int(($0 * 1000).rounded())) ms" } ?? "not heard") "
                + "(\(loopbackDelays.map { Int(($0 * 1000).rounded()) }) ms)")
        #expect(!loopbackDelays.isEmpty, "module-loopback never carried a click: \(loopback.delays)")
        #expect(try Self.list(server, "modules") == modulesBefore, "a module was left loaded")
    }

    @Test("after SIGTERM and after SIGKILL nothing of karaoke's is left in the server", arguments: [SIGTERM, SIGKILL])
    func nothingIsLeftAfterASignal(signal: Int32) throws {
        let server = try PulseAudioServer(extraSinks: ["speakers"])
        defer { server.stop() }
        let modulesBefore = try Self.list(server, "modules")
        let song = try Self.writeSong(in: server.folder)
        let session = try Self.monitoring(song, server, extra: "--reverb")
        try #require(try Self.waitForStreams(server, count: 2), "karaoke's two streams never appeared")
        let pid = try #require(try session.commandPID())
        kill(pid, signal)
        // After SIGKILL the screen is left as it was, so the process itself is waited for.
        let deadline = Date().addingTimeInterval(10)
        while kill(pid, 0) == 0, Date() < deadline { usleep(50_000) }
        #expect(kill(pid, 0) != 0, "karaoke did not end")
        let left = try Self.waitForStreams(server, count: 0) ? [] : try Self.karaokeStreams(server)
        #expect(left.isEmpty, "left after signal \(signal): \(left)")
        #expect(try Self.list(server, "modules") == modulesBefore)
        #expect(try Self.list(server, "sink-inputs").isEmpty)
        #expect(try Self.list(server, "source-outputs").isEmpty)
    }

    @Test("the microphone that is the speakers' own monitor is warned of as feedback")
    func feedbackIsWarned() throws {
        let server = try PulseAudioServer(extraSinks: ["speakers"])
        defer { server.stop() }
        let song = try Self.writeSong(in: server.folder)
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(song)' --no-audio --monitor=50 --mic speakers.monitor "
                + "--monitor-sink speakers",
            columns: 160, environment: server.environment)
        let screen = try session.waitFor { $0.contains { $0.contains("feedback") } }
        #expect(screen.contains { $0.contains("feedback: the microphone speakers.monitor") }, "\(screen)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("libpulse is loaded only with the monitor: a plain play never maps it")
    func libpulseOnlyWithTheMonitor() throws {
        let server = try PulseAudioServer(extraSinks: ["speakers"])
        defer { server.stop() }
        let song = try Self.writeSong(in: server.folder)
        for monitors in [false, true] {
            let session =
                monitors
                ? try Self.monitoring(song, server)
                : try TmuxSession(
                    "'\(KaraokeProcess.binary.path)' play '\(song)' --no-audio", environment: server.environment)
            try session.waitFor { $0.contains { $0.contains("line") } }
            if monitors { try #require(try Self.waitForStreams(server, count: 2)) }
            // The process is found by its command line: the pane's shell may stand between.
            let pid = try #require(Self.process(running: song))
            // Read to the end: /proc says its files are empty.
            let maps = String(
                decoding: FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data(),
                as: UTF8.self)
            #expect(maps.contains("/libc.so"), "maps not read")
            #expect(maps.contains("/libpulse") == monitors, "libpulse mapped: \(!monitors)")
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
    }
}
