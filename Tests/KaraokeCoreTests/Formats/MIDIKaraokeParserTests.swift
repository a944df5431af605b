import Testing

@testable import KaraokeCore

/// MIDI karaoke (`.kar`, `.mid`): files made by our own writer, read back through `MIDIKaraokeParser`.
@Suite("MIDI karaoke files")
struct MIDIKaraokeParserTests {
    /// The result of reading `writer`'s file.
    func parse(_ writer: MIDIWriter, encoding: String? = nil) -> ParseResult {
        MIDIKaraokeParser.parse(writer.bytes(), file: "song.kar", encoding: encoding)
    }

    /// The song of `writer`'s file, required.
    func song(_ writer: MIDIWriter, encoding: String? = nil) throws -> Song {
        let result = parse(writer, encoding: encoding)
        return try #require(result.song, "\(result.diagnostics)")
    }

    /// A format 1 file: a conductor track with `tempos`, then `words`.
    func file(tempos: [(Int, Int)] = [], _ words: MIDIWriter.Track, division: Int = 480) -> MIDIWriter {
        var conductor = MIDIWriter.Track()
        for (tick, tempo) in tempos { conductor.tempo(tick, tempo) }
        return MIDIWriter(format: 1, division: division, tracks: [conductor, words])
    }

    // MARK: Times

    /// A case of the tick arithmetic: a division, tempo changes, a tick, and its time worked out by hand.
    struct TimeCase: CustomTestStringConvertible, Sendable {
        var name: String
        var division: Int
        var tempos: [(tick: Int, microseconds: Int)]
        var tick: Int
        var milliseconds: Int
        var testDescription: String { name }
    }

    static let timeCases: [TimeCase] = [
        // 500,000 µs a quarter until the first change: 480 ticks at 480 PPQ are 500 ms.
        TimeCase(name: "the default tempo", division: 480, tempos: [], tick: 480, milliseconds: 500),
        // 960 ticks at 500,000 (1000 ms), then 480 at 250,000 (250 ms).
        TimeCase(name: "after a faster tempo", division: 480, tempos: [(960, 250_000)], tick: 1440, milliseconds: 1250),
        // 100 × 500,000 / 480 = 104,166.67 µs, then 480 × 333,333 / 480 = 333,333 µs: 437,499.67 µs.
        TimeCase(
            name: "a change off the beat, rounded down", division: 480, tempos: [(100, 333_333)], tick: 580,
            milliseconds: 437),
        // 1 × 600,000 / 96 = 6,250 µs: 6.25 ms.
        TimeCase(name: "a quarter millisecond", division: 96, tempos: [(0, 600_000)], tick: 1, milliseconds: 6),
        // 2 × 600,000 / 96 = 12,500 µs: a half rounds up.
        TimeCase(name: "a half millisecond rounds up", division: 96, tempos: [(0, 600_000)], tick: 2, milliseconds: 13),
        // Three changes: 480 at 500,000 (500 ms), 480 at 1,000,000 (1000 ms), 240 at 400,000 (200 ms).
        TimeCase(
            name: "three segments", division: 480, tempos: [(480, 1_000_000), (960, 400_000)], tick: 1200,
            milliseconds: 1700),
        // Two changes on one tick: the later holds (300,000: 480 ticks are 300 ms after the first 500).
        TimeCase(
            name: "the later of two changes on one tick", division: 480, tempos: [(480, 2_000_000), (480, 300_000)],
            tick: 960, milliseconds: 800),
        // A long song: 1,000,000 ticks at 480 PPQ and 500,000 µs: 1,041,666.67 ms.
        TimeCase(name: "a long way in", division: 480, tempos: [], tick: 1_000_000, milliseconds: 1_041_667),
        // SMPTE 25 frames a second, 40 ticks a frame: a tick is a millisecond, whatever the tempo says.
        TimeCase(
            name: "SMPTE 25 frames", division: 0xE7 << 8 | 40, tempos: [(0, 250_000)], tick: 1234, milliseconds: 1234),
        // SMPTE 29.97 (-29), 80 ticks a frame: 2400 ticks are 30 frames, 30 × 1001 / 30 ms.
        TimeCase(name: "SMPTE 29.97 frames", division: 0xE3 << 8 | 80, tempos: [], tick: 2400, milliseconds: 1001),
    ]

