import Foundation
import Testing

/// `karaoke play --score` end to end (DESIGN §15): a PulseAudio server of the test's own with a null sink, mpv
/// playing a WAV of sine tones into it (`ao=pulse`), and the sink's monitor as the microphone. The song's notes
/// and the tones are made from one list, so "sung on pitch" is exact; the score is read from `--score-out`.
///
/// Each song plays in real time (about 15 s), each test with its own server, folder and session: two at once
/// halve the suite's time, and leave the machine's cores to the pitch analysis of both.
@Suite(
    "Scoring the singing",
    .enabled(if: PulseAudioServer.isAvailable && TmuxSession.isAvailable, "needs pulseaudio and tmux (make deps-test)"),
    .concurrencyLimit(2, first: true))
struct ScoringTests {
    /// One UltraStar note: beat, length, pitch (0 is C4) and kind letter.
    struct Note {
        var beat: Int
        var length: Int
        var pitch: Int
        var kind = ":"
        var syllable: String
    }

    /// 240 BPM (a beat is 62.5 ms) from a GAP of 1 s; two lines of four notes of 1.5 s with short rests, a
    /// golden note in each line, ranging over an octave. The words are ours.
    static let bpm = 240.0
    static let gap = 1000.0
    static let melody: [[Note]] = [
        [
            Note(beat: 0, length: 24, pitch: 0, syllable: "Lan"),
            Note(beat: 26, length: 24, pitch: 4, syllable: "terns "),
            Note(beat: 52, length: 24, pitch: 7, kind: "*", syllable: "on "),
            Note(beat: 78, length: 24, pitch: 2, syllable: "the "),
        ],
        [
            Note(beat: 108, length: 24, pitch: 5, syllable: "qui"),
            Note(beat: 134, length: 24, pitch: 9, syllable: "et "),
            Note(beat: 160, length: 24, pitch: 12, syllable: "ri"),
            Note(beat: 186, length: 28, pitch: 0, kind: "*", syllable: "ver "),
        ],
    ]

    static func seconds(ofBeat beat: Int) -> Double { (gap + Double(beat) * 15_000 / bpm) / 1000 }

    /// The song's text: `P1`/`P2` headers when `parts` has two melodies.
    static func songText(_ parts: [[[Note]]], audio: String) -> String {
        var text = "#TITLE:Lanterns\n#ARTIST:The Test Choir\n#BPM:\(Int(bpm))\n#GAP:\(Int(gap))\n#MP3:\(audio)\n"
        for (number, melody) in parts.enumerated() {
            if parts.count > 1 { text += "P\(number + 1)\n" }
            for (index, line) in melody.enumerated() {
                if index > 0 { text += "- \(line[0].beat - 2)\n" }
                for note in line { text += "\(note.kind) \(note.beat) \(note.length) \(note.pitch) \(note.syllable)\n" }
            }
        }
        return text + "E\n"
    }

    /// The tones that sing `melody` moved by `semitones`, a little quieter than full scale.
    static func tones(_ melody: [[Note]], semitones: Double) -> [ToneWave.Tone] {
        melody.joined().map { note in
            ToneWave.Tone(
                hertz: ToneWave.hertz(midi: Double(note.pitch + 60) + semitones), start: seconds(ofBeat: note.beat),
                duration: seconds(ofBeat: note.beat + note.length) - seconds(ofBeat: note.beat))
        }
    }

    /// How long the audio lasts: the last note's end and a second.
    static var audioSeconds: Double { seconds(ofBeat: 214) + 1 }

    /// The JSON summary `--score-out` wrote.
    struct Summary: Decodable {
        struct Singer: Decodable {
            var part: String?
            var score: Int
            var rating: String
        }
        var finished: Bool
        var pitchFramesPerSecond: Double
        var singers: [Singer]
    }

