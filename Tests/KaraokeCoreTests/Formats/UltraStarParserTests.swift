import Foundation
import Testing
@testable import KaraokeCore

/// Parses UltraStar text given inline and checks the song's invariants on the way.
private func parseSong(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> Song {
    let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
    let song = try #require(result.song, "no song: \(result.diagnostics)", sourceLocation: sourceLocation)
    checkInvariants(song, sourceLocation: sourceLocation)
    return song
}

/// The invariants every parsed song keeps (see `expectSongInvariants`), with this reader's trimmed,
/// single-spaced text.
private func checkInvariants(_ song: Song, sourceLocation: SourceLocation = #_sourceLocation) {
    expectSongInvariants(song, promises: [.trimmed, .singleSpaced], sourceLocation: sourceLocation)
}

/// `(start, end, text)` of a line's segments, for compact comparisons.
private func spans(_ line: LyricLine) -> [TimedSpan] { line.segments.map { TimedSpan($0.start, $0.end, $0.text) } }

/// A song head that makes one beat 100 ms (BPM 150 counts quarter beats: 60000 / (150 × 4) = 100).
private let head = "#TITLE:Song\n#ARTIST:Singer\n#BPM:150\n#GAP:0\n"

@Suite("UltraStar header tags")
struct UltraStarHeaderTests {
    @Test("title, artist and the audio file are read")
    func basicTags() throws {
        let song = try parseSong("#TITLE:Paper Moon\n#ARTIST:The Folds\n#MP3:moon.ogg\n#BPM:150\n: 0 2 0 la\nE\n")
        #expect(song.metadata.title == "Paper Moon")
        #expect(song.metadata.artist == "The Folds")
        #expect(song.metadata.audioFile == "moon.ogg")
    }

    @Test(
        "tag names are read in any case and with spaces around name and value",
        arguments: ["#title:Paper Moon", "#Title:Paper Moon", "#TITLE  :  Paper Moon  ", "  #TiTlE:\tPaper Moon"])
    func tagNameCaseAndSpaces(_ line: String) throws {
        let song = try parseSong("\(line)\n#BPM:150\n: 0 2 0 la\n")
        #expect(song.metadata.title == "Paper Moon")
    }

    @Test(
        "#AUDIO wins over #MP3 whatever their order",
        arguments: [
            "#MP3:old.mp3\n#AUDIO:new.ogg\n", // 1.1 files may keep #MP3 for old players
            "#AUDIO:new.ogg\n#MP3:old.mp3\n",
        ])
    func audioWinsOverMP3(_ tags: String) throws {
        let song = try parseSong(tags + "#BPM:150\n: 0 2 0 la\n")
        #expect(song.metadata.audioFile == "new.ogg")
    }

    @Test("other tags are read past without a warning")
    func otherTagsAreSilent() {
        let text =
            head
            + "#VIDEO:v.mp4\n#COVER:c.jpg\n#MEDLEYSTARTBEAT:9\n#ENCODING:UTF8\n#LANGUAGE:\n#YEAR :  2022\n: 0 2 0 la\nE\n"
        let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
        #expect(result.song != nil)
        #expect(result.diagnostics.isEmpty)
    }

    @Test("a header without a tag name or without a colon is a warning at its start, and the song still plays")
    func headerWithoutName() throws {
        let marked = MarkedLyrics(head + "‸#:value\n  ‸#NOCOLON\n: 0 2 0 la\n")
        let result = UltraStarParser.parse(marked.bytes, file: "t.txt")
        #expect(result.diagnostics.map { LyricsPosition(line: $0.line, column: $0.column) } == marked.marks)
        #expect(result.diagnostics.first?.message == "header '#:value' has no tag name; line ignored")
        #expect(result.song?.lines.count == 1)
    }

    @Test(
        "a missing or unusable #BPM is a warning and the song plays at 300 bpm",
        arguments: ["", "#BPM:fast\n", "#BPM:0\n"])
    func missingBPM(_ bpmTag: String) throws {
        let result = UltraStarParser.parse(Array(("#TITLE:Song\n" + bpmTag + ": 4 2 0 la\n").utf8), file: "t.txt")
        let song = try #require(result.song)
        // 300 bpm: a beat is 60000 / 1200 = 50 ms.
        #expect(spans(song.lines[0]) == [TimedSpan(200, 300, "la")])
        #expect(result.diagnostics.contains { $0.message.contains("'#BPM'") })
    }
}

@Suite("UltraStar timing")
struct UltraStarTimingTests {
    /// Beat → time cases: time_ms = GAP + beat × 60000 / (BPM × 4).
    static let cases: [(bpm: String, gap: String, beat: Int, expected: Int)] = [
        ("150", "0", 10, 1000), // 100 ms a beat
        ("300", "0", 12, 600), // 50 ms a beat
        ("300", "1500", 12, 2100), // the gap comes first
        ("300,5", "0", 601, 30000), // a decimal comma: 601 × 60000 / 1202
        ("300.5", "0", 601, 30000), // and a decimal point
        ("  200  ", "   0,12 ", 4, 300), // spaces around numbers; 0.12 ms rounds away
        ("150", "-500", 10, 500), // a negative gap
    ]

    @Test("a beat's time is GAP + beat × 60000 / (BPM × 4)", arguments: cases)
    func beatToTime(_ testCase: (bpm: String, gap: String, beat: Int, expected: Int)) throws {
        let song = try parseSong("#BPM:\(testCase.bpm)\n#GAP:\(testCase.gap)\n: \(testCase.beat) 0 0 la\n")
        #expect(song.lines[0].start == testCase.expected)
    }

    @Test("a note runs from its start beat for its length")
    func noteLength() throws {
        let song = try parseSong(head + ": 10 4 0 la\n: 20 6 0 lu\n")
        #expect(spans(song.lines[0]) == [TimedSpan(1000, 1400, "la"), TimedSpan(2000, 2600, "lu")])
    }

    @Test("a line break ends the line at its last note's end, not at the break's beat")
    func lineBreakEndsLine() throws {
        let song = try parseSong(head + ": 0 2 0 one\n: 3 2 0 two\n- 40\n: 50 2 0 three\nE\n")
        #expect(song.lines.map(\.text) == ["onetwo", "three"])
        #expect(song.lines[0].start == 0 && song.lines[0].end == 500)
        #expect(song.lines[1].start == 5000 && song.lines[1].end == 5200)
    }

    @Test("E ends the song: anything after it is not read")
    func endMark() throws {
        let result = UltraStarParser.parse(
            Array((head + ": 0 2 0 la\nE\n: 10 2 0 after\nnot a line\n").utf8),
            file: "t.txt")
        let song = try #require(result.song)
        #expect(song.lines.map(\.text) == ["la"])
        #expect(result.diagnostics.isEmpty)
    }

    @Test("in relative mode beats count from the last line break's second number, or its only one")
    func relativeMode() throws {
        let song = try parseSong(head + "#RELATIVE:yes\n: 0 2 0 a\n- 4 10\n: 0 2 0 b\n- 5\n: 2 2 0 c\n")
        // b counts from 10, c from 10 + 5.
        #expect(song.lines.map(\.start) == [0, 1000, 1700])
    }

    @Test("#RELATIVE is read in any case", arguments: ["yes", "YES", "Yes"])
    func relativeCase(_ value: String) throws {
        let song = try parseSong(head + "#RELATIVE:\(value)\n: 0 2 0 a\n- 4 10\n: 0 2 0 b\n")
        #expect(song.lines[1].start == 1000)
    }
}

@Suite("UltraStar notes and syllables")
struct UltraStarNoteTests {
    @Test("every note type is sung and shown", arguments: [":", "*", "F", "R", "G"])
    func noteTypes(_ type: String) throws {
        let song = try parseSong(head + "\(type) 0 2 0 la\n")
        #expect(song.lines[0].text == "la")
        #expect(song.lines[0].segments.count == 1)
    }

    @Test(
        "a space at the start or at the end of a syllable ends the word before it the same way",
        arguments: [
            ": 0 2 0 Hel\n: 2 2 0 lo\n: 4 2 0  world!\n", // the word's space starts the next word
            ": 0 2 0 Hel\n: 2 2 0 lo \n: 4 2 0 world!\n", // the word's space ends the word
        ])
    func wordSpaces(_ notes: String) throws {
        let song = try parseSong(head + notes)
        #expect(song.lines[0].text == "Hello world!")
        #expect(song.lines[0].segments.map(\.text) == ["Hel", "lo ", "world!"])
    }

    @Test("the fields may be split by several blanks, and the type need not be followed by one")
    func lenientFieldSpacing() throws {
        let song = try parseSong(head + ":0 2 0 a\n*  2  2\t0 b\n")
        #expect(song.lines[0].segments.map(\.text) == ["a", "b"])
    }

    @Test("only one blank separates the pitch from the syllable; the others are the syllable's")
    func syllableKeepsItsSpaces() throws {
        let song = try parseSong(head + ": 0 2 0 one\n: 2 2 0  two\n")
        #expect(song.lines[0].segments.map(\.text) == ["one ", "two"])
    }

    @Test("'~' alone holds the vowel before it: that segment lasts longer and no '~' is shown")
    func holdMark() throws {
        let song = try parseSong(head + ": 0 2 0 go\n: 2 3 0 ~\n: 6 2 0  on\n")
        #expect(spans(song.lines[0]) == [TimedSpan(0, 500, "go "), TimedSpan(600, 800, "on")])
    }

    @Test("a '~' that starts a line shows nothing")
    func holdMarkFirst() throws {
        let song = try parseSong(head + ": 0 2 0 ~\n: 2 2 0 la\n")
        #expect(song.lines[0].text == "la")
    }

    @Test("a note without a syllable is sung but shows nothing, and its end still ends the line")
    func emptySyllable() throws {
        let song = try parseSong(head + ": 0 2 0 la\n: 4 6 0\n")
        #expect(song.lines[0].text == "la")
        #expect(song.lines[0].end == 1000)
    }

    @Test("a line with no sung text is dropped")
    func emptyLineDropped() throws {
        let song = try parseSong(head + ": 0 2 0\n: 2 2 0 ~\n- 10\n: 20 2 0 la\n")
        #expect(song.lines.map(\.text) == ["la"])
    }

    @Test("overlapping notes are cut at the next note's start")
    func overlappingNotes() throws {
        let song = try parseSong(head + ": 0 10 0 a\n: 2 2 0 b\n")
        #expect(spans(song.lines[0]) == [TimedSpan(0, 200, "a"), TimedSpan(200, 400, "b")])
        #expect(song.lines[0].end == 1000)
    }

    @Test("control characters in a syllable are dropped, tabs become spaces")
    func controlCharacters() throws {
        let song = try parseSong(head + ": 0 2 0 a\u{1B}b\t\n: 2 2 0 c\n")
        #expect(song.lines[0].segments.map(\.text) == ["ab ", "c"])
    }

    @Test(
        "a malformed note is a warning at the bad field and is skipped",
        arguments: [
            ": ‸x 2 0 la\n", // start beat is not a number
            ": 0 ‸2x 0 la\n", // length runs into text
            ": 0 2 ‸\n", // no pitch
            "‸: -8 -3 -9 la\n", // a negative length
            "‸zzz\n", // not a line UltraStar knows
        ])
    func malformedNote(_ bad: String) throws {
        let marked = MarkedLyrics(head + ": 10 2 0 ok\n" + bad)
        let result = UltraStarParser.parse(marked.bytes, file: "t.txt")
        #expect(result.diagnostics.map { LyricsPosition(line: $0.line, column: $0.column) } == marked.marks)
        #expect(
            result.diagnostics.allSatisfy {
                $0.severity == .warning && $0.message.first!.isLowercase && !$0.message.hasSuffix(".")
            })
        let song = try #require(result.song)
        checkInvariants(song)
        #expect(song.lines[0].segments.first?.text.hasPrefix("ok") == true)
    }

    @Test("notes written out of order are sorted within their line")
    func unsortedNotes() throws {
        let song = try parseSong(head + ": 4 2 0 c\n: 0 2 0 a \n: 2 2 0 b \n")
        #expect(song.lines[0].text == "a b c")
    }
}

