import Foundation
import Testing

/// `karaoke play` with the song's audio through a real mpv (`ao=null`: real time, no sound card needed),
/// observed through mpv's own IPC socket as a second client.
@Suite(
    "Playing with audio through mpv",
    .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable, "needs tmux and mpv"),
    .concurrencyLimit(1))
struct AudioTests {
    /// A folder with `song.lrc` and a `song.wav` of `seconds` seconds.
    static func songFolder(audioSeconds: Double, lyrics: String = AudioTests.lyrics) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            try lyrics.write(to: folder.appendingPathComponent("song.lrc"), atomically: true, encoding: .utf8)
            try ToneFile.write(to: folder.appendingPathComponent("song.wav").path, seconds: audioSeconds)
        }
    }

    static let lyrics = """
        [ti:Tone Poem]
        [00:00.50]A single note
        [00:02.00]held in the air
        [00:04.00]and held again
        [00:20.00]until the end

        """

    /// `karaoke play` on the song in `folder` with mpv silent, once its title shows.
    static func play(_ folder: URL, _ arguments: String = "", environment: [String: String] = [:]) throws
        -> TmuxSession
    {
        let lyrics = folder.appendingPathComponent("song.lrc").path
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(lyrics)' --mpv-option ao=null \(arguments)",
            environment: environment)
        _ = try session.waitFor { $0.contains { $0.contains("Tone Poem") } }
        return session
    }

    /// `AudioTests.play`, for this suite's tests.
    func play(_ folder: URL, _ arguments: String = "", environment: [String: String] = [:]) throws -> TmuxSession {
        try AudioTests.play(folder, arguments, environment: environment)
    }

    /// Plays a 30 s song with `arguments` and `--clock-log` for 6 s, then quits; the distance between the
    /// lyric clock (between the two frames around each instant) and mpv's position, at each of mpv's own
    /// announcements of a new position after the first three.
    static func clockGaps(_ arguments: String = "") throws -> [Double] {
        let folder = try AudioTests.songFolder(audioSeconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("clock.log").path
        let session = try play(folder, "\(arguments) --clock-log '\(log)'")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        // mpv announces each new position as it plays; at those instants its position is fresh.
        let changes = try probe.connect().observe("time-pos", for: 6)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let frames = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
            .filter { $0.hasPrefix("frame ") }
            .compactMap { line -> (Double, Double)? in
                let fields = line.split(separator: " ")
                guard fields.count == 3, let t = Double(fields[1]), let p = Double(fields[2]) else { return nil }
                return (t, p)
            }
        var gaps: [Double] = []
        for change in changes.dropFirst(3) {
            guard let after = frames.firstIndex(where: { $0.0 > change.time }), after > 0 else { continue }
            let (t0, p0) = frames[after - 1], (t1, p1) = frames[after]
            gaps.append(abs(p0 + (p1 - p0) * (change.time - t0) / (t1 - t0) - change.value))
        }
        return gaps
    }

    /// Waits until no mpv mentions `folder` and the socket's folder is gone; true when both happened.
    func nothingLeftBehind(_ probe: MpvProbe, folder: URL, timeout: Double = 8) -> Bool {
        let socketFolder = (probe.socketPath as NSString).deletingLastPathComponent
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if MpvProbe.all(mentioning: folder.path).isEmpty && !FileManager.default.fileExists(atPath: socketFolder) {
                return true
            }
            usleep(50_000)
        }
        return false
    }

    @Test("mpv plays the audio file beside the lyrics, with the options given, on a private socket")
    func startsMpvWithTheRightFile() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder)
        let audio = folder.appendingPathComponent("song.wav").path
        let probe = try #require(MpvProbe.waitFor(playing: audio))
        #expect(probe.arguments.contains("--ao=null"))
        #expect(probe.arguments.contains("--no-video"))
        var info = stat()
        let socketFolder = (probe.socketPath as NSString).deletingLastPathComponent
        #expect(stat(socketFolder, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700, "the socket's folder is private")
        let connection = try probe.connect()
        // mpv makes its socket before it has opened the file: ask until it has.
        #expect(poll { try connection.property("path") as? String == audio })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(nothingLeftBehind(probe, folder: folder))
    }

    @Test("pause, seek and volume keys reach mpv; the offset keys do not")
    func keysReachMpv() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--start 10")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("playback-time") is Double }, "mpv has the file open")
        try session.send("Space")
        #expect(poll { try mpv.property("pause") as? Bool == true }, "space pauses mpv")
        let before = try #require(try mpv.property("playback-time") as? Double)
        try session.send("Right")
        #expect(poll { ((try mpv.property("playback-time") as? Double) ?? 0) - before > 4.5 }, "→ seeks mpv 5 s on")
        // An exact seek settles over a few reads (slowly under a sanitizer): take the position once it stands.
        var after = try #require(try mpv.property("playback-time") as? Double)
        for _ in 0..<40 {
            usleep(150_000)
            let again = try #require(try mpv.property("playback-time") as? Double)
            if abs(again - after) < 0.001 { break }
            after = again
        }
        #expect(abs(after - before - 5) < 0.5, "\(before) → \(after)")
        try session.send("+", "+")
        usleep(300_000)
        #expect(
            abs(((try mpv.property("playback-time") as? Double) ?? 0) - after) < 0.05, "offset keys leave mpv alone")
        try session.send("9")
        #expect(poll { try mpv.property("volume") as? Double == 95 }, "9 lowers the volume")
        try session.send("m")
        #expect(poll { try mpv.property("mute") as? Bool == true }, "m mutes")
        try session.send("Space")
        #expect(poll { try mpv.property("pause") as? Bool == false }, "space resumes mpv")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(nothingLeftBehind(probe, folder: folder))
    }

    @Test("the lyric clock stays within 50 ms of mpv's position (nine samples in ten, none past 150 ms)", .runsAlone)
    func clockFollowsMpv() throws {
        AudioTests.checkClockGaps(try AudioTests.clockGaps())
    }

    /// Nine samples in ten within 50 ms of mpv's position, and none beyond 150 ms. A sample is stamped when the
    /// test's own thread reads mpv's message, so one read late on a loaded machine shows as a gap the clock never
    /// had (one of 71 once measured 111 ms at 1.25×, the rest under 50); a clock that drifts or jumps is off in
    /// many samples, not one.
    static func checkClockGaps(_ gaps: [Double]) {
        #expect(gaps.count >= 20, "enough samples: \(gaps.count)")
        let sorted = gaps.sorted()
        guard let worst = sorted.last else { return }
        let ninetieth = sorted[sorted.count * 9 / 10]
        let listed = sorted.map { String(format: "%.0f", $0 * 1000) }.joined(separator: " ")
        realTimeBound {
            #expect(
                ninetieth < 0.05, "the 90th percentile gap \(ninetieth) s over \(gaps.count) samples (ms: \(listed))")
            #expect(worst < 0.15, "worst gap \(worst) s over \(gaps.count) samples (ms: \(listed))")
        }
    }

    @Test("the audio's end ends the song, even after the lyrics' own end")
    func audioEndEndsTheSong() throws {
        let short = "[ti:Tone Poem]\n[00:00.50]One note\n[00:01.00]and done\n"
        let folder = try AudioTests.songFolder(audioSeconds: 5, lyrics: short)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let session = try play(folder)
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        #expect(
            try session.waitFor { $0.last { !$0.isEmpty }?.contains("/ 0:05") == true }.contains {
                $0.contains("/ 0:05")
            },
            "the total is the audio's length")
        #expect(try session.exitStatus(timeout: 15) == 0)
        let took = Date().timeIntervalSince(started)
        #expect(took > 4.5 && took < 12, "ended after \(took) s, with the 5 s audio")
        #expect(nothingLeftBehind(probe, folder: folder))
    }

    @Test(
        "no mpv and no socket is left, whichever way karaoke ends",
        arguments: ["q", "C-c", "TERM", "HUP", "KILL"])
    func nothingLeftBehind(ending: String) throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder)
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        switch ending {
        case "q", "C-c": try session.send(ending)
        default:
            let pid = try #require(try session.commandPID())
            kill(pid, ending == "TERM" ? SIGTERM : ending == "HUP" ? SIGHUP : SIGKILL)
        }
        if ending != "KILL" { // a killed karaoke cannot restore the screen, so its EXIT= line is not a row of its own
            #expect(try session.exitStatus() == ["q": 0, "C-c": 130, "TERM": 143, "HUP": 129][ending])
        }
        #expect(nothingLeftBehind(probe, folder: folder), "mpv \(probe.pid) or \(probe.socketPath) is still there")
    }

    @Test("without mpv on PATH: a notice in the status bar, and the lyrics play silently")
    func missingMpv() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, environment: ["PATH": "/nonexistent"])
        let screen = try session.waitFor { $0.contains { $0.contains("mpv is not installed") } }
        #expect(screen.contains { $0.contains("mpv is not installed") })
        let moving = try session.waitFor { $0.contains { $0.contains("▶ 0:02") } }
        #expect(moving.contains { $0.contains("▶ 0:02") }, "the clock runs without audio")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("an audio file mpv cannot play: mpv's reason in the status bar, and the lyrics go on")
    func unplayableAudio() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 1)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("this is not audio at all\n".utf8).write(to: folder.appendingPathComponent("song.wav"))
        let session = try play(folder)
        let screen = try session.waitFor { $0.contains { $0.contains("playing without sound") } }
        #expect(
            screen.contains { $0.contains("mpv") && $0.contains("without sound") },
            "\(screen.last { !$0.isEmpty } ?? "")")
        let moving = try session.waitFor { $0.contains { $0.contains("▶ 0:02") } }
        #expect(moving.contains { $0.contains("▶ 0:02") })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("mpv dying mid-song: a notice, and the lyrics go on silently from where they were")
    func mpvDies() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--start 10")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        _ = try session.waitFor { $0.contains { $0.contains("▶ 0:11") } }
        kill(probe.pid, SIGKILL)
        let screen = try session.waitFor { $0.contains { $0.contains("mpv stopped; playing without sound") } }
        #expect(screen.contains { $0.contains("mpv stopped; playing without sound") })
        let later = try session.waitFor { $0.contains { $0.contains("▶ 0:14") } }
        #expect(later.contains { $0.contains("▶ 0:14") }, "the lyrics went on from where they were")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(nothingLeftBehind(probe, folder: folder))
    }

    @Test("karaoke play song.wav finds song.lrc beside it")
    func audioFileFindsLyrics() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = folder.appendingPathComponent("song.wav").path
        let session = try TmuxSession("'\(KaraokeProcess.binary.path)' play '\(audio)' --mpv-option ao=null")
        let screen = try session.waitFor { $0.contains { $0.contains("Tone Poem") } }
        #expect(screen.contains { $0.contains("Tone Poem") })
        let probe = try #require(MpvProbe.waitFor(playing: audio))
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(nothingLeftBehind(probe, folder: folder))
    }
}
