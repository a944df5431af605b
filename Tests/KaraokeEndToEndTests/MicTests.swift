import Foundation
import Testing

/// The microphone end to end (DESIGN §15.1): `karaoke mic --print` and `karaoke calibrate` listening to the
/// monitor of a null sink on a PulseAudio server of the test's own, with tones and clicks played into it.
@Suite(
    "Listening to the microphone",
    .enabled(if: PulseAudioServer.isAvailable, "needs pulseaudio, pactl and paplay (make deps-test)"),
    .concurrencyLimit(2))
struct MicTests {
    /// One line of `karaoke mic --print`.
    struct Heard: Decodable {
        var time: Double
        var midi: Double?
        var level: Double
    }

    /// `karaoke mic --print` on the server's monitor while `body` runs; what it printed.
    static func listen(on server: PulseAudioServer, during body: () throws -> Void) throws -> [Heard] {
        let output = server.folder.appendingPathComponent("mic.jsonl")
        let file = open(output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(file) }
        // stderr apart: it opens with the line naming the source.
        let errors = open(server.folder.appendingPathComponent("mic.err").path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(errors) }
        let mic = try ChildProcess(
            [KaraokeProcess.binary.path, "mic", "--mic", PulseAudioServer.source, "--print"],
            environment: server.environment, stdout: file, stderr: errors)
        defer { mic.stop() }
        // Its stream is open (the monitor then runs in real time: no latency trap) once lines come.
        let deadline = Date().addingTimeInterval(10)
        while (try? Data(contentsOf: output).count) ?? 0 < 2_000, Date() < deadline, !mic.hasExited { usleep(20_000) }
        try body()
        usleep(300_000)
        mic.stop()
        let text = try String(contentsOf: output, encoding: .utf8)
        let decoder = JSONDecoder()
        return try text.split(separator: "\n").map {
            do { return try decoder.decode(Heard.self, from: Data($0.utf8)) } catch {
                Issue.record("not a JSON line: \($0)")
                throw error
            }
        }
    }

    /// The runs of consecutive voiced analyses at least `minimum` long.
    static func voicedRuns(_ frames: [Heard], minimum: Int = 10) -> [[Heard]] {
        var runs: [[Heard]] = []
        var current: [Heard] = []
        for frame in frames {
            if frame.midi != nil {
                current.append(frame)
            } else {
                if current.count >= minimum { runs.append(current) }
                current = []
            }
        }
        if current.count >= minimum { runs.append(current) }
        return runs
    }

    @Test("tones played into the sink are heard on its monitor as their notes, over 40 times a second", .runsAlone)
    func tonesAreHeardAsTheirNotes() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let notes: [Double] = [57, 60, 64, 69] // A3, C4, E4, A4
        let wav = server.folder.appendingPathComponent("tones.wav").path
        // The tones wait 1.5 s: when paplay's stream starts, a null sink's monitor takes about 0.7 s to catch
        // up, and its timing means nothing meanwhile (a real microphone has no such moment).
        try ToneWave.write(
            notes.enumerated().map {
                ToneWave.Tone(hertz: ToneWave.hertz(midi: $0.element), start: 1.5 + Double($0.offset), duration: 0.7)
            }, seconds: 6, to: wav)
        let frames = try Self.listen(on: server) { try server.play(wav: wav) }
        let span = try #require(frames.last).time - (try #require(frames.first)).time
        #expect(span > 5)
        realTimeBound { #expect(Double(frames.count) / span >= 40, "analyses a second") }
        let runs = Self.voicedRuns(frames)
        try #require(runs.count == notes.count, "one voiced run a tone, got \(runs.map(\.count))")
        for (run, note) in zip(runs, notes) {
            let midis = run.compactMap(\.midi).sorted()
            let median = midis[midis.count / 2]
            #expect(abs(median - note) <= 0.5, "heard \(median) for \(note)")
            // Nearly every analysis inside a tone is on its note; only the edges may stray.
            #expect(midis.filter { abs($0 - note) <= 0.5 }.count >= run.count * 8 / 10)
            // A 0.7 s tone, give or take the windows at its edges (the times are when it reached the microphone).
            let length = run[run.count - 1].time - run[0].time
            #expect(length > 0.55 && length < 0.85, "a tone lasted \(length) s")
        }
        // Between and around the tones, silence: no pitch and a very low level.
        let first = try #require(runs.first?.first?.time)
        let silent = frames.filter { $0.time < first - 0.1 }
        #expect(silent.count > 10)
        #expect(silent.allSatisfy { $0.midi == nil && $0.level < -60 })
    }

