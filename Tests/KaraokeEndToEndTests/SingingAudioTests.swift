import Foundation
import Testing

/// Vocals, key and tempo through a real mpv (`ao=null`), read back over mpv's own IPC (DESIGN §14.1).
@Suite(
    "Audio for singers through mpv",
    .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable, "needs tmux and mpv"),
    .concurrencyLimit(1))
struct SingingAudioTests {
    /// `karaoke play` on the song in `folder` with mpv silent, once its title shows.
    func play(_ folder: URL, _ arguments: String = "") throws -> TmuxSession {
        try AudioTests.play(folder, arguments)
    }

    /// The filters in mpv's `af` list, as (name, parameters).
    func filters(_ mpv: MpvConnection) throws -> [(name: String, params: [String: String])] {
        let list = try mpv.property("af") as? [[String: Any]] ?? []
        return list.map { ($0["name"] as? String ?? "", $0["params"] as? [String: String] ?? [:]) }
    }

    @Test(
        "after v, < and ], mpv's af holds the centre-cancelling pan and rubberband a semitone down, and speed is 1.05")
    func keysSetFiltersAndSpeed() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder)
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("playback-time") is Double }, "mpv has the file open")
        #expect(try filters(mpv).isEmpty, "no filter until a singer asks for one")
        try session.send("v")
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi"] })
        #expect(try filters(mpv).first?.params["graph"] == SingingAudioTests.halfGuide, "the guide level at 50 %")
        try session.send("<")
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi", "rubberband"] })
        let scale = try #require(Double(try filters(mpv).last?.params["pitch-scale"] ?? ""))
        #expect(abs(scale - 0.943874) < 1e-6, "a semitone down")
        try session.send("]")
        #expect(poll { try mpv.property("speed") as? Double == 1.05 })
        let screen = try session.waitFor { $0.contains { $0.contains("key −1  tempo 1.05×  vocals 50 %") } }
        #expect(screen.contains { $0.contains("key −1  tempo 1.05×  vocals 50 %") }, "the status bar says so")
        try session.send("v")
        #expect(poll { try filters(mpv).first?.params["graph"] == "pan=mono|c0=c0-c1" }, "v again: the centre out")
        try session.waitFor { $0.contains { $0.contains("vocals 0 %") } }
        try session.send("v")
        #expect(poll { try filters(mpv).map(\.name) == ["rubberband"] }, "v a third time brings the vocals back")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("--vocals, --key and --tempo start mpv with them")
    func flagsStartMpvWithThem() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--vocals reduced --key 2 --tempo 0.85")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("speed") as? Double == 0.85 })
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi", "rubberband"] })
        let scale = try #require(Double(try filters(mpv).last?.params["pitch-scale"] ?? ""))
        #expect(abs(scale - 1.122462) < 1e-6, "two semitones up")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    /// The lavfi graph of a guide level of 50 %: half the centre, all of the side (DESIGN §25).
    static let halfGuide = "pan=stereo|c0=0.750*c0-0.250*c1|c1=0.750*c1-0.250*c0"

    @Test(
        "--vocals PERCENT starts mpv with the guide level's filter, none at 100",
        arguments: [
            (argument: "50", graph: halfGuide as String?), // a guide at half
            (argument: "reduced", graph: "pan=mono|c0=c0-c1"), // today's word: the centre out
            (argument: "25", graph: "pan=stereo|c0=0.625*c0-0.375*c1|c1=0.625*c1-0.375*c0"),
            (argument: "100", graph: nil), // the whole mix: no filter
        ])
    func guideLevelReachesMpv(argument: String, graph: String?) throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--vocals \(argument)")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("playback-time") is Double }, "mpv has the file open")
        #expect(try filters(mpv).first?.params["graph"] == graph)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("the level a song ends with is remembered for it and applied next time, unless --vocals is given")
    func guideLevelRemembered() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        let wav = folder.appendingPathComponent("song.wav").path
        do {
            let session = try AudioTests.play(folder, environment: environment)
            let mpv = try #require(MpvProbe.waitFor(playing: wav)).connect()
            #expect(poll { try mpv.property("playback-time") is Double })
            try session.send("v")
            try session.waitFor { $0.contains { $0.contains("vocals 50 %") } }
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        let memory = try String(contentsOf: state.appendingPathComponent("karaoke/vocals"), encoding: .utf8)
        #expect(memory.hasSuffix(" 50\n") && memory.split(separator: "\n").count == 1, "\(memory)")
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("karaoke/offsets").path))
        for (arguments, graph) in [("", SingingAudioTests.halfGuide), ("--vocals 100", nil)] as [(String, String?)] {
            let session = try AudioTests.play(folder, arguments, environment: environment)
            let mpv = try #require(MpvProbe.waitFor(playing: wav)).connect()
            #expect(poll { try mpv.property("playback-time") is Double })
            #expect(try filters(mpv).first?.params["graph"] == graph, "with '\(arguments)'")
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        let after = try String(contentsOf: state.appendingPathComponent("karaoke/vocals"), encoding: .utf8)
        #expect(after == memory, "nothing changed in those runs")
    }

    @Test("at 50 % the centre comes out at half its amplitude and the side whole, through karaoke and mpv")
    func guideLevelAttenuates() throws {
        let short = "[ti:Tone Poem]\n[00:00.50]One note\n[00:01.00]and done\n"
        let folder = try AudioTests.songFolder(audioSeconds: 1, lyrics: short)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 2 s of a 440 Hz centre (equal in both channels, amplitude 0.4) and a 1 kHz side (0.2, opposite).
        let rate = 48_000
        let input = (0..<(2 * rate)).map { index -> (Double, Double) in
            let time = Double(index) / Double(rate)
            let centre = 0.4 * sin(2 * Double.pi * 440 * time), side = 0.2 * sin(2 * Double.pi * 1000 * time)
            return (centre + side, centre - side)
        }
        try StereoWave.write(input, rate: rate, to: folder.appendingPathComponent("song.wav").path)
        let output = folder.appendingPathComponent("out.wav").path
        let lyrics = folder.appendingPathComponent("song.lrc").path
        // ao=pcm writes what mpv would play to a file, faster than real time; the song ends with the audio.
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(lyrics)' --vocals 50 --mpv-option ao=pcm "
                + "--mpv-option ao-pcm-file='\(output)'")
        if try session.exitStatus(timeout: 20) == nil { try session.send("q") }
        let played = try StereoWave.read(output)
        #expect(played.rate == rate && played.channels == 2)
        // One second from 0.25 s, clear of the filters' start.
        let frames = Array(played.frames.dropFirst(rate / 4).prefix(rate))
        #expect(frames.count == rate)
        for channel in 0..<2 {
            let samples = frames.map { channel == 0 ? $0.0 : $0.1 }
            let centre = StereoWave.amplitude(of: 440, in: samples, rate: rate)
            let side = StereoWave.amplitude(of: 1000, in: samples, rate: rate)
            #expect(abs(centre - 0.2) < 0.005, "channel \(channel): the centre at \(centre), half of 0.4")
            #expect(abs(side - 0.2) < 0.005, "channel \(channel): the side at \(side), as it was")
        }
    }

    @Test("at half tempo the song ends when the audio ends: 3 s of audio take about 6 s")
    func endsWithTheAudioAtTheTempo() throws {
        let short = "[ti:Tone Poem]\n[00:00.50]One note\n[00:01.00]and done\n"
        let folder = try AudioTests.songFolder(audioSeconds: 3, lyrics: short)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let session = try play(folder, "--tempo 0.5")
        #expect(try session.exitStatus(timeout: 20) == 0)
        let took = Date().timeIntervalSince(started)
        // Generous on the late side (a loaded machine); the point is that it is not the 3 s of 1×.
        #expect(took > 5.3 && took < 15, "ended after \(took) s")
    }

    @Test(
        "the lyric clock stays within 50 ms of mpv's position at 0.75× and 1.25× (nine samples in ten)", .runsAlone,
        arguments: ["0.75", "1.25"])
    func clockFollowsAtTempo(tempo: String) throws {
        AudioTests.checkClockGaps(try AudioTests.clockGaps("--tempo \(tempo)"))
    }
}