@Suite("UltraStar duets")
struct UltraStarDuetTests {
    @Test("P1 and P2 select the part; P3 sings together", arguments: ["P1", "P 1", "P  1 "])
    func parts(_ first: String) throws {
        let song = try parseSong(head + "\(first)\n: 0 2 0 one\nP2\n: 1 2 0 two\nP3\n: 2 2 0 both\nE\n")
        #expect(song.lines.map(\.text) == ["one", "two", "both"])
        #expect(song.lines.map(\.voice) == [.part(0), .part(1), .together])
    }

    @Test("a solo song has no voice")
    func soloHasNoVoice() throws {
        let song = try parseSong(head + ": 0 2 0 la\n")
        #expect(song.lines[0].voice == nil)
    }

    @Test("each part counts relative beats from the start again")
    func relativeBeatsRestartPerPart() throws {
        let song = try parseSong(head + "#RELATIVE:yes\nP1\n: 0 2 0 a\n- 4 10\n: 0 2 0 b\nP2\n: 0 2 0 c\n")
        #expect(song.lines.map(\.text) == ["a", "c", "b"])
        #expect(song.lines.map(\.start) == [0, 0, 1000])
    }

    @Test("a malformed part line is a warning")
    func malformedPart() {
        let marked = MarkedLyrics(head + "‸Px\n: 0 2 0 la\n")
        let result = UltraStarParser.parse(marked.bytes, file: "t.txt")
        #expect(result.diagnostics.map { LyricsPosition(line: $0.line, column: $0.column) } == marked.marks)
    }
}