    @Test("calibrate measures the round trip of clicks played into the sink and prints the delay to use", .runsAlone)
    func calibrateMeasuresTheRoundTrip() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        // mpv plays into the server's default sink, the only one: `mic`.
        let result = try KaraokeProcess.run(
            [
                "calibrate", "--mic", PulseAudioServer.source, "--mpv-option",
                "audio-device=pulse/\(PulseAudioServer.sink)",
            ],
            environment: server.environment, timeout: 40)
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        let roundTrip = try #require(lines.first { $0.hasPrefix("round trip: median ") }, "\(result.stdout)")
        // "round trip: median N ms, spread S ms, H of 8 clicks heard"
        let words = roundTrip.split(separator: " ")
        let median = try #require(Int(words[3]))
        let heard = try #require(Int(words[8]))
        // A loopback through a null sink: no speaker, no air; the clocks agree to within a few windows.
        realTimeBound {
            #expect(abs(median) < 100, "\(roundTrip)")
            #expect(heard >= 6, "\(roundTrip)")
        }
        #expect(lines.contains("use: karaoke play FILE --score --mic-delay \(median)"))
    }

    @Test("calibrate with the clicks played nowhere hears none of them and says so")
    func calibrateHearingNothingFails() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let result = try KaraokeProcess.run(
            ["calibrate", "--mic", PulseAudioServer.source, "--mpv-option", "ao=null"],
            environment: server.environment, timeout: 40)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("karaoke: heard 0 of 8 clicks on 'mic.monitor'"), "\(result.stderr)")
    }

    @Test("when the server goes away, mic says so and ends")
    func serverGoesAway() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let errors = server.folder.deletingLastPathComponent().appendingPathComponent(
            "karaoke-mic-\(getpid())-\(Int(ChildProcess.monotonic() * 1000)).err")
        defer { try? FileManager.default.removeItem(at: errors) }
        let file = open(errors.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(file) }
        let mic = try ChildProcess(
            [KaraokeProcess.binary.path, "mic", "--mic", PulseAudioServer.source, "--print"],
            environment: server.environment, stderr: file)
        defer { mic.stop() }
        // The server goes away once mic listens (it says so first), not after a fixed time: under
        // ThreadSanitizer mic once took over a second to connect and found no server.
        _ = poll(upTo: 20) {
            let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            return mic.hasExited || said.contains("karaoke: listening to")
        }
        usleep(300_000)
        #expect(!mic.hasExited)
        server.stop()
        #expect(mic.waitForExit(timeout: 10))
        let message = try String(contentsOf: errors, encoding: .utf8)
        let lines = message.split(separator: "\n")
        #expect(lines.first == "karaoke: listening to mic.monitor at 16 kHz mono, 62.5 analyses a second")
        #expect(lines.last?.hasPrefix("karaoke: the microphone stopped: ") == true, "\(message)")
    }

    @Test("mic says first which source it listens to, the default one by its name, and at what rate")
    func namesTheSource() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let expected = try server.run("pactl", ["get-default-source"]).stdout.split(separator: "\n").first.map(
            String.init)
        let name = try #require(expected, "pactl names the default source")
        let output = server.folder.appendingPathComponent("tuner.out")
        let file = open(output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer { close(file) }
        let mic = try ChildProcess([KaraokeProcess.binary.path, "mic"], environment: server.environment, stdout: file)
        defer { mic.stop() }
        let deadline = Date().addingTimeInterval(10)
        var text = ""
        while !text.contains("\n"), Date() < deadline, !mic.hasExited {
            usleep(50_000)
            text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
        }
        #expect(
            text.split(separator: "\n").first
                == "listening to \(name) (the default source) at 16 kHz mono, 62.5 analyses a second; Ctrl-C stops")
    }

    @Test("a source the server does not have is named in a clear message")
    func unknownSource() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let result = try KaraokeProcess.run(
            ["mic", "--mic", "no.such.source"], environment: server.environment, timeout: 20)
        #expect(result.status == 1)
        #expect(result.stderr == "karaoke: no microphone 'no.such.source' (see 'pactl list short sources')\n")
    }
}

/// Without a PulseAudio server: a clear message, no hang (needs only libpulse0, not the daemon).
@Suite("The microphone with no sound server", .concurrencyLimit(4))
struct MicWithoutServerTests {
    @Test("mic and calibrate with no server to reach say so and exit 1", arguments: [["mic"], ["calibrate"]])
    func noServer(arguments: [String]) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try KaraokeProcess.run(
            arguments,
            environment: [
                "PULSE_SERVER": "unix:\(folder.path)/no-server", "PULSE_COOKIE": folder.path + "/cookie",
            ], timeout: 20)
        #expect(result.status == 1)
        // With libpulse0 missing, the message names the package instead; either way it is about PulseAudio.
        #expect(
            result.stderr.hasPrefix("karaoke: no PulseAudio server to listen through")
                || result.stderr.hasPrefix("karaoke: scoring needs PulseAudio's libpulse-simple.so.0"),
            "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }
}
