import Foundation
import Testing

/// The lyrics beside the first test track: line changes, a gap (an empty stamp), and the same text twice in a row.
private let followedLyrics = """
    [00:01.00]one
    [00:02.50]two
    [00:04.00]three
    [00:05.50]
    [00:06.50]four
    [00:08.00]five
    [00:09.50]la la
    [00:11.00]la la
    [00:12.50]six

    """

/// Sleeps until monotonic time `time` (at once when it has passed).
private func sleep(until time: Double) {
    let left = time - FollowProcess.now()
    if left > 0 { usleep(UInt32(left * 1_000_000)) }
}

/// The lines printed after the first `skipping`, checked against `expected` (text, when due): each printed once,
/// in order, within `tolerance` of when it was due; the lateness figures go to the log under `name`.
private func checkTiming(
    _ printed: [FollowProcess.Line], _ expected: [(text: String, due: Double)], name: String,
    tolerance: Double = 0.15
) {
    #expect(printed.map(\.text) == expected.map(\.text), "\(name): printed \(printed.map(\.text))")
    let lateness = zip(printed, expected).map { ($0.arrival - $1.due) * 1000 }
    let sorted = lateness.sorted()
    guard !sorted.isEmpty else { return }
    let median = sorted[sorted.count / 2]
    print(
        "\(name): lateness of \(sorted.count) lines in ms: median \(String(format: "%.1f", median)), max "
            + "\(String(format: "%.1f", sorted.last!)), min \(String(format: "%.1f", sorted.first!)); each: "
            + lateness.map { String(format: "%.0f", $0) }.joined(separator: " "))
    realTimeBound {
        for (line, late) in zip(expected, lateness) {
            #expect(abs(late) <= tolerance * 1000, "\(name): '\(line.text)' \(late) ms off")
        }
    }
}

/// `karaoke follow --print lines|waybar` against a real mpd of the test's own, driven over MPD's protocol so
/// the moment each play, seek and pause took effect is known (DESIGN §28).
@Suite(
    "Following MPD for a status bar (follow --print lines|waybar)",
    .enabled(if: MPDServer.isAvailable, "needs mpd, mpc and ffmpeg (make deps-test installs them)"),
    .concurrencyLimit(1, runLimit: .seconds(180)))
struct FollowPrintTests {
    /// A server with `followedLyrics` beside its first track, paused at 0.5 s, and a connection to drive it.
    static func pausedServer() throws -> (MPDServer, MPDControl) {
        let server = try MPDServer()
        try followedLyrics.write(
            to: server.musicFolder.appendingPathComponent("1 Lantern River.lrc"), atomically: true, encoding: .utf8)
        let control = try MPDControl(server)
        try control.send("pause 1")
        try control.send("seekcur 0.5")
        return (server, control)
    }

    /// The monotonic time at which mpd's clock stood at 0, from its `elapsed` read over `seconds` while it plays:
    /// the earliest each position was seen (its steps only ever lag).
    static func clockZero(_ control: MPDControl, for seconds: Double) throws -> Double {
        var zero = Double.infinity
        let end = FollowProcess.now() + seconds
        while FollowProcess.now() < end {
            let asked = FollowProcess.now()
            let elapsed = try control.elapsed()
            // The answer was read somewhere between asking and its arrival: the earlier end bounds it.
            zero = min(zero, asked - elapsed)
            usleep(20_000)
        }
        return zero
    }

    /// karaoke following `server`, printing `form`.
    static func follow(_ server: MPDServer, _ form: String) throws -> FollowProcess {
        try FollowProcess(
            ["--player", server.player, "--music-dir", server.musicFolder.path], printing: ["--print", form],
            stderrPath: server.folder.appendingPathComponent("karaoke.err").path)
    }

