import Testing
@testable import KaraokeCore

/// The monitor's level: a pure gain held to full scale (DESIGN §24.2).
@Suite("The monitor's level")
struct MonitorGainTests {
    @Test(
        "a level multiplies every sample and holds the result to full scale",
        arguments: [
            // silence at 0 %
            (percent: 0, input: [0.5, -0.5, 1], expected: [0, 0, 0]),
            // unchanged at 100 %
            (percent: 100, input: [0.25, -0.75, 1], expected: [0.25, -0.75, 1]),
            // half at 50 %
            (percent: 50, input: [0.5, -1], expected: [0.25, -0.5]),
            // twice at 200 %, clipped at full scale rather than wrapped
            (percent: 200, input: [0.25, 0.75, -0.9], expected: [0.5, 1, -1]),
        ] as [(percent: Int, input: [Float], expected: [Float])])
    func levelMultipliesAndClips(percent: Int, input: [Float], expected: [Float]) {
        #expect(MonitorGain.applied(MonitorOptions.gain(percent: percent), to: input) == expected)
    }

    @Test("a sample that is not a number becomes silence, never full-scale noise")
    func notANumberIsSilence() {
        let out = MonitorGain.applied(2, to: [.nan, .infinity, -.infinity, 0.1])
        #expect(out[0] == 0)
        #expect(out.allSatisfy { $0.isFinite && abs($0) <= 1 })
        #expect(MonitorGain.applied(.nan, to: [0.5]) == [0])
    }

    @Test("levels outside 0…200 are held to the range")
    func levelsAreHeld() {
        #expect(MonitorOptions.gain(percent: -5) == 0)
        #expect(MonitorOptions.gain(percent: 500) == 2)
    }
}

/// The room echo: Schroeder's combs and all-passes, bounded and decaying (DESIGN §24.3).
@Suite("The room echo")
struct RoomEchoTests {
    /// The echo's answer to one full-scale sample followed by `seconds` of silence.
    static func impulseResponse(rate: Int, seconds: Double, decay: Double = 0.8) -> [Float] {
        var echo = RoomEcho(sampleRate: rate, decaySeconds: decay)
        var input = [Float](repeating: 0, count: Int(Double(rate) * seconds))
        input[0] = 1
        return echo.processed(input)
    }

    /// The energy of `samples[range]`.
    static func energy(_ samples: ArraySlice<Float>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) }
    }

    @Test(
        "an impulse's echo comes after the dry sample, then dies away",
        arguments: [16_000, 44_100, 48_000])
    func impulseDecays(rate: Int) {
        let response = Self.impulseResponse(rate: rate, seconds: 3)
        #expect(response[0] == 1, "the dry sample passes at full level")
        // The first repeat comes with the shortest comb, about 30 ms on.
        let firstEcho = Int(0.029 * Double(rate))
        #expect(response[1..<firstEcho].allSatisfy { $0 == 0 })
        let early = Self.energy(response[1..<(rate / 5)])
        let late = Self.energy(response[(rate * 2)...])
        #expect(early > 0)
        #expect(late < early * 1e-4, "after 2 s the echo is 40 dB down")
        let lastTenth = response[(response.count - rate / 10)...]
        #expect(lastTenth.allSatisfy { abs($0) < 1e-3 })
    }

    @Test("a longer decay rings longer", arguments: [(0.4, 1.2)])
    func longerDecayRingsLonger(short: Double, long: Double) {
        let rate = 16_000
        let quick = Self.impulseResponse(rate: rate, seconds: 1.5, decay: short)
        let slow = Self.impulseResponse(rate: rate, seconds: 1.5, decay: long)
        #expect(Self.energy(slow[rate...]) > Self.energy(quick[rate...]))
    }

    @Test(
        "full-scale input never leaves full scale, nor makes a NaN",
        arguments: [
            // a square wave at full scale, the worst a comb can build on
            "square",
            // full-scale DC, which every comb sums in phase
            "dc",
            // noise at full scale
            "noise",
            // samples that are not numbers mixed in
            "nan",
        ])
    func fullScaleStaysBounded(signal: String) {
        let rate = 44_100
        var generator = SystemRandomNumberGenerator()
        let input: [Float] = (0..<(rate * 4)).map { index in
            switch signal {
            case "square": return (index / 50) % 2 == 0 ? 1 : -1
            case "dc": return 1
            case "noise": return Float.random(in: -1...1, using: &generator)
            default: return index % 7 == 0 ? .nan : (index % 11 == 0 ? .infinity : 1)
            }
        }
        var echo = RoomEcho(sampleRate: rate, decaySeconds: 3, wet: 1, damping: 0)
        let output = echo.processed(input)
        #expect(output.allSatisfy { $0.isFinite && abs($0) <= 1 })
        // And it still dies away once the input stops.
        let tail = echo.processed([Float](repeating: 0, count: rate * 12))
        #expect(tail.suffix(rate / 10).allSatisfy { abs($0) < 1e-3 })
    }

    @Test("silence in, silence out: no noise of its own")
    func silenceStaysSilent() {
        var echo = RoomEcho(sampleRate: 48_000)
        #expect(echo.processed([Float](repeating: 0, count: 48_000)).allSatisfy { $0 == 0 })
    }
}

