import Foundation
import KaraokeCore
import KaraokeDriver

// The monitor's latency (DESIGN §24.4): a PulseAudio server of the bench's own with two null sinks, `mic` (its
// monitor is the microphone) and `speakers`. Clicks played into `mic` with paplay are found at
// `speakers.monitor`, timed against `mic.monitor` on one clock (`ClickRecorder`, `ClickDelay`), first while
// `karaoke play --no-audio --monitor` runs in a pseudo-terminal, then through PulseAudio's own
// `module-loopback` at its least `latency_msec` (loaded, measured, unloaded).

/// A WAV of `count` clicks (2 ms at 0.8 of full scale) from 1.5 s, one every 0.4 s, at 44.1 kHz.
func clickWave(count: Int) -> [UInt8] {
    let rate = 44_100
    var samples = [Int16](repeating: 0, count: Int((1.5 + Double(count) * 0.4 + 1) * Double(rate)))
    for click in 0..<count {
        let first = Int((1.5 + Double(click) * 0.4) * Double(rate))
        for index in first..<(first + rate / 500) { samples[index] = 26_000 }
    }
    return WaveFile.pcm16(samples, sampleRate: rate)
}

/// The clicks' delays from `mic.monitor` to `speakers.monitor` while paplay plays `wave` into `mic`, in ms.
func clickDelays(wave: String) -> [Double] {
    guard let sent = try? ClickRecorder.start(source: "mic.monitor"),
        let heard = try? ClickRecorder.start(source: "speakers.monitor")
    else { return [] }
    _ = run(["paplay", "-d", "mic", wave])
    usleep(600_000)
    return ClickDelay.delays(sent: sent.stop(), heard: heard.stop(), threshold: 0.3).compactMap { $0 }.map {
        $0 * 1000
    }
}

/// The figure of a list of delays: the median, and the range.
func delayFigure(_ delays: [Double], of count: Int) -> (String, String) {
    guard let median = ClickDelay.median(delays), let low = delays.min(), let high = delays.max() else {
        return ("not heard", "0 of \(count) clicks")
    }
    return ("\(fixed(median)) ms", "median of \(delays.count) of \(count) clicks, \(fixed(low))–\(fixed(high)) ms")
}

/// The rows of the monitor's latency beside module-loopback's, or one row saying why they were not run.
func monitorRows(karaoke: String, ttymeasure: String, data: String) -> [(String, String, String, String)] {
    let name = "microphone to speakers"
    guard onPath("pulseaudio"), onPath("paplay"), onPath("pactl"), FileManager.default.fileExists(atPath: ttymeasure)
    else { return [(name, "not run", "needs pulseaudio, pactl and paplay (make deps-test) and ttymeasure", "")] }
    let folder = "\(FileManager.default.currentDirectoryPath)/\(data)/pulse-monitor"
    let started = privatePulseServer(in: folder, sinks: ["mic", "speakers"])
    guard let server = started.server else { return [(name, "not run", started.problem, "")] }
    defer { server.stop() }
    let clicks = 8
    let wave = "\(folder)/clicks.wav"
    _ = FileManager.default.createFile(atPath: wave, contents: Data(clickWave(count: clicks)))
    let song = "\(folder)/song.lrc"
    _ = FileManager.default.createFile(
        atPath: song,
        contents: Data(
            (0..<10).map { String(format: "[00:%02d.00]line %d", $0 * 5, $0) }.joined(
                separator: "\n"
            ).utf8))
    // karaoke in a pseudo-terminal for 9 s, ended with q; the clicks are played meanwhile.
    guard
        let player = Background(
            [
                "python3", ttymeasure, "--cols", "100", "--rows", "30", "--term", "xterm-256color", "--seconds", "9",
                "--stop-keys", "q", "--out", "\(data)/bench-monitor.json", "--", karaoke, "play", "--no-audio",
                "--monitor", "--mic", "mic.monitor", "--monitor-sink", "speakers", song,
            ], log: "\(folder)/karaoke.log")
    else { return [(name, "not run", "ttymeasure did not start", "")] }
    // Its two streams are open within a second or two.
    for _ in 0..<50 {
        if (run(["sh", "-c", "pactl list short sink-inputs | grep -q ."])?.status ?? 1) == 0 { break }
        usleep(100_000)
    }
    usleep(500_000)
    let monitored = clickDelays(wave: wave)
    var status: Int32 = 0
    waitpid(player.pid, &status, 0)
    // module-loopback's least latency, in the same server, once karaoke has gone.
    var looped: [Double] = []
    let output = "\(folder)/module.txt"
    if run(
        [
            "sh", "-c",
            "pactl load-module module-loopback source=mic.monitor sink=speakers latency_msec=1 > '\(output)'",
        ])?.status == 0,
        let index = (try? String(contentsOfFile: output, encoding: .utf8))?.trimmingCharacters(
            in: .whitespacesAndNewlines)
    {
        usleep(500_000)
        looped = clickDelays(wave: wave)
        _ = run(["pactl", "unload-module", index])
    }
    let ours = delayFigure(monitored, of: clicks), theirs = delayFigure(looped, of: clicks)
    return [
        ("\(name): play --monitor", ours.0, ours.1 + "; two streams of karaoke's own", ""),
        ("\(name): module-loopback latency_msec=1", theirs.0, theirs.1 + "; inside the server, for comparison", ""),
    ]
}