@Suite("UltraStar files as a whole")
struct UltraStarFileTests {
    @Test("a file without sung notes gives no song and an error")
    func noNotes() {
        let result = UltraStarParser.parse(Array((head + "E\n").utf8), file: "t.txt")
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test("CRLF and lone CR line ends are read", arguments: ["\r\n", "\r"])
    func lineEnds(_ newline: String) throws {
        let text =
            head.replacingOccurrences(of: "\n", with: newline)
            + ": 0 2 0 la \(newline)- 4\(newline): 5 2 0 lu\(newline)E"
        let song = try parseSong(text)
        #expect(song.lines.map(\.text) == ["la", "lu"])
    }

    @Test("the lines' ends are the file's own, not estimates")
    func endsAreStated() throws {
        let song = try parseSong(head + ": 0 2 0 la\n")
        #expect(song.lines.allSatisfy { !$0.endIsEstimated })
    }

    @Test(
        "content detection knows UltraStar with and without #BPM",
        arguments: [
            "#TITLE:a\n#ARTIST:b\n#BPM:300\n: 0 1 0 la\n",
            "#VERSION:1.1.0\n#TITLE:a\n: 0 1 0 la\n", // format 1.1 files may leave #BPM out
            "#artist:b\n#title:a\n: 0 1 0 la\n",
        ])
    func detection(_ text: String) {
        #expect(LyricFormat.byContent(Array(text.utf8)) == .ultrastar)
        #expect(LyricsReader.parse(Array(text.utf8), file: "song.txt").song != nil)
    }

    /// Inputs a fuzzer would try, by name, so that the test log stays short.
    static let hostileInputs: [String: String] = [
        "one huge line": String(repeating: "a", count: 1_000_000),
        "holds with nothing to hold": head + String(repeating: ": 1 1 0 ~\n", count: 20_000),
        "a beat too big to fit": head + ": 99999999999999999999 1 0 la\n",
        "times far past any song": "#BPM:0,0000001\n#GAP:99999999999999\n: 999999999 999999999 0 la\n",
        "malformed breaks": head + String(repeating: "- 1 2 3 4\n", count: 1000),
        "relative beats that add up": head + "#RELATIVE:yes\n"
            + String(repeating: ": 0 1 0 a\n- 999999999 999999999\n", count: 5000),
    ]

    @Test("hostile input neither crashes nor hangs", arguments: hostileInputs.keys.sorted())
    func hostile(_ name: String) throws {
        let text = try #require(Self.hostileInputs[name])
        let result = UltraStarParser.parse(Array(text.utf8), file: "t.txt")
        if let song = result.song { checkInvariants(song) }
        #expect(result.diagnostics.count <= DiagnosticLog.limit + 2)
    }

    @Test("a song of 200,000 notes parses without quadratic work")
    func manyNotes() throws {
        var text = head
        for phrase in 0..<20_000 {
            for note in 0..<10 { text += ": \(phrase * 20 + note) 1 0 la\(note == 9 ? "" : " ")\n" }
            text += "- \(phrase * 20 + 10)\n"
        }
        let clock = ContinuousClock()
        let started = clock.now
        let song = try parseSong(text)
        #expect(song.lines.count == 20_000)
        // A guard against quadratic work (minutes), not a speed test: under ASan on a loaded machine
        // one pass takes many times longer than alone.
        #expect(clock.now - started < .seconds(90))
    }
}

/// The corpus folder of UltraStar Play's test songs, when it is there.
private let ultraStarCorpus = corpusFolder("ultrastar")

/// `../shared/corpus/NAME` next to the package root, or under `$KARAOKE_CORPUS`; nil when absent.
private func corpusFolder(_ name: String) -> URL? {
    var root = URL(fileURLWithPath: #filePath)
    while root.path != "/" && !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
    {
        root.deleteLastPathComponent()
    }
    var candidates = [root.deletingLastPathComponent().appendingPathComponent("shared/corpus")]
    if let override = ProcessInfo.processInfo.environment["KARAOKE_CORPUS"] {
        candidates.insert(URL(fileURLWithPath: override), at: 0)
    }
    return candidates.map { $0.appendingPathComponent(name) }.first { FileManager.default.fileExists(atPath: $0.path) }
}

/// The corpus files' names, or none when the folder is absent.
private func corpusFiles(_ folder: URL?) -> [String] {
    guard let folder else { return [] }
    return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).sorted()
}

/// The file's text as UTF-8, the way the program reads it; files in other encodings repaired to U+FFFD.
private func corpusText(_ url: URL) throws -> [UInt8] {
    let bytes = [UInt8](try Data(contentsOf: url))
    guard case .success(let utf8) = SourceText.utf8(from: bytes) else { throw CorpusError.notText }
    return String(validating: utf8, as: UTF8.self) == nil ? Array(String(decoding: utf8, as: UTF8.self).utf8) : utf8
}

private enum CorpusError: Error { case notText }

// Skipped cleanly where the shared corpus is not checked out next to the package.
@Suite("UltraStar corpus", .enabled(if: ultraStarCorpus != nil))
struct UltraStarCorpusTests {
    /// Files the reader warns about on purpose, with the reason. Every other file reads silently.
    static let expectedWarnings: [String: String] = [
        "usplay__Duet.txt": "no #BPM (UltraStar Play's format 1.1 test song)",
        "usplay__Solo.txt": "no #BPM",
        "usplay__NoteWithoutLyricsAndMissingLastSeparator.txt": "no #BPM",
        "usplay__WithPhraseEndBeat.txt": "no #BPM",
        "usplay__WithoutPhraseEndBeat.txt": "no #BPM",
        "usplay__MissingTagName.txt": "'#:TagValue1' has no tag name",
        "usplay__NegativeNoteValues.txt": "a note with a negative length is skipped",
    ]