    @Test("times follow the tempo map to the millisecond", arguments: timeCases)
    func tickArithmetic(_ time: TimeCase) throws {
        var conductor = MIDIWriter.Track()
        for change in time.tempos { conductor.tempo(change.tick, change.microseconds) }
        var words = MIDIWriter.Track()
        words.lyric(0, "one ")
        words.lyric(time.tick, "two")
        let song = try song(MIDIWriter(format: 1, division: time.division, tracks: [conductor, words]))
        let line = try #require(song.lines.first)
        #expect(line.segments.map(\.start) == [0, time.milliseconds])
    }

    @Test("tempo changes on any track apply to every track")
    func tempoOnAnotherTrack() throws {
        var words = MIDIWriter.Track()
        words.lyric(0, "a ")
        words.lyric(960, "b")
        var other = MIDIWriter.Track()
        other.tempo(480, 250_000)
        let song = try song(MIDIWriter(format: 1, division: 480, tracks: [MIDIWriter.Track(), words, other]))
        // 480 ticks at 500,000 µs and 480 at 250,000.
        #expect(song.lines[0].segments.map(\.start) == [0, 750])
    }

    @Test("a format 0 file holds tempo, lyrics and notes in its one track")
    func formatZero() throws {
        var track = MIDIWriter.Track()
        track.tempo(0, 1_000_000)
        track.lyric(0, "slow ")
        track.lyric(480, "song")
        let song = try song(MIDIWriter(format: 0, division: 480, tracks: [track]))
        #expect(song.lines[0].segments.map(\.start) == [0, 1000])
    }

    // MARK: Soft Karaoke

    /// A Soft Karaoke words track: header tags, then two paragraphs of syllables.
    static func softKaraoke() -> MIDIWriter.Track {
        var words = MIDIWriter.Track()
        words.name("Words")
        for (k, tag) in [
            "@KMIDI KARAOKE FILE", "@V0100", "@IMade by hand", "@LENGL", "@TLittle Star", "@TTraditional", "@TThird",
        ]
        .enumerated() {
            words.text(k, tag)
        }
        let syllables = [
            (480, "\\Twin"), (720, "kle "), (960, "twin"), (1200, "kle"), (1440, "/lit"), (1680, "tle "),
            (1920, "star"),
            (4800, "\\How "), (5040, "I"),
        ]
        for (tick, text) in syllables { words.text(tick, text) }
        return words
    }

    @Test("Soft Karaoke: @T gives title and artist, \\ a paragraph, / a line, spaces the words")
    func softKaraokeConventions() throws {
        let song = try song(file(Self.softKaraoke()))
        #expect(song.metadata.title == "Little Star")
        #expect(song.metadata.artist == "Traditional")
        #expect(song.lines.map(\.text) == ["Twinkle twinkle", "little star", "How I"])
        #expect(song.lines[0].segments.map(\.text) == ["Twin", "kle ", "twin", "kle"])
        // 240 ticks are 250 ms at the default tempo.
        #expect(song.lines[0].segments.map(\.start) == [500, 750, 1000, 1250])
        #expect(song.lines[0].segments.map(\.end) == [750, 1000, 1250, 1500])
        // In a paragraph a line lasts to the next; the last of a paragraph ends with its last syllable, which
        // lasts at most 2 s.
        #expect(song.lines[0].end == 1500)
        #expect(song.lines[1].segments.last?.end == 2000 + 2000)
        #expect(song.lines[1].end == 4000)
        #expect(song.lines[2].segments.map(\.text) == ["How ", "I"])
        #expect(song.lines[2].end == 5250 + 2000)
        #expect(song.lines[2].endIsEstimated)
        #expect(song.wordTimedLineCount == 3)
    }

    // MARK: RP-017 lyric events

