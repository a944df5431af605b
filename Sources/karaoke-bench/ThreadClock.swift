import Foundation
import CProcess

/// What the kernel counted for one process over a window: its CPU time (every thread's run time from
/// `/proc/PID/task/*/schedstat`, in nanoseconds, not clock ticks) and how often its main thread went to
/// sleep (`voluntary_ctxt_switches`: each sleep is one wake-up).
struct ThreadClock {
    /// Nanoseconds on a CPU, all threads together.
    var runNanoseconds: Double
    /// Times the main thread slept.
    var mainSleeps: Double

    /// The counters of `pid` now; nil when it is gone.
    static func read(_ pid: Int32) -> ThreadClock? {
        guard let tasks = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task") else { return nil }
        var run = 0.0
        for task in tasks {
            guard let text = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let nanoseconds = Double(first)
            else { continue }
            run += nanoseconds
        }
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches") }),
            let sleeps = line.split(separator: "\t").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) })
        else { return nil }
        return ThreadClock(runNanoseconds: run, mainSleeps: sleeps)
    }
}

/// Runs `command` in a tmux pane of 100×30 on a private server, lets it settle for `warmUp` seconds, sends
/// `keys` (tmux key names), then measures it for `seconds`: its CPU as a percentage of one core and its
/// main thread's wake-ups a second. The pane and the server are gone afterwards.
func measureInTmux(_ command: [String], keys: [String] = [], warmUp: Double = 2, seconds: Double)
    -> (cpuPercent: Double, wakeUpsPerSecond: Double, wakeUps: Double)?
{
    // A server of its own for each run: a new session on a server that is still shutting down fails.
    let socket = "karaoke-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    defer { run(["tmux", "-L", socket, "kill-server"]) }
    guard run(["tmux", "-L", socket, "new-session", "-d", "-x", "100", "-y", "30"] + command)?.status == 0 else {
        return nil
    }
    let lister = Process()
    lister.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    lister.arguments = ["tmux", "-L", socket, "list-panes", "-F", "#{pane_pid}"]
    let pipe = Pipe()
    lister.standardOutput = pipe
    guard (try? lister.run()) != nil else { return nil }
    lister.waitUntilExit()
    let listed = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    guard let pid = Int32(listed.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
    Thread.sleep(forTimeInterval: warmUp)
    for key in keys { run(["tmux", "-L", socket, "send-keys", "-t", "0", key]) }
    if !keys.isEmpty { Thread.sleep(forTimeInterval: 0.5) }
    guard let before = ThreadClock.read(pid) else { return nil }
    let start = Date()
    Thread.sleep(forTimeInterval: seconds)
    guard let after = ThreadClock.read(pid) else { return nil }
    let elapsed = Date().timeIntervalSince(start)
    let cpu = (after.runNanoseconds - before.runNanoseconds) / 1e9 / elapsed * 100
    let wakeUps = after.mainSleeps - before.mainSleeps
    return (cpu, wakeUps / elapsed, wakeUps)
}

/// The rows for the driver's budgets (DESIGN §17.2): `play --no-audio` of `song` at 30 fps in 100×30
/// xterm-256color, sweeping, under reduce motion, and paused under reduce motion, `seconds` each.
func wakeUpRows(karaoke: String, song: String, seconds: Double) -> [(String, String, String, String)] {
    let play = ["env", "TERM=xterm-256color", karaoke, "play", "--no-audio", "--fps", "30", "--size", "1", song]
    var rows: [(String, String, String, String)] = []
    // What waking thirty times a second costs by itself on this machine, with nothing composed: the part of
    // the sweeping figure no player can go below.
    let floor = measureInTmux([CommandLine.arguments[0], "--wake-floor"], seconds: seconds)
    rows.append(
        (
            "wake-up floor, 30 a second: CPU, \(Int(seconds)) s",
            floor.map { "\(fixed($0.cpuPercent, 3)) % of one core" } ?? "not run",
            "ppoll on the terminal and a pipe, then a 20-byte write, and nothing else", ""
        ))
    let cases: [(String, [String], [String], cpu: String, wakes: String)] = [
        ("play --no-audio, 30 fps", [], [], "0.30 % of one core", ""),
        ("play --no-audio --reduce-motion", ["--reduce-motion"], [], "0.05 % of one core", "at most 4 a second"),
        ("play --no-audio --reduce-motion, paused", ["--reduce-motion"], ["Space"], "", "none"),
    ]
    for (name, extra, keys, cpuBudget, wakeBudget) in cases {
        guard let measured = measureInTmux(play + extra, keys: keys, seconds: seconds) else {
            rows.append((name, "not run", "needs tmux", ""))
            continue
        }
        let aboveFloor =
            extra.isEmpty
            ? floor.map { ", \(fixed(measured.cpuPercent - $0.cpuPercent, 3)) % above the floor" } ?? "" : ""
        rows.append(
            (
                name + ": CPU, 100×30, \(Int(seconds)) s", "\(fixed(measured.cpuPercent, 3)) % of one core",
                "every thread's run time from /proc/PID/task/*/schedstat" + aboveFloor, cpuBudget
            ))
        rows.append(
            (
                name + ": wake-ups", "\(fixed(measured.wakeUpsPerSecond, 2)) a second",
                "\(Int(measured.wakeUps)) sleeps of the main thread in \(Int(seconds)) s", wakeBudget
            ))
    }
    return rows
}

/// `karaoke-bench --wake-floor`: the wake-ups of `play` at 30 fps with no frame behind them. It sleeps in `ppoll`
/// on the terminal and a pipe for a thirtieth of a second, writes 20 bytes of a typical frame (a cursor move, a
/// colour and a glyph), and does it again, until a key arrives.
func wakeFloorLoop() -> Never {
    var pipeEnds: [Int32] = [0, 0]
    _ = pipe(&pipeEnds)
    var watched = [
        pollfd(fd: 0, events: Int16(POLLIN), revents: 0), pollfd(fd: pipeEnds[0], events: Int16(POLLIN), revents: 0),
    ]
    let bytes = Array("\u{1B}[13;56H\u{1B}[38;5;255mx".utf8)
    while true {
        var period = timespec(tv_sec: 0, tv_nsec: 1_000_000_000 / 30)
        if ppoll(&watched, 2, &period, nil) > 0 { exit(0) }
        _ = bytes.withUnsafeBufferPointer { write(1, $0.baseAddress, $0.count) }
    }
}
