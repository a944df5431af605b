import Foundation
import Testing
@testable import KaraokeCore

// MARK: - Round-trip tools

/// Reading, writing and comparing songs for the writer tests.
enum RoundTrip {
    /// The file extension a target is read back by.
    static func fileName(_ target: LyricWriter.Target) -> String {
        switch target {
        case .lrc, .elrc: return "x.lrc"
        case .srt: return "x.srt"
        case .vtt: return "x.vtt"
        }
    }

    /// Reads `text` as karaoke does for a file named `file`, checking the song's invariants.
    static func read(_ text: String, file: String, sourceLocation: SourceLocation = #_sourceLocation) -> ParseResult {
        let result = LyricsReader.parse(Array(text.utf8), file: file)
        if let song = result.song { expectInvariants(song, file, sourceLocation: sourceLocation) }
        return result
    }

    /// Writes `song` in `target` and reads it back: the written text, the warnings and the song read.
    static func trip(_ song: Song, _ target: LyricWriter.Target,
                     sourceLocation: SourceLocation = #_sourceLocation) throws -> (text: String, warnings: [String], song: Song) {
        let written = LyricWriter.write(song, to: target)
        let result = read(written.text, file: fileName(target), sourceLocation: sourceLocation)
        let back = try #require(result.song, "\(target): no song from\n\(written.text)", sourceLocation: sourceLocation)
        // What the writer writes, its reader reads without a complaint.
        #expect(result.diagnostics.isEmpty, "\(target): \(result.diagnostics)", sourceLocation: sourceLocation)
        return (written.text, written.warnings, back)
    }