    @Test("lyric events: spaces end words, CR a line, LF a paragraph, / and \\ as in Soft Karaoke")
    func lyricEventConventions() throws {
        var words = MIDIWriter.Track()
        let syllables = [
            (0, "Hel"), (240, "lo"), (480, " world\r"), (960, "a"), (1200, "gain\n"), (1920, "/one "), (2160, "more"),
            (2400, "\\last\r\n"), (2640, "word"),
        ]
        for (tick, text) in syllables { words.lyric(tick, text) }
        let song = try song(file(words))
        #expect(song.lines.map(\.text) == ["Hello world", "again", "one more", "last", "word"])
        #expect(song.lines[0].segments.map(\.text) == ["Hel", "lo ", "world"])
        // "again" ends a paragraph: its line ends with its last syllable, 2 s at most after it starts… or at the
        // next line's start when that is sooner.
        #expect(song.lines[1].segments.last?.end == 2000)
        #expect(song.lines[1].end == 2000)
    }

    @Test("empty and NUL-padded events neither end a word nor show; a space-only event ends one")
    func emptyEvents() throws {
        var words = MIDIWriter.Track()
        let syllables = [(0, "Hel"), (120, ""), (240, "\u{0}\u{0}"), (360, "lo\u{0}"), (480, " "), (600, "you")]
        for (tick, text) in syllables { words.lyric(tick, text) }
        let song = try song(file(words))
        #expect(song.lines.map(\.text) == ["Hello you"])
        #expect(song.lines[0].segments.map(\.text) == ["Hel", "lo ", "you"])
    }

    @Test("lyric events win when a file has both kinds in quantity; a few lose to many text events")
    func conventionChoice() throws {
        var both = MIDIWriter.Track()
        for k in 0..<10 {
            both.text(k * 240, "t\(k) ")
            both.lyric(k * 240, "l\(k) ")
        }
        #expect(try song(file(both)).lines[0].text.hasPrefix("l0 l1"))
        var few = MIDIWriter.Track()
        for k in 0..<10 { few.text(k * 240, "t\(k) ") }
        few.lyric(0, "copyright ")
        few.lyric(240, "notice")
        #expect(try song(file(few)).lines[0].text.hasPrefix("t0 t1"))
        // Lyric events without any line break lose to text events that have them.
        var unbroken = MIDIWriter.Track()
        for k in 0..<10 {
            unbroken.text(k * 240, (k == 5 ? "/" : "") + "t\(k) ")
            unbroken.lyric(k * 240, "l\(k) ")
        }
        #expect(try song(file(unbroken)).lines.map(\.text) == ["t0 t1 t2 t3 t4", "t5 t6 t7 t8 t9"])
        // With a break of their own, they are read.
        unbroken.lyric(2400, "\\end")
        #expect(try song(file(unbroken)).lines.map(\.text) == ["l0 l1 l2 l3 l4 l5 l6 l7 l8 l9", "end"])
    }

    // MARK: Tracks

    @Test("the track named Words is the lyrics; without one, the track with the most text")
    func wordsTrackChoice() throws {
        var named = MIDIWriter.Track()
        named.name(" words ")
        named.text(0, "short")
        var long = MIDIWriter.Track()
        long.name("Melody")
        long.text(0, "a much longer text ")
        long.text(480, "on this track")
        let withName = try song(MIDIWriter(format: 1, tracks: [MIDIWriter.Track(), long, named]))
        #expect(withName.lines.map(\.text) == ["short"])
        var unnamed = named
        unnamed.events.removeFirst()
        let without = try song(MIDIWriter(format: 1, tracks: [MIDIWriter.Track(), unnamed, long]))
        #expect(without.lines.map(\.text) == ["a much longer text on this track"])
    }