    @Test("lines: each line once each time it becomes current, on time, through play, seeks, a gap and a pause")
    func lines() throws {
        let (server, control) = try Self.pausedServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server, "lines")
        defer { karaoke.stop() }
        // Paused before the first line: nothing sung. The lookup's answer changes nothing a reader sees.
        _ = try #require(karaoke.waitFor { $0.text == "" }, "stderr: \(karaoke.stderr)")
        usleep(700_000)
        let start = karaoke.lines.count
        #expect(start == 1, "before playing: \(karaoke.transcript)")
        var expected: [(text: String, due: Double)] = []
        // Play from 0.5 s.
        let played = try control.send("pause 0").done
        expected += [("one", played + 0.5), ("two", played + 2), ("three", played + 3.5), ("", played + 5)]
        // In the gap (6.0 s), back to 2.0 s, in the first line.
        sleep(until: played + 5.5)
        let back = try control.send("seekcur 2").done
        expected += [("one", back), ("two", back + 0.5), ("three", back + 2)]
        // In the third line (4.5 s), forward to 7.0 s, in the fourth.
        sleep(until: back + 2.5)
        let forward = try control.send("seekcur 7").done
        expected += [("four", forward), ("five", forward + 1)]
        // Paused in the fifth line (8.5 s): nothing printed while paused.
        sleep(until: forward + 1.5)
        try control.send("pause 1")
        let pausedAt = try control.elapsed()
        let whilePaused = karaoke.lines.count
        usleep(1_000_000)
        #expect(karaoke.lines.count == whilePaused, "printed while paused: \(karaoke.transcript)")
        let resumed = try control.send("pause 0").done
        // Where mpd's clock stands once it plays again: its `elapsed` moves in steps, so the position read
        // while paused may be a step behind; the earliest time each position is seen is the clock itself.
        let zero = try Self.clockZero(control, for: 0.5)
        print(
            "follow --print lines: after the resume, mpd's clock is \(String(format: "%.0f", (resumed - pausedAt - zero) * 1000)) ms "
                + "ahead of the position it said while paused")
        // The same text twice in a row: two lines.
        expected += [("la la", zero + 9.5), ("la la", zero + 11)]
        sleep(until: zero + 11.3)
        // A late last line (a slow machine, a sanitizer) is waited for, so lateness shows as lateness, not as a
        // missing line; the wait ends as soon as the last expected line is there.
        _ = karaoke.waitFor(after: start + expected.count - 1, timeout: 10) { _ in true }
        checkTiming(Array(karaoke.lines.dropFirst(start)), expected, name: "follow --print lines")
        #expect(karaoke.isRunning, "stderr: \(karaoke.stderr)")
    }

    @Test("waybar: an object a change, the class following pause and play, on time")
    func waybar() throws {
        let (server, control) = try Self.pausedServer()
        defer { server.stop() }
        let karaoke = try Self.follow(server, "waybar")
        defer { karaoke.stop() }
        func object(_ text: String, _ tooltip: String, _ state: String) -> String {
            #"{"text":"\#(text)","tooltip":"\#(tooltip)","class":"\#(state)"}"#
        }
        let ready = try #require(
            karaoke.waitFor { $0.text == object("", "one", "paused") },
            "stderr: \(karaoke.stderr)\n\(karaoke.transcript)")
        // Before the lyrics were found: nothing to show, the class says why.
        #expect(karaoke.lines.first?.text == object("", "", "nolyrics"))
        usleep(300_000)
        let start = karaoke.lines.firstIndex { $0.text == ready.text }! + 1
        var expected: [(text: String, due: Double)] = []
        let played = try control.send("pause 0").done
        expected += [
            (object("", "one", "playing"), played), (object("one", "two", "playing"), played + 0.5),
            (object("two", "three", "playing"), played + 2),
        ]
        sleep(until: played + 2.5)
        let paused = try control.send("pause 1").done
        expected.append((object("two", "three", "paused"), paused))
        usleep(300_000)
        let moved = try control.send("seekcur 6").done
        expected.append((object("", "four", "paused"), moved))
        usleep(300_000)
        let resumed = try control.send("pause 0").done
        expected += [(object("", "four", "playing"), resumed), (object("four", "five", "playing"), resumed + 0.5)]
        sleep(until: resumed + 0.8)
        // A late last line (a slow machine, a sanitizer) is waited for, so lateness shows as lateness, not as a
        // missing line; the wait ends as soon as the last expected line is there.
        _ = karaoke.waitFor(after: start + expected.count - 1, timeout: 10) { _ in true }
        checkTiming(Array(karaoke.lines.dropFirst(start)), expected, name: "follow --print waybar")
        // Every line is one JSON object.
        for line in karaoke.lines { #expect(line.object["class"] is String, "not waybar's JSON: \(line.text)") }
    }
}

/// `karaoke play --print lines|waybar FILE` with no terminal: through a pipe, ending with the song (DESIGN §28).
@Suite("Playing for a status bar (play --print)", .concurrencyLimit(1, runLimit: .seconds(180)))
struct PlayPrintTests {
    /// A short song: two lines, a gap, the same text again, a last line and its end.
    static let song = """
        [00:00.50]first
        [00:01.20]second
        [00:01.90]
        [00:02.40]second
        [00:03.00]third
        [00:03.60]

        """

    @Test("lines --no-audio through a pipe: in order, on karaoke's own clock, and the run ends with the song")
    func silentLines() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc")
        try Self.song.write(to: file, atomically: true, encoding: .utf8)
        let started = FollowProcess.now()
        let karaoke = try FollowProcess(
            [file.path, "--no-audio"], command: "play", printing: ["--print", "lines"],
            stderrPath: folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        let status = karaoke.waitForExit(timeout: 15)
        let ended = FollowProcess.now()
        #expect(status == 0, "stderr: \(karaoke.stderr)")
        let lines = karaoke.lines
        // The clock starts with the first line printed (nothing sung at 0 s).
        let zero = try #require(lines.first, "stderr: \(karaoke.stderr)").arrival
        print("play --print lines: first line \(String(format: "%.0f", (zero - started) * 1000)) ms after the start")
        #expect(lines.first?.text == "")
        let expected = [
            ("first", 0.5), ("second", 1.2), ("", 1.9), ("second", 2.4), ("third", 3.0), ("", 3.6),
        ].map { (text: $0.0, due: zero + $0.1) }
        checkTiming(Array(lines.dropFirst()), expected, name: "play --print lines --no-audio")
        // It ends with the song, not long after its last line's end.
        #expect(ended - zero < 3.6 + 0.5)
    }