/// The monitor's options, the feedback warning and the notices (DESIGN §24.1).
@Suite("The monitor's options")
struct MonitorOptionsTests {
    /// The play request `arguments` (after `play song.lrc`) make.
    static func play(_ arguments: [String], config: ConfigFile? = nil) throws -> PlayRequest {
        let invocation = try CommandLineParser.parse(["play", "song.lrc"] + arguments, config: config)
        guard case .play(let request) = invocation else { throw UnexpectedInvocation(invocation: invocation) }
        return request
    }

    @Test(
        "--monitor takes an optional level after '=', bare is 100",
        arguments: [
            // off without the option
            (arguments: [], percent: nil),
            // bare: the default level; the next argument stays a FILE
            (arguments: ["--monitor"], percent: 100),
            (arguments: ["--monitor=60"], percent: 60),
            (arguments: ["--monitor=200"], percent: 200),
            (arguments: ["--monitor=0"], percent: 0),
        ] as [(arguments: [String], percent: Int?)])
    func monitorLevel(arguments: [String], percent: Int?) throws {
        #expect(try Self.play(arguments).monitor.percent == percent)
    }

    @Test("a level outside 0…200 is refused", arguments: ["--monitor=201", "--monitor=-1", "--monitor=loud"])
    func badLevelIsRefused(argument: String) {
        #expect(throws: UsageError.self) { try Self.play([argument]) }
    }

    @Test("the sink, the echo and the microphone are read; party takes them too")
    func sinkAndReverb() throws {
        let request = try Self.play(["--monitor", "--monitor-sink", "speakers", "--reverb", "--mic", "mic.monitor"])
        #expect(request.monitor == MonitorOptions(percent: 100, sink: "speakers", reverb: true))
        #expect(request.scoring.microphones.first?.source == "mic.monitor")
        guard case .party(let party) = try CommandLineParser.parse(["party", "songs", "--monitor=80"]) else {
            Issue.record("not a party")
            return
        }
        #expect(party.play.monitor.percent == 80)
    }

    @Test("the help names the level as optional")
    func helpShowsOptionalValue() throws {
        let option = try #require(CommandLineOption.named("--monitor"))
        #expect(option.label == "--monitor[=PERCENT]")
        #expect(UsageText.help(for: "play").contains("--monitor[=PERCENT]"))
    }

    @Test("the config file sets the level, or the default with true")
    func configKey() throws {
        for (line, percent) in [("monitor = 70", 70), ("monitor = true", 100)] as [(String, Int?)] {
            let config = ConfigFile(path: "config", text: line + "\n")
            #expect(config.warnings.isEmpty, "\(config.warnings)")
            #expect(try Self.play([], config: config).monitor.percent == percent)
        }
        #expect(try Self.play([], config: ConfigFile(path: "config", text: "monitor = false\n")).monitor.percent == nil)
    }