    /// Plays `song.txt` in `folder` with `--score` and the extra arguments until its score card, answers it, and
    /// returns the summary and the card's screen.
    static func play(
        in folder: URL, server: PulseAudioServer, arguments: String
    ) throws -> (summary: Summary, card: [String], midSong: [String]) {
        let out = folder.appendingPathComponent("score.json").path
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)/song.txt' --score --score-out '\(out)' "
                + "--no-countdown --mpv-option ao=pulse \(arguments)",
            environment: server.environment)
        // Mid-song: the lanes' "now" column, and a bar filled in once a beat is judged a hit (or the card, if the
        // song is over first).
        let midSong = try session.waitFor(timeout: audioSeconds + 10) { screen in
            screen.contains { $0.contains("█") || $0.contains("song over") }
        }
        let card = try session.waitFor(timeout: audioSeconds + 20) { $0.contains { $0.contains("song over") } }
        #expect(card.contains { $0.contains("song over") }, "no score card: \(card.joined(separator: "\n"))")
        try session.send("Space")
        #expect(try session.exitStatus(timeout: 5) == 0)
        let summary = try JSONDecoder().decode(Summary.self, from: Data(contentsOf: URL(fileURLWithPath: out)))
        return (summary, card, midSong)
    }

    /// A folder with the song and its tones moved by `semitones` (nil: silence).
    static func makeSong(semitones: Double?) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            try songText([melody], audio: "tones.wav").write(
                to: folder.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
            try ToneWave.write(
                semitones.map { tones(melody, semitones: $0) } ?? [], seconds: audioSeconds,
                to: folder.appendingPathComponent("tones.wav").path)
        }
    }

    @Test("tones on the notes score at least 9,000, with the delay karaoke calibrate measured", .runsAlone)
    func tonesOnTheNotesScoreHigh() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let folder = try Self.makeSong(semitones: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let calibration = try KaraokeProcess.run(
            ["calibrate", "--mic", PulseAudioServer.source, "--mpv-option", "ao=pulse"],
            environment: server.environment,
            timeout: 40)
        #expect(calibration.status == 0, "\(calibration.stderr)")
        let delay =
            calibration.stdout.split(separator: "\n").first { $0.hasPrefix("use: ") }
            .flatMap { $0.split(separator: " ").last }.flatMap { Int($0) } ?? 0
        let (summary, card, midSong) = try Self.play(
            in: folder, server: server, arguments: "--mic \(PulseAudioServer.source) --mic-delay \(delay)")
        #expect(
            midSong.contains { $0.contains("│") } && midSong.contains { $0.contains("█") },
            "\(midSong.joined(separator: "\n"))")
        #expect(midSong.contains { $0.contains("♪") }, "\(midSong.joined(separator: "\n"))")
        let score = try #require(summary.singers.first?.score)
        realTimeBound {
            #expect(score >= 9_000, "scored \(score) with --mic-delay \(delay)")
            #expect(summary.pitchFramesPerSecond >= 40)
        }
        #expect(summary.finished)
        #expect(
            card.contains {
                $0.contains(score.formatted(.number.grouping(.automatic).locale(Locale(identifier: "en_US"))))
            })
        print("scoring: on the notes \(score), mic delay \(delay) ms, \(summary.pitchFramesPerSecond) pitch frames/s")
    }

    @Test(
        "the same tones an octave up or down score as high: the pitch is folded into the note's octave",
        .retriedAlone, arguments: [12.0, -12.0])
    func anOctaveAwayScoresTheSame(semitones: Double) throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let folder = try Self.makeSong(semitones: semitones)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, _, _) = try Self.play(
            in: folder, server: server, arguments: "--mic \(PulseAudioServer.source) --mic-delay 0")
        let score = try #require(summary.singers.first?.score)
        realTimeBound { #expect(score >= 9_000, "scored \(score) an octave away (\(semitones))") }
        print("scoring: \(semitones > 0 ? "an octave up" : "an octave down") \(score)")
    }

    @Test("tones a tritone off score near nothing, on every difficulty", arguments: ["easy", "hard"])
    func aTritoneOffScoresNearNothing(difficulty: String) throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let folder = try Self.makeSong(semitones: 6)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, _, _) = try Self.play(
            in: folder, server: server,
            arguments: "--mic \(PulseAudioServer.source) --mic-delay 0 --difficulty \(difficulty)")
        let score = try #require(summary.singers.first?.score)
        #expect(score < 500, "scored \(score) a tritone off on \(difficulty)")
        print("scoring: a tritone off, \(difficulty): \(score)")
    }

    @Test("silence scores 0")
    func silenceScoresNothing() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        let folder = try Self.makeSong(semitones: nil)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, card, _) = try Self.play(
            in: folder, server: server, arguments: "--mic \(PulseAudioServer.source)")
        #expect(summary.singers.map(\.score) == [0])
        #expect(card.contains { $0.contains("0 points") })
    }
}