    @Test("json from --start: the time, the line's index, its text, the next one's, the pause and the lyrics")
    func json() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc")
        try Self.song.write(to: file, atomically: true, encoding: .utf8)
        let output = try KaraokeProcess.runRaw(
            ["play", "--print", "json", file.path, "--no-audio", "--start", "2"], timeout: 20)
        #expect(output.status == 0, "stderr: \(String(decoding: output.stderr, as: UTF8.self))")
        let objects = String(decoding: output.stdout, as: UTF8.self).split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
        // In the gap at 2.0 s, then the repeated line (index 2), the last line, and nothing sung.
        #expect(objects.map { $0["line"] as? Int } == [nil, 2, 3, nil])
        #expect(objects.map { $0["text"] as? String } == ["", "second", "third", ""])
        #expect(objects.map { $0["next"] as? String } == ["second", "third", "", ""])
        let times = objects.compactMap { $0["time"] as? Double }
        #expect(times.count == 4 && abs(times[0] - 2) < 0.01 && abs(times[1] - 2.4) < 0.1 && abs(times[3] - 3.6) < 0.1)
        #expect(objects.allSatisfy { $0["paused"] as? Bool == false && $0["lyrics"] as? Bool == true })
    }

    @Test("a closed stdout ends it quietly, and SIGTERM as play ends (143)")
    func endings() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc")
        try Self.song.write(to: file, atomically: true, encoding: .utf8)
        // `head -n 2` leaves after the second line; the third write finds the pipe closed.
        let script = """
            "$0" play --print lines "$1" --no-audio | head -n 2; echo "status ${PIPESTATUS[0]}"
            """
        let output = try KaraokeProcess.runRaw(
            ["-c", script, KaraokeProcess.binary.path, file.path], executable: "/bin/bash", timeout: 20)
        let text = String(decoding: output.stdout, as: UTF8.self)
        #expect(text == "\nfirst\nstatus 0\n", "stderr: \(String(decoding: output.stderr, as: UTF8.self))")
        #expect(output.stderr.isEmpty)
        let karaoke = try FollowProcess(
            [file.path, "--no-audio"], command: "play", printing: ["--print", "waybar"],
            stderrPath: folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        _ = try #require(karaoke.waitFor { !$0.text.isEmpty }, "stderr: \(karaoke.stderr)")
        karaoke.signal(SIGTERM)
        #expect(karaoke.waitForExit(timeout: 5) == 143)
    }

    @Test(
        "waybar with audio: mpv's positions lead the clock, and the run ends with the audio",
        .enabled(if: MpvProbe.isAvailable, "needs mpv"))
    func waybarWithAudio() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc")
        try Self.song.write(to: file, atomically: true, encoding: .utf8)
        let audio = folder.appendingPathComponent("song.wav").path
        try ToneFile.write(to: audio, seconds: 4.5)
        let karaoke = try FollowProcess(
            [file.path, "--mpv-option", "ao=null"], command: "play", printing: ["--print", "waybar"],
            stderrPath: folder.appendingPathComponent("karaoke.err").path)
        defer { karaoke.stop() }
        // mpv's own clock, watched through its socket as a second client.
        let probe = try #require(MpvProbe.waitFor(playing: audio), "no mpv; stderr: \(karaoke.stderr)")
        let positions = try probe.connect().observe("playback-time", for: 3.9)
        let status = karaoke.waitForExit(timeout: 10)
        #expect(status == 0, "stderr: \(karaoke.stderr)")
        // The earliest each position was seen says where mpv's clock stands: position 0 at `zero`.
        let zero = try #require(positions.filter { $0.value > 0 }.map { $0.time - $0.value }.min())
        func object(_ text: String, _ tooltip: String) -> String {
            #"{"text":"\#(text)","tooltip":"\#(tooltip)","class":"playing"}"#
        }
        let lines = karaoke.lines
        #expect(lines.first?.text == object("", "first"))
        let expected = [
            (object("first", "second"), 0.5), (object("second", "second"), 1.2), (object("", "second"), 1.9),
            (object("second", "third"), 2.4), (object("third", ""), 3.0), (object("", ""), 3.6),
        ].map { (text: $0.0, due: zero + $0.1) }
        checkTiming(Array(lines.dropFirst()), expected, name: "play --print waybar on mpv's clock")
    }
}