    /// The song's invariants: starts in order, text shown trimmed and not empty, ends not before starts,
    /// and word segments that concatenate exactly to the text, in order, inside their line.
    static func expectInvariants(_ song: Song, _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!song.lines.isEmpty, "\(name)", sourceLocation: sourceLocation)
        for (earlier, later) in zip(song.lines, song.lines.dropFirst()) {
            #expect(earlier.start <= later.start, "\(name): lines out of order", sourceLocation: sourceLocation)
        }
        for line in song.lines {
            let label = "\(name): \(line.text.debugDescription)"
            #expect(!line.text.isEmpty, "\(label)", sourceLocation: sourceLocation)
            #expect(line.end >= line.start, "\(label)", sourceLocation: sourceLocation)
            #expect(line.text == line.text.trimmingCharacters(in: .whitespaces), "\(label)", sourceLocation: sourceLocation)
            guard line.isWordTimed else { continue }
            #expect(line.segments.map(\.text).joined() == line.text, "\(label)", sourceLocation: sourceLocation)
            #expect(line.segments.allSatisfy { !$0.text.isEmpty && $0.start <= $0.end }, "\(label)", sourceLocation: sourceLocation)
            #expect(line.segments[0].start >= line.start, "\(label)", sourceLocation: sourceLocation)
            #expect(line.segments[line.segments.count - 1].end <= line.end, "\(label)", sourceLocation: sourceLocation)
            for (earlier, later) in zip(line.segments, line.segments.dropFirst()) {
                #expect(earlier.end <= later.start, "\(label): segments overlap", sourceLocation: sourceLocation)
            }
        }
    }

    /// `text` without the word joiners the writers put in to keep text from reading as markup.
    static func unescaped(_ text: String) -> String { text.replacingOccurrences(of: LyricWriter.wordJoiner, with: "") }

    /// A time rounded to the centisecond, as LRC holds it.
    static func centi(_ milliseconds: Int) -> Int { (max(0, milliseconds) + 5) / 10 * 10 }

    /// Voices renumbered by first appearance, as readers number them, so two songs compare by who sings what.
    static func voicePattern(_ song: Song) -> [Int?] {
        var numbers: [Voice: Int] = [:]
        return song.lines.map { line in
            guard let voice = line.voice else { return nil }
            if let number = numbers[voice] { return number }
            numbers[voice] = numbers.count
            return numbers.count - 1
        }
    }

    /// Expects `back` (read from `target`) to be `song` as the target holds it: the same texts and times
    /// (to the centisecond for LRC, the millisecond for subtitles, the offset applied there), word
    /// segments for elrc and vtt, translations for LRC, singers for vtt.
    ///
    /// `exactLastEnd` says whether an estimated last end comes back the same (true when LRC made it).
    static func expectSame(_ song: Song, _ back: Song, _ target: LyricWriter.Target, exactLastEnd: Bool = true,
                           _ name: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let label = "\(name) → \(target)"
        guard back.lines.count == song.lines.count else {
            Issue.record("\(label): \(song.lines.count) lines became \(back.lines.count)", sourceLocation: sourceLocation)
            return
        }
        let lrc = target == .lrc || target == .elrc
        let offset = lrc ? 0 : song.metadata.offset
        for (index, (line, read)) in zip(song.lines, back.lines).enumerated() {
            let here = "\(label) line \(index) \(line.text.debugDescription)"
            let start = lrc ? max(centi(line.start), index > 0 ? back.lines[index - 1].start + 10 : 0) : max(0, line.start - offset)
            #expect(read.start == start, "\(here)", sourceLocation: sourceLocation)
            if lrc {
                let next = index + 1 < back.lines.count ? back.lines[index + 1].start : nil
                if let next {
                    #expect(read.end == min(max(centi(line.end), start + 10), next), "\(here)", sourceLocation: sourceLocation)
                } else if !line.endIsEstimated {
                    #expect(read.end == max(centi(line.end), start + 10), "\(here)", sourceLocation: sourceLocation)
                } else if exactLastEnd {
                    #expect(read.end == line.end && read.endIsEstimated, "\(here)", sourceLocation: sourceLocation)
                }
                #expect(read.translations.map(unescaped) == line.translations, "\(here)", sourceLocation: sourceLocation)
                #expect(unescaped(read.text) == line.text, "\(here)", sourceLocation: sourceLocation)
            } else {
                #expect(read.end == max(0, line.end - offset), "\(here)", sourceLocation: sourceLocation)
                let shown = ([line.text] + line.translations).joined(separator: " ")
                #expect(unescaped(read.text) == shown, "\(here)", sourceLocation: sourceLocation)
            }
            let keepsWords = target == .elrc || (target == .vtt && line.translations.isEmpty)
            if keepsWords {
                #expect(read.segments.map { unescaped($0.text) } == line.segments.map(\.text), "\(here)",
                        sourceLocation: sourceLocation)
                if target == .vtt {
                    #expect(read.segments.map(\.start) == line.segments.map { max(0, $0.start - offset) }, "\(here)",
                            sourceLocation: sourceLocation)
                    #expect(read.segments.map(\.end) == line.segments.map { max(0, $0.end - offset) }, "\(here)",
                            sourceLocation: sourceLocation)
                } else if read.end == centi(line.end) || (index == song.lines.count - 1 && exactLastEnd) {
                    // Inside a line whose end survived, every segment keeps its times to the centisecond.
                    #expect(read.segments.map(\.start) == line.segments.map { centi($0.start) }, "\(here)",
                            sourceLocation: sourceLocation)
                    #expect(read.segments.map(\.end) == line.segments.map { centi($0.end) }, "\(here)",
                            sourceLocation: sourceLocation)
                }
            } else if target != .vtt {
                // vtt with translations keeps word timing, but the translation joins the last word.
                #expect(!read.isWordTimed, "\(here)", sourceLocation: sourceLocation)
            }
            if target == .vtt { continue }
            #expect(read.voice == nil, "\(here)", sourceLocation: sourceLocation)
        }
        if target == .vtt {
            #expect(voicePattern(back) == voicePattern(song), "\(label)", sourceLocation: sourceLocation)
        }
        if lrc {
            let (a, b) = (song.metadata, back.metadata)
            #expect([a.title, a.artist, a.album, a.author, a.creator] == [b.title, b.artist, b.album, b.author, b.creator],
                    "\(label)", sourceLocation: sourceLocation)
            #expect(a.length.map(centi) == b.length && a.offset == b.offset, "\(label)", sourceLocation: sourceLocation)
        } else if target == .vtt || target == .srt {
            #expect(back.metadata.offset == 0, "\(label)", sourceLocation: sourceLocation)
        }
    }
}

// MARK: - Fixtures of every input format (our own text)

/// One small song in each format karaoke reads, written for these tests, with the warnings each target
/// must give for it.
struct WriterFixture: CustomTestStringConvertible, Sendable {
    var name: String
    var file: String
    var text: String
    /// The exact warnings per target; a target missing here must give none.
    var warnings: [LyricWriter.Target: [String]]

    var testDescription: String { name }

    /// The song the fixture reads to.
    func song(sourceLocation: SourceLocation = #_sourceLocation) throws -> Song {
        let result = RoundTrip.read(text, file: file, sourceLocation: sourceLocation)
        return try #require(result.song, "\(name): \(result.diagnostics)", sourceLocation: sourceLocation)
    }

    static let all: [WriterFixture] = [lrc, elrc, srt, vtt, ultraStar, ass, ttml]