    @Test("every file gives a sound song", arguments: corpusFiles(ultraStarCorpus))
    func corpusFile(_ name: String) throws {
        let url = try #require(ultraStarCorpus).appendingPathComponent(name)
        let utf8 = try corpusText(url)
        #expect(LyricFormat.detect(utf8: utf8, fileName: name) == .ultrastar)
        let result = UltraStarParser.parse(utf8, file: name)
        let song = try #require(result.song, "\(result.diagnostics)")
        checkInvariants(song)
        #expect(song.lines.allSatisfy { $0.isWordTimed })
        if Self.expectedWarnings[name] == nil {
            #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
        } else {
            #expect(!result.diagnostics.isEmpty)
        }
    }

    @Test(
        "UltraStar Play's expectations hold",
        arguments: [
            ("usplay__LyricsSpaceAtTheStart.txt", ["Hello world!"]),
            ("usplay__LyricsSpaceAtTheEnd.txt", ["Hello world!"]),
            ("usplay__NoSpaceAfterNoteType.txt", ["Hello"]),
            // P1 puts the word's space first, P2 last; the '~' hold is not shown here.
            ("usplay__MultipleSpacesAsNoteSeparator.txt", ["Hello world", "Hello world"]),
            ("usplay__NegativeNoteValues.txt", ["Hel world!"]),
            ("usplay__WithPhraseEndBeat.txt", ["Hello world", "Hello world"]),
            ("usplay__WithoutPhraseEndBeat.txt", ["Hello world", "Hello world"]),
            ("usplay__NoteWithoutLyricsAndMissingLastSeparator.txt", ["Hel world", "Hello world"]),
        ])
    func expectations(_ name: String, _ texts: [String]) throws {
        let utf8 = try corpusText(try #require(ultraStarCorpus).appendingPathComponent(name))
        let song = try #require(UltraStarParser.parse(utf8, file: name).song)
        #expect(song.lines.map(\.text) == texts)
    }

    @Test("the duet's parts are its two voices")
    func duetVoices() throws {
        let utf8 = try corpusText(try #require(ultraStarCorpus).appendingPathComponent("usplay__Duet.txt"))
        let song = try #require(UltraStarParser.parse(utf8, file: "Duet.txt").song)
        #expect(song.lines.map(\.voice) == [.part(0), .part(1)])
        #expect(song.metadata.audioFile == "SomeAudio.ogg")
    }

    @Test("numbers with spaces around them and a decimal comma are read")
    func spaceAroundNumber() throws {
        let utf8 = try corpusText(try #require(ultraStarCorpus).appendingPathComponent("usplay__SpaceAroundNumber.txt"))
        let song = try #require(UltraStarParser.parse(utf8, file: "SpaceAroundNumber.txt").song)
        // BPM 200: 75 ms a beat; the first note is at beat 4; GAP 0,12 ms rounds away.
        #expect(song.lines[0].start == 300)
    }
}