    @Test("running status, sysex and unknown chunks are read past")
    func runningStatusAndSkips() throws {
        var plain = MIDIWriter.Track()
        var running = MIDIWriter.Track(runningStatus: true)
        for track in [0, 1] {
            var t = MIDIWriter.Track(runningStatus: track == 1)
            t.sysex(0, [0x7E, 0x7F, 0x09, 0x01, 0xF7])
            for k in 0..<8 {
                t.note(k * 240, 200, key: 60 + k, offAsVelocityZero: true)
                t.raw(k * 240, [0xB0, 7, 100])
            }
            t.lyric(0, "la ")
            t.lyric(960, "la")
            if track == 0 { plain = t } else { running = t }
        }
        let a = try song(MIDIWriter(format: 0, tracks: [plain]))
        let b = try song(MIDIWriter(format: 0, tracks: [running]))
        #expect(a == b)
        #expect(
            MIDIWriter(format: 0, tracks: [running]).bytes().count
                < MIDIWriter(format: 0, tracks: [plain]).bytes().count)
        // An unknown chunk between the header and the track.
        var bytes = MIDIWriter(format: 0, tracks: [plain]).bytes()
        bytes.insert(contentsOf: Array("XFIH".utf8) + MIDIWriter.bigEndian(5, 4) + [1, 2, 3, 4, 5], at: 14)
        let result = MIDIKaraokeParser.parse(bytes, file: "x.kar")
        #expect(result.song == a)
        #expect(result.diagnostics.isEmpty)
    }

    // MARK: Encodings

    @Test("CP1252 lyrics are guessed with a warning, and --encoding names another")
    func legacyEncodings() throws {
        var words = MIDIWriter.Track()
        words.text(0, bytes: Array("\\Caf".utf8) + [0xE9, 0x20])
        words.text(240, bytes: Array("ol".utf8) + [0xE9, 0x20])
        words.text(480, bytes: Array("/na".utf8) + [0xEF, 0x76, 0x65])
        let result = parse(file(words))
        #expect(try #require(result.song).lines.map(\.text) == ["Café olé", "naïve"])
        #expect(
            result.diagnostics.map(\.message) == [
                "not UTF-8; read as CP1252, a guess (--encoding NAME chooses another)"
            ])
        let cyrillic = try song(file(words), encoding: "CP1251")
        #expect(cyrillic.lines[0].text == "Cafй olй")
    }

    @Test("UTF-8 lyrics and titles are read as they are")
    func utf8Lyrics() throws {
        var words = MIDIWriter.Track()
        words.text(0, "@Tさくら")
        words.lyric(0, "さ")
        words.lyric(240, "く")
        words.lyric(480, "ら")
        let result = parse(file(words))
        #expect(result.diagnostics.isEmpty)
        #expect(try #require(result.song).lines[0].text == "さくら")
        #expect(result.song?.metadata.title == "さくら")
    }

    // MARK: Melody

    /// A song whose syllables fall every 480 ticks (500 ms), with the melody on `melodyChannel`, a busy
    /// accompaniment on channel 1 (a note every 120 ticks), and drums on channel 10 on every syllable.
    static func songWithMelody(melodyChannel: Int = 2, melodyOnOwnTrack: Bool = true) -> MIDIWriter {
        var words = MIDIWriter.Track()
        words.name("Words")
        var melody = MIDIWriter.Track()
        var band = MIDIWriter.Track()
        for k in 0..<8 {
            words.text(480 + k * 480, (k == 4 ? "/" : "") + "la\(k) ")
            melody.note(480 + k * 480, 400, key: 64 + k, channel: melodyChannel)
            band.note(480 + k * 480, 100, key: 36, channel: 9)
        }
        // A chord on the melody channel: its highest note is the melody.
        melody.note(480, 400, key: 55, channel: melodyChannel)
        // An instrumental lead-in on the melody channel, before the first line: not scored.
        melody.note(0, 200, key: 70, channel: melodyChannel)
        for k in 0..<40 { band.note(k * 120, 100, key: 48 + k % 12, channel: 1) }
        var tracks = [MIDIWriter.Track(), words, band]
        if melodyOnOwnTrack {
            tracks.append(melody)
        } else {
            tracks[2].events += melody.events
        }
        return MIDIWriter(format: 1, division: 480, tracks: tracks)
    }

    @Test("the melody is the channel whose notes start with the syllables, never the drums", arguments: [0, 2, 11])
    func melodyChannel(channel: Int) throws {
        let song = try song(Self.songWithMelody(melodyChannel: channel))
        #expect(song.melodyChannel == channel)
        let track = try #require(song.notes)
        #expect(track.millisecondsPerBeat == 25)
        #expect(track.lines.count == 2)
        let notes = track.lines.flatMap(\.notes)
        // Eight notes, one a syllable: the chord's lower note and the lead-in are left out.
        #expect(notes.map(\.midiNote) == Array(64..<72))
        // 480 ticks are 500 ms: 20 beats of 25 ms; 400 ticks are 416.67 ms, 17 beats (rounded ends).
        #expect(notes.map(\.beat) == (0..<8).map { 20 + $0 * 20 })
        #expect(notes.first?.length == 17)
        #expect(notes.first?.syllable == "la0 ")
        #expect(track.lines[0].notes.count == 4)
    }

    @Test("a melody on the same track as other channels is still found")
    func melodySharingATrack() throws {
        let song = try song(Self.songWithMelody(melodyChannel: 5, melodyOnOwnTrack: false))
        #expect(song.melodyChannel == 5)
    }

    @Test("a file whose music does not follow its lyrics has no notes and no melody channel")
    func noMelody() throws {
        var words = MIDIWriter.Track()
        var music = MIDIWriter.Track()
        for k in 0..<6 {
            words.lyric(480 + k * 960, "la ")
            music.note(480 + k * 960 + 240, 100, key: 60, channel: 3)
        }
        let song = try song(file(words))
        #expect(song.notes == nil && song.melodyChannel == nil)
        let offBeat = try self.song(MIDIWriter(format: 1, tracks: [MIDIWriter.Track(), words, music]))
        #expect(offBeat.notes == nil && offBeat.melodyChannel == nil)
    }

    @Test("the melody draws note lanes and scores like an UltraStar song: on pitch is 10,000, silence 0")
    func melodyScores() throws {
        let song = try song(Self.songWithMelody())
        let track = try #require(song.notes)
        var composer = FrameComposer(
            song: song, fallbackTitle: "song.kar", columns: 80, rows: 24, options: FrameOptions(),
            lanes: NoteLanes(track: track, parts: [nil]))
        let frame = composer.frame(at: 1.2)
        #expect(frame.rows.contains { $0.kind == .lanes })
        var sung = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        var silent = ScoreKeeper(track: track, part: nil, difficulty: .hard)
        // A frame every 10 ms on the note sounding then.
        let notes = track.lines.flatMap(\.notes)
        for time in stride(from: 0.0, through: 7000, by: 10) {
            let beat = Int(time / track.millisecondsPerBeat)
            let note = notes.last { $0.beat <= beat && beat < $0.beat + $0.length }
            sung.hear(PitchFrame(time: time, midi: note.map { Double($0.midiNote) }, level: -20))
            silent.hear(PitchFrame(time: time, midi: nil, level: -90))
        }
        sung.judge(through: 9000)
        silent.judge(through: 9000)
        #expect(sung.isFinished)
        #expect(sung.progress.points.total == 10_000)
        #expect(silent.progress.points.total == 0)
    }

    // MARK: Detection

    @Test("MIDI is found by its MThd magic and by .kar, .mid and .midi, never by a text file's name alone")
    func detection() {
        let bytes = Self.songWithMelody().bytes()
        #expect(LyricFormat.detect(utf8: bytes, fileName: "song.txt") == .midi)
        #expect(LyricFormat.isMIDI(bytes: bytes, fileName: "song"))
        for name in ["a.kar", "b.MID", "c.midi"] { #expect(LyricFormat.byExtension(of: name) == .midi) }
        #expect(LyricFormat.isMIDI(bytes: Array("garbage".utf8), fileName: "a.kar"))
        #expect(!LyricFormat.isMIDI(bytes: Array("[00:01.00]la\n".utf8), fileName: "a.kar"))
        #expect(LyricFormat.midi.displayName == "MIDI karaoke")
        #expect(LyricsReader.parse(bytes, file: "x").song?.lines.count == 2)
    }

    @Test("a RIFF MIDI file is read through its data chunk")
    func riffMIDI() throws {
        let inner = Self.songWithMelody().bytes()
        let size = MIDIWriter.bigEndian(inner.count, 4).reversed()
        let riffSize = MIDIWriter.bigEndian(inner.count + 12, 4).reversed()
        let bytes = Array("RIFF".utf8) + riffSize + Array("RMIDdata".utf8) + size + inner
        let result = MIDIKaraokeParser.parse(bytes, file: "x.rmi")
        #expect(result.song?.lines.count == 2)
    }
}
