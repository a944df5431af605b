import Foundation
import KaraokeCore

// The cost of `play --score` (DESIGN §15): a PulseAudio server of the bench's own with a null sink, paplay
// singing the song's notes as sine tones into it, and `karaoke play --no-audio --score --mic mic.monitor` in a
// pseudo-terminal: its CPU (the whole process: the frame loop, PulseAudio's client thread and aubio's thread)
// and the pitch readings a second from its `--score-out` summary. paplay and the server are not karaoke's
// processes, so their CPU is not counted.

/// A child process the bench starts and does not wait for; `stop` ends its process group.
struct Background {
    let pid: pid_t

    /// Starts `arguments` through /usr/bin/env in a process group of its own, output to `log`.
    init?(_ arguments: [String], log: String) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        guard posix_spawn(&pid, "/usr/bin/env", &actions, &attributes, argv, environ) == 0 else { return nil }
        self.pid = pid
    }

    /// Ends the process group and reaps the child.
    func stop() {
        kill(-pid, SIGTERM)
        var status: Int32 = 0
        for _ in 0..<50 {
            if waitpid(pid, &status, WNOHANG) == pid { return }
            usleep(20_000)
        }
        kill(-pid, SIGKILL)
        waitpid(pid, &status, 0)
    }
}

/// Whether `tool` is on the PATH.
func onPath(_ tool: String) -> Bool {
    (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").contains {
        FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
    }
}

/// A WAV of `track`'s notes for `part` as sine tones at their pitches, `seconds` long, at 16 kHz.
func toneWave(_ track: NoteTrack, part: Voice?, seconds: Double) -> [UInt8] {
    let rate = 16_000
    var samples = [Int16](repeating: 0, count: Int(seconds * Double(rate)))
    for line in track.lines(for: part) {
        for note in line.notes where note.kind != .freestyle {
            let hertz = 440 * pow(2, Double(note.midiNote - 69) / 12)
            let first = Int(track.time(ofBeat: note.beat) / 1000 * Double(rate))
            let last = min(samples.count, Int(track.time(ofBeat: note.beat + note.length) / 1000 * Double(rate)))
            guard first < last else { continue }
            for index in first..<last {
                samples[index] = Int16(9_000 * sin(2 * Double.pi * hertz * Double(index - first) / Double(rate)))
            }
        }
    }
    return WaveFile.pcm16(samples, sampleRate: rate)
}

/// Starts a PulseAudio server of the bench's own in `folder` (removed first; its HOME, runtime folder and
/// socket), with a null sink for each of `sinks`, and points this process and its children at it
/// (PULSE_SERVER); the server, or why not.
func privatePulseServer(in folder: String, sinks: [String]) -> (server: Background?, problem: String) {
    try? FileManager.default.removeItem(atPath: folder)
    for sub in ["home/.config/pulse", "run"] {
        try? FileManager.default.createDirectory(atPath: "\(folder)/\(sub)", withIntermediateDirectories: true)
    }
    _ = FileManager.default.createFile(atPath: "\(folder)/home/.config/pulse/daemon.conf", contents: Data())
    setenv("HOME", "\(folder)/home", 1)
    setenv("XDG_RUNTIME_DIR", "\(folder)/run", 1)
    setenv("PULSE_SERVER", "unix:\(folder)/native", 1)
    guard
        let server = Background(
            [
                "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file=no",
                "--realtime=no", "--high-priority=no", "--disable-shm=yes", "-L",
                "module-native-protocol-unix auth-anonymous=1 socket=\(folder)/native",
            ] + sinks.flatMap { ["-L", "module-null-sink sink_name=\($0)"] }, log: "\(folder)/pulseaudio.log")
    else { return (nil, "pulseaudio did not start") }
    var ready = false
    for _ in 0..<100 where !ready {
        ready = run(["pactl", "info"])?.status == 0
        if !ready { usleep(100_000) }
    }
    guard ready else {
        server.stop()
        return (nil, "pulseaudio did not answer")
    }
    return (server, "")
}

/// The rows of `play --score`'s cost, or one row saying why it was not run.
func scoringRows(karaoke: String, ttymeasure: String, data: String, seconds: Int) -> [(String, String, String, String)]
{
    let name = "play --score, 100×30, 30 fps"
    guard onPath("pulseaudio"), onPath("paplay"), FileManager.default.fileExists(atPath: ttymeasure) else {
        return [(name, "not run", "needs pulseaudio and paplay (make deps-test) and ttymeasure", "")]
    }
    let songPath = "lyrics/harbour-bells.txt"
    guard let bytes = FileManager.default.contents(atPath: songPath),
        let song = LyricsReader.parse([UInt8](bytes), file: songPath, format: .ultrastar).song, let track = song.notes
    else { return [(name, "not run", "cannot read \(songPath)", "")] }
    let folder = "\(FileManager.default.currentDirectoryPath)/\(data)/pulse"
    let started = privatePulseServer(in: folder, sinks: ["mic"])
    guard let server = started.server else { return [(name, "not run", started.problem, "")] }
    defer { server.stop() }
    let wave = "\(folder)/tones.wav"
    _ = FileManager.default.createFile(
        atPath: wave, contents: Data(toneWave(track, part: .part(0), seconds: Double(seconds) + 4)))
    // The song sung on P1's notes from its start: paplay starts with karaoke, give or take a few ms.
    guard let singer = Background(["paplay", "-d", "mic", wave], log: "\(folder)/paplay.log") else {
        return [(name, "not run", "paplay did not start", "")]
    }
    defer { singer.stop() }
    let report = "\(data)/bench-play-score.json", summary = "\(data)/bench-score.json"
    try? FileManager.default.removeItem(atPath: summary)
    let measured = measureInPTY(
        [
            karaoke, "play", "--no-audio", "--fps", "30", "--size", "1", "--score", "--mic", "mic.monitor",
            "--mic-delay", "0", "--no-countdown", "--score-out", summary, songPath,
        ], ttymeasure: ttymeasure, term: "xterm-256color", seconds: seconds, steadyFrom: 2, report: report)
    let cpu = measured?.cpu
    let peak = measured?.peakMB
    let scored = FileManager.default.contents(atPath: summary).flatMap {
        try? JSONSerialization.jsonObject(with: $0) as? [String: Any]
    }
    let perSecond = scored?["pitchFramesPerSecond"] as? Double
    return [
        (
            name + ": CPU", cpu.map { "\(fixed($0, 2)) % of one core" } ?? "?",
            "frame loop, PulseAudio client and aubio together"
                + (perSecond.map { ", \(fixed($0)) pitch frames/s" } ?? ""), "5 % of one core"
        ),
        (
            name + ": peak memory", peak.map { "\(fixed($0)) MB" } ?? "?",
            "largest process (aubio brings libavcodec)", ""
        ),
    ]
}