/// Stereo 16-bit WAV files for measuring what mpv played (DESIGN §25).
enum StereoWave {
    /// Writes `frames` (left, right, each within ±1) at `rate` as a 16-bit stereo WAV file.
    static func write(_ frames: [(Double, Double)], rate: Int, to path: String) throws {
        var data = Data()
        func append<T: FixedWidthInteger>(_ value: T) {
            withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
        }
        let bytes = frames.count * 4
        data.append(contentsOf: Array("RIFF".utf8))
        append(UInt32(36 + bytes))
        data.append(contentsOf: Array("WAVEfmt ".utf8))
        append(UInt32(16))
        append(UInt16(1))
        append(UInt16(2))
        append(UInt32(rate))
        append(UInt32(rate * 4))
        append(UInt16(4))
        append(UInt16(16))
        data.append(contentsOf: Array("data".utf8))
        append(UInt32(bytes))
        for (left, right) in frames {
            append(Int16((left * 32767).rounded()))
            append(Int16((right * 32767).rounded()))
        }
        try data.write(to: URL(fileURLWithPath: path))
    }

    /// Reads a 16-bit PCM WAV file (plain or extensible), its frames as (left, right) within ±1.
    static func read(_ path: String) throws -> (rate: Int, channels: Int, frames: [(Double, Double)]) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        func number(_ at: Int, _ count: Int) -> Int {
            (0..<count).reduce(0) { $0 | Int(bytes[at + $1]) << (8 * $1) }
        }
        var position = 12, rate = 0, channels = 0
        while position + 8 <= bytes.count {
            let name = String(decoding: bytes[position..<position + 4], as: UTF8.self)
            let size = number(position + 4, 4)
            if name == "fmt " {
                channels = number(position + 10, 2)
                rate = number(position + 12, 4)
            } else if name == "data" {
                // ao=pcm may leave the size unwritten until it closes: take what is there.
                let end = min(bytes.count, size == 0 || size == 0xFFFF_FFFF ? bytes.count : position + 8 + size)
                var frames: [(Double, Double)] = []
                var at = position + 8
                while channels == 2, at + 4 <= end {
                    let left = Int16(truncatingIfNeeded: number(at, 2)),
                        right = Int16(truncatingIfNeeded: number(at + 2, 2))
                    frames.append((Double(left) / 32768, Double(right) / 32768))
                    at += 4
                }
                return (rate, channels, frames)
            }
            position += 8 + size + size % 2
        }
        return (rate, channels, [])
    }

    /// The amplitude of the `frequency` Hz sine in `samples` (a single-bin Fourier transform).
    static func amplitude(of frequency: Double, in samples: [Double], rate: Int) -> Double {
        var real = 0.0, imaginary = 0.0
        for (index, sample) in samples.enumerated() {
            let phase = 2 * Double.pi * frequency * Double(index) / Double(rate)
            real += sample * cos(phase)
            imaginary -= sample * sin(phase)
        }
        return 2 * (real * real + imaginary * imaginary).squareRoot() / Double(samples.count)
    }
}
