import Glibc
import Testing
@testable import KaraokeCore

/// The analyses a 32 ms window hopping 16 ms would give of the clicks heard `delay` seconds late (clicks at
/// `clickLevel` dBFS over a quiet of `quietLevel`), with the first window's middle at `phase` seconds; only the
/// clicks in `heard` sound.
private func frames(
    delay: Double, phase: Double = 0, clickLevel: Double = -20, quietLevel: Double = -70,
    heard: Set<Int> = Set(0..<MicCalibration.clickCount)
) -> [(time: Double, level: Double)] {
    let window = 0.032
    let clicks = MicCalibration.clickTimes.enumerated().filter { heard.contains($0.offset) }.map { $0.element + delay }
    return stride(from: phase, to: MicCalibration.length + 0.5, by: 0.016).map { middle in
        // The share of the window the click fills sets its mean square.
        let start = middle - window / 2, end = middle + window / 2
        let filled = clicks.map { max(0, min(end, $0 + MicCalibration.clickLength) - max(start, $0)) }.reduce(0, +)
        let power = filled / window * pow(10, clickLevel / 10) + pow(10, quietLevel / 10)
        return (time: middle, level: 10 * log10(power))
    }
}

@Suite("Calibrating the microphone")
struct MicCalibrationTests {
    @Test(
        "the median round trip is the delay the clicks were heard late by, whatever the windows' phase",
        arguments: [
            (delay: 0.0, phase: 0.0), // a loopback: heard as played
            (delay: 0.035, phase: 0.005), // a USB microphone
            (delay: 0.120, phase: 0.011), // a Bluetooth headset's microphone
            (delay: 0.450, phase: 0.003), // near the longest told apart from the next click
            (delay: -0.040, phase: 0.008), // mpv's clock a little late: a negative delay is reported as it is
        ])
    func medianRoundTrip(delay: Double, phase: Double) throws {
        let result = try #require(MicCalibration.result(frames: frames(delay: delay, phase: phase)))
        #expect(abs(result.medianMilliseconds - Int((delay * 1000).rounded())) <= 4)
        #expect(result.heard == MicCalibration.clickCount)
        #expect(result.spreadMilliseconds <= 8)
        #expect(result.micDelay == result.medianMilliseconds)
    }

    @Test("a click too quiet to stand out of the room's noise is not heard")
    func quietClicksAreNotHeard() {
        #expect(MicCalibration.result(frames: frames(delay: 0.05, clickLevel: -60, quietLevel: -65)) == nil)
        #expect(
            MicCalibration.roundTrips(frames: frames(delay: 0.05, clickLevel: -60, quietLevel: -65)).allSatisfy {
                $0 == nil
            })
    }

    @Test(
        "half the clicks heard is enough; fewer gives no result",
        arguments: [(heard: 4, hasResult: true), (heard: 3, hasResult: false), (heard: 0, hasResult: false)])
    func halfTheClicks(heard: Int, hasResult: Bool) {
        let result = MicCalibration.result(frames: frames(delay: 0.06, heard: Set(0..<heard)))
        #expect((result != nil) == hasResult)
        if let result { #expect(result.heard == heard) }
    }

    @Test("no analyses at all is no result, not a crash")
    func nothingHeard() {
        #expect(MicCalibration.result(frames: []) == nil)
    }

    @Test("the clicks are a 16 kHz WAV, sounding at each click time and silent between")
    func clickTrack() {
        let wav = MicCalibration.wav()
        #expect(Array(wav.prefix(4)) == Array("RIFF".utf8))
        #expect(Int(wav[24]) | Int(wav[25]) << 8 == 16_000 % 65_536)
        #expect((wav.count - 44) / 2 == Int(MicCalibration.length * 16_000))
        func sample(at seconds: Double) -> Int16 {
            let index = 44 + Int(seconds * 16_000) * 2
            return Int16(bitPattern: UInt16(wav[index]) | UInt16(wav[index + 1]) << 8)
        }
        for click in MicCalibration.clickTimes {
            #expect(abs(Int(sample(at: click + 0.02))) > 10_000)
            #expect(sample(at: click + MicCalibration.interval / 2) == 0)
        }
    }
}

@Suite("Naming the note heard")
struct NoteNameTests {
    @Test(
        "a MIDI number is named by its nearest note and the cents off it",
        arguments: [
            (midi: 69.0, name: "A4", cents: 0), // 440 Hz
            (midi: 60.0, name: "C4", cents: 0), // middle C
            (midi: 57.3, name: "A3", cents: 30),
            (midi: 63.6, name: "E4", cents: -40), // nearer E4 than D#4
            (midi: 61.0, name: "C#4", cents: 0),
            (midi: 11.0, name: "B-1", cents: 0), // below C0
        ])
    func names(midi: Double, name: String, cents: Int) {
        let note = NoteName.of(midi: midi)
        #expect(note.name == name)
        #expect(note.cents == cents)
    }
}

@Suite("The microphone's commands on the command line")
struct MicCommandLineTests {
    @Test("calibrate takes the source and mpv's options")
    func calibrate() throws {
        let invocation = try CommandLineParser.parse(["calibrate", "--mic", "mic.monitor", "--mpv-option", "ao=null"])
        var expected = MicRequest()
        expected.source = "mic.monitor"
        expected.mpvOptions = ["ao=null"]
        #expect(invocation == .calibrate(expected))
    }

    @Test("mic takes --print, and the default source without --mic")
    func mic() throws {
        var expected = MicRequest()
        expected.prints = true
        #expect(try CommandLineParser.parse(["mic", "--print"]) == .mic(expected))
    }

    @Test(
        "a FILE, an empty source or an option of another command is a usage error",
        arguments: [
            ["mic", "song.lrc"], ["calibrate", "song.lrc"], ["mic", "--mic", ""], ["mic", "--mpv-option", "ao=null"],
            ["calibrate", "--print"], ["mic", "--mic", "bad\u{1B}name"],
        ])
    func usageErrors(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
    }

    @Test("a config file's mic setting is the default source")
    func configFile() throws {
        let config = ConfigFile(path: "config", text: "mic = usb.mic\n")
        #expect(config.warnings.isEmpty)
        var expected = MicRequest()
        expected.source = "usb.mic"
        #expect(try CommandLineParser.parse(["mic"], config: config) == .mic(expected))
    }
}

/// What `karaoke mic` says first (DESIGN §15.1).
@Suite("The microphone's first line")
struct MicListeningTests {
    @Test(
        "it names the source listened to, the default one by its name when the server gives it, and the rate",
        arguments: [
            (source: "mic.monitor" as String?, server: nil as String?, line: "listening to mic.monitor at 16 kHz mono"),
            (nil, "alsa_input.usb-Mic", "listening to alsa_input.usb-Mic (the default source) at 16 kHz mono"),
            (nil, nil, "listening to the server's default source at 16 kHz mono"),
            ("bad\u{1B}[31m", nil, "listening to bad[31m at 16 kHz mono"),
        ])
    func names(source: String?, server: String?, line: String) {
        #expect(
            MicListening.line(source: source, defaultSource: server, format: "16 kHz mono", analysesPerSecond: 62.5)
                == line + ", 62.5 analyses a second")
    }
}