    @Test(
        "feedback is warned of when the microphone is the monitor of the sink played to",
        arguments: [
            // named on both sides
            (source: "speakers.monitor", sink: "speakers", defaultSource: nil, defaultSink: nil, warns: true),
            // the default sink's monitor
            (source: "alsa.monitor", sink: nil, defaultSource: nil, defaultSink: "alsa", warns: true),
            // the default source is that monitor
            (source: nil, sink: "alsa", defaultSource: "alsa.monitor", defaultSink: nil, warns: true),
            // another sink's monitor
            (source: "mic.monitor", sink: "speakers", defaultSource: nil, defaultSink: nil, warns: false),
            // a real microphone
            (source: "alsa_input.usb", sink: nil, defaultSource: nil, defaultSink: "alsa", warns: false),
            // the server could not say
            (source: nil, sink: nil, defaultSource: nil, defaultSink: nil, warns: false),
        ] as [(source: String?, sink: String?, defaultSource: String?, defaultSink: String?, warns: Bool)])
    func feedbackWarning(source: String?, sink: String?, defaultSource: String?, defaultSink: String?, warns: Bool) {
        let warning = MonitorOptions.feedbackWarning(
            source: source, sink: sink, defaultSource: defaultSource, defaultSink: defaultSink)
        #expect((warning != nil) == warns)
        if let warning { #expect(warning.hasPrefix("feedback: ")) }
    }

    @Test("e turns the monitor on and off through the edge, with the key in the help")
    func keyE() {
        #expect(PlayerAction.bound(to: .character("e")) == .toggleMonitor)
        #expect(PlayerAction.help.contains { $0.keys == "e" })
        #expect(MonitorOptions.notice(isOn: true, percent: 80, reverb: true) == "monitor on 80% with echo")
        #expect(MonitorOptions.notice(isOn: false, percent: 80, reverb: false) == "monitor off")
    }
}

/// Finding clicks and their delay between two recordings on one clock (DESIGN §24.4).
@Suite("Click delays")
struct ClickDelayTests {
    /// A recording at 1 kHz in hops of 10 samples, the first hop ending at `start`, with full-scale clicks at
    /// the sample indices `clicks`.
    static func recording(start: Double, samples: Int, clicks: [Int]) -> ClickDelay.Recording {
        var all = [Float](repeating: 0, count: samples)
        for click in clicks { all[click] = 0.9 }
        var recording = ClickDelay.Recording(sampleRate: 1000)
        for hop in 0..<(samples / 10) {
            recording.hops.append(
                (end: start + Double(hop * 10 + 9) / 1000, samples: Array(all[(hop * 10)..<(hop * 10 + 10)])))
        }
        return recording
    }

    @Test("each click is found in the other recording at its delay; one that never comes is nil")
    func delaysAreFound() throws {
        let sent = Self.recording(start: 10, samples: 3000, clicks: [300, 800, 1300, 1800])
        // Heard 25 ms later, the third never, on a recording that started 0.2 s later.
        let heard = Self.recording(
            start: 10.2, samples: 3000, clicks: [300 + 25 - 200, 800 + 25 - 200, 1800 + 25 - 200])
        let delays = ClickDelay.delays(sent: sent, heard: heard, threshold: 0.5)
        try #require(delays.count == 4)
        #expect(abs(try #require(delays[0]) - 0.025) < 1e-9)
        #expect(abs(try #require(delays[1]) - 0.025) < 1e-9)
        #expect(delays[2] == nil)
        #expect(abs(try #require(delays[3]) - 0.025) < 1e-9)
        #expect(ClickDelay.median([0.03, 0.01, 0.02]) == 0.02)
        #expect(ClickDelay.median([]) == nil)
    }
}

/// When the monitor drops what piled up unread in its record stream (DESIGN §24.2).
@Suite("The monitor's backlog")
struct MonitorBacklogTests {
    @Test("the backlog is dropped once the speakers are going, then only when the latency stays over its least")
    func dropsOnceThenOnAPileUp() {
        var backlog = MonitorBacklog(settleReads: 3, slack: 0.008, patience: 4)
        func answers(_ latencies: [Double?]) -> [Bool] { latencies.map { backlog.shouldDrop(latency: $0) } }
        // Settling: the third read drops whatever piled up before the speakers started.
        let settling = answers([0.2, 0.2, 0.2])
        #expect(settling == [false, false, true])
        // A microphone with 20 ms of its own never counts as a backlog, nor does a short spike.
        let steady = answers([0.02, 0.021, 0.019, 0.035, 0.035, 0.02, nil])
        #expect(steady.allSatisfy { !$0 })
        // Over the slack for four reads in a row: dropped, on the fourth.
        let pileUp = answers([0.04, 0.04, 0.04, 0.04])
        #expect(pileUp == [false, false, false, true])
        // Measured afresh after the drop.
        let afresh = answers([0.04])
        #expect(afresh == [false])
    }
}