    // Metadata, translations, an end marker for a gap, an offset.
    static let lrc = WriterFixture(name: "LRC", file: "f.lrc", text: """
        [ti:Harbour Lights]
        [ar:The Night Ferries]
        [al:Tide Tables]
        [au:M. Keel]
        [by:a tester]
        [length:01:10.00]
        [offset:150]
        [00:01.00]Lanterns on the quay
        [00:01.00]Laternen am Kai
        [00:03.50]gulls asleep on the rope
        [00:06.00]
        [00:08.25]a bell across the water
        [61:02.57]and the long night after
        """, warnings: [
            .srt: [
                "1 line have translations, which srt cannot hold apart; they become part of the cue's text",
                "the offset of 150 ms is applied to the times, as srt has no offset tag",
                "srt has no metadata; dropped: title, artist, album, author, creator (by), length",
            ],
            .vtt: [
                "1 line have translations, which vtt cannot hold apart; they become part of the cue's text",
                "the offset of 150 ms is applied to the times, as vtt has no offset tag",
                "vtt keeps only the title and artist, in a NOTE; dropped: album, author, creator (by), length",
            ],
        ])

    // Word tags with a gap between two words (an empty stretch), an open last segment, a plain line.
    static let elrc = WriterFixture(name: "Enhanced LRC", file: "f.lrc", text: """
        [ti:Small Hours]
        [00:02.00]<00:02.00>Kettle <00:02.60>on <00:03.10>the <00:03.40>stove<00:04.00>
        [00:05.00]<00:05.00>steam <00:05.50>and <00:06.00><00:06.20>quiet
        [00:09.00]morning comes
        [00:11.00]<00:11.30>last <00:11.80>words
        """, warnings: [
            .lrc: ["3 lines lost word timing, which lrc cannot hold; convert to elrc to keep it"],
            .srt: [
                "3 lines lost word timing, which srt cannot hold; convert to vtt or elrc to keep it",
                "srt has no metadata; dropped: title",
            ],
        ])

    // Gaps, a cue overlapping the next (a duet), a cue of two text lines, milliseconds.
    static let srt = WriterFixture(name: "SRT", file: "f.srt", text: """
        1
        00:00:01,000 --> 00:00:02,500
        paper boats

        2
        00:00:04,000 --> 00:00:07,000
        sail at dawn

        3
        00:00:06,000 --> 00:00:08,123
        over the weir
        and away
        """, warnings: [
            .lrc: ["1 line overlap the line after them; lrc ends a line where the next one starts, so they end earlier"],
            .elrc: ["1 line overlap the line after them; elrc ends a line where the next one starts, so they end earlier"],
        ])

    // Inline timestamps, singers, entities.
    static let vtt = WriterFixture(name: "WebVTT", file: "f.vtt", text: """
        WEBVTT

        00:00:01.000 --> 00:00:04.000
        <v Ann>one <00:00:01.500>two <00:00:02.250>three &amp; more

        00:00:05.000 --> 00:00:07.000
        <v Ben>four <00:00:06.000>five

        00:00:08.000 --> 00:00:09.000
        <v Ann>six &lt;3
        """, warnings: [
            .lrc: [
                "2 lines lost word timing, which lrc cannot hold; convert to elrc to keep it",
                "3 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written",
            ],
            .elrc: ["3 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written"],
            .srt: [
                "2 lines lost word timing, which srt cannot hold; convert to vtt or elrc to keep it",
                "3 lines lost their singer, which srt cannot hold; convert to vtt to keep it",
            ],
        ])

    // Notes with rests between them (gaps inside a line), two parts, an audio file (one beat is 100 ms).
    static let ultraStar = WriterFixture(name: "UltraStar", file: "f.txt", text: """
        #TITLE:Rowing Song
        #ARTIST:Two Voices
        #MP3:rowing.ogg
        #BPM:150
        #GAP:1000
        P1
        : 0 4 0 Row
        : 6 3 0  the
        : 10 4 0  boat
        - 16
        : 20 4 0 gent
        : 24 4 0 ly
        P2
        : 40 4 0 down
        : 46 4 0  stream
        E
        """, warnings: [
            .lrc: [
                "3 lines lost word timing, which lrc cannot hold; convert to elrc to keep it",
                "3 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written",
                "lrc has no tag for the audio file; dropped",
            ],
            .elrc: [
                "3 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written",
                "elrc has no tag for the audio file; dropped",
            ],
            .srt: [
                "3 lines lost word timing, which srt cannot hold; convert to vtt or elrc to keep it",
                "3 lines lost their singer, which srt cannot hold; convert to vtt to keep it",
                "srt has no metadata; dropped: title, artist, audio file",
            ],
            .vtt: ["vtt keeps only the title and artist, in a NOTE; dropped: audio file"],
        ])