extension ScoringTests {
    /// P2 of the duet: a third above P1 (an octave-free harmony), sung at the same time.
    static var harmony: [[Note]] {
        melody.map { line in
            line.map {
                Note(beat: $0.beat, length: $0.length, pitch: $0.pitch + 4, kind: $0.kind, syllable: $0.syllable)
            }
        }
    }

    /// A duet folder: P1's tones on the left channel, P2's on the right, both at once.
    static func makeDuet() throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            try songText([melody, harmony], audio: "tones.wav").write(
                to: folder.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
            try ToneWave.write(
                channels: [tones(melody, semitones: 0), tones(harmony, semitones: 0)], seconds: audioSeconds,
                to: folder.appendingPathComponent("tones.wav").path)
        }
    }

    /// Two microphones from the one sink: its monitor's left channel as source `left`, its right as `right`.
    static func splitMonitor(_ server: PulseAudioServer) throws {
        for (name, channel) in [("left", "front-left"), ("right", "front-right")] {
            let result = try server.run(
                "pactl",
                [
                    "load-module", "module-remap-source", "master=\(PulseAudioServer.source)", "source_name=\(name)",
                    "channels=1", "master_channel_map=\(channel)", "channel_map=mono",
                ])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }

    @Test("a duet scores each part from its own microphone, and swapping them scores neither")
    func aDuetScoresEachPartFromItsOwnMicrophone() throws {
        let server = try PulseAudioServer()
        defer { server.stop() }
        try Self.splitMonitor(server)
        let folder = try Self.makeDuet()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (summary, card, _) = try Self.play(
            in: folder, server: server, arguments: "--mic P1=left --mic P2=right --mic-delay 0")
        #expect(summary.singers.map(\.part) == ["P1", "P2"])
        realTimeBound {
            for singer in summary.singers {
                #expect(singer.score >= 9_000, "\(singer.part ?? "?") scored \(singer.score)")
            }
        }
        #expect(card.contains { $0.contains("P1") } && card.contains { $0.contains("P2") })
        let (swapped, _, _) = try Self.play(
            in: folder, server: server, arguments: "--mic P1=right --mic P2=left --mic-delay 0")
        // A third off is outside medium's semitone: each singer sings the other's notes.
        for singer in swapped.singers {
            #expect(singer.score < 1_000, "\(singer.part ?? "?") scored \(singer.score) swapped")
        }
        print("scoring: duet \(summary.singers.map(\.score)), swapped \(swapped.singers.map(\.score))")
    }

    @Test("without a PulseAudio server the song plays on unscored, with a notice")
    func withoutAServerTheSongPlaysOn() throws {
        let folder = try Self.makeSong(semitones: 0)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)/song.txt' --score --no-audio --no-countdown",
            environment: ["PULSE_SERVER": "unix:\(folder.path)/no-such-socket"])
        let screen = try session.waitFor { $0.contains { $0.contains("not scoring: no PulseAudio server") } }
        #expect(
            screen.contains { $0.contains("not scoring: no PulseAudio server") }, "\(screen.joined(separator: "\n"))")
        #expect(try session.waitFor { $0.contains { $0.contains("Lan") } }.contains { $0.contains("Lan") })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a song without notes plays on unscored, with a notice")
    func aSongWithoutNotesPlaysOn() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[00:01.00]a line with no notes\n[00:30.00]another\n".write(
            to: folder.appendingPathComponent("plain.lrc"), atomically: true, encoding: .utf8)
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)/plain.lrc' --score --no-audio")
        let screen = try session.waitFor { $0.contains { $0.contains("not scoring: no notes") } }
        #expect(
            screen.contains { $0.contains("not scoring: no notes (UltraStar and MIDI have them)") },
            "\(screen.joined(separator: "\n"))")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }
}