    // `\k` syllables and a plain dialogue line.
    static let ass = WriterFixture(name: "ASS", file: "f.ass", text: """
        [Script Info]
        Title: Oars
        ScriptType: v4.00+

        [Events]
        Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
        Dialogue: 0,0:00:01.00,0:00:03.00,Default,,0,0,0,,{\\k50}row {\\k50}the {\\k100}oars
        Dialogue: 0,0:00:04.00,0:00:05.50,Default,,0,0,0,,rest now
        """, warnings: [
            .lrc: ["1 line lost word timing, which lrc cannot hold; convert to elrc to keep it"],
            .srt: [
                "1 line lost word timing, which srt cannot hold; convert to vtt or elrc to keep it",
                "srt has no metadata; dropped: title",
            ],
        ])

    // Timed spans, agents, a translation.
    static let ttml = WriterFixture(name: "TTML", file: "f.ttml", text: """
        <?xml version="1.0" encoding="UTF-8"?>
        <tt xmlns="http://www.w3.org/ns/ttml" xmlns:ttm="http://www.w3.org/ns/ttml#metadata">
        <head><metadata>
          <ttm:title>Quiet Canal</ttm:title>
          <ttm:agent type="person" xml:id="v1"/>
          <ttm:agent type="person" xml:id="v2"/>
        </metadata></head>
        <body><div>
          <p begin="1s" end="3s" ttm:agent="v1"><span begin="1s" end="1.5s">still </span><span begin="1.75s" end="2.5s">water</span><span ttm:role="x-translation" xml:lang="de">stilles Wasser</span></p>
          <p begin="4s" end="5.2s" ttm:agent="v2">a heron waits</p>
        </div></body>
        </tt>
        """, warnings: [
            .lrc: [
                "1 line lost word timing, which lrc cannot hold; convert to elrc to keep it",
                "2 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written",
            ],
            .elrc: ["2 lines lost their singer: karaoke's LRC reader does not read voice markers, so they are not written"],
            .srt: [
                "1 line lost word timing, which srt cannot hold; convert to vtt or elrc to keep it",
                "2 lines lost their singer, which srt cannot hold; convert to vtt to keep it",
                "1 line have translations, which srt cannot hold apart; they become part of the cue's text",
                "srt has no metadata; dropped: title",
            ],
            .vtt: ["1 line have translations, which vtt cannot hold apart; they become part of the cue's text"],
        ])
}

/// Every fixture with every target.
private let fixtureCases: [(WriterFixture, LyricWriter.Target)] =
    WriterFixture.all.flatMap { fixture in LyricWriter.Target.allCases.map { (fixture, $0) } }

@Suite("Writers: round trips of every input format")
struct WriterRoundTripTests {
    @Test("format → model → target → model keeps times, texts, words, translations and singers",
          arguments: fixtureCases)
    func roundTrip(_ fixture: WriterFixture, _ target: LyricWriter.Target) throws {
        let song = try fixture.song()
        let trip = try RoundTrip.trip(song, target)
        RoundTrip.expectSame(song, trip.song, target, exactLastEnd: fixture.file.hasSuffix(".lrc"), fixture.name)
    }

    @Test("warnings appear exactly for what the target cannot hold", arguments: fixtureCases)
    func warnings(_ fixture: WriterFixture, _ target: LyricWriter.Target) throws {
        let song = try fixture.song()
        #expect(LyricWriter.write(song, to: target).warnings == fixture.warnings[target] ?? [])
    }

    @Test("lrc and elrc keep the translations", arguments: [LyricWriter.Target.lrc, .elrc])
    func translationsKept(_ target: LyricWriter.Target) throws {
        let song = try RoundTrip.trip(try WriterFixture.lrc.song(), target).song
        #expect(song.lines[0].translations == ["Laternen am Kai"])
        let fromTTML = try RoundTrip.trip(try WriterFixture.ttml.song(), target).song
        #expect(fromTTML.lines[0].translations == ["stilles Wasser"])
    }

    @Test("vtt keeps who sings each line", arguments: [WriterFixture.vtt, WriterFixture.ultraStar, WriterFixture.ttml])
    func singersKept(_ fixture: WriterFixture) throws {
        let song = try RoundTrip.trip(try fixture.song(), .vtt).song
        #expect(song.lines.map(\.voice) == (try fixture.song()).lines.map(\.voice))
    }

    @Test("every bundled song survives every target", arguments: Fixtures.bundledSongs.map(\.lastPathComponent),
          LyricWriter.Target.allCases)
    func bundledSongs(_ name: String, _ target: LyricWriter.Target) throws {
        let song = try Fixtures.song(name)
        RoundTrip.expectInvariants(song, name)
        let trip = try RoundTrip.trip(song, target)
        RoundTrip.expectSame(song, trip.song, target, name)
    }
}
