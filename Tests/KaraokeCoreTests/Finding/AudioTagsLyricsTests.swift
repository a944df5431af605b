import Testing
@testable import KaraokeCore

/// Tags with SYLT lines given as (milliseconds, text).
private func synced(_ lines: [(Int, String)], duration: Double? = nil) -> AudioTags {
    AudioTags(duration: duration, syncedLines: lines.map { AudioTags.SyncedLine(milliseconds: $0.0, text: $0.1) })
}

@Suite("Lyrics from an audio file's tags")
struct AudioTagsLyricsTests {
    @Test("SYLT lines become a line-timed song, sorted by time, each ending where the next starts")
    func syltIsLineTimed() throws {
        let found = try #require(synced([(2000, "two"), (1000, "one"), (3000, "three")]).lyrics(fileName: "song.mp3"))
        #expect(found.tag == "SYLT")
        #expect(found.sourceDescription == "embedded SYLT in song.mp3")
        let song = try #require(found.song)
        #expect(song.lines.map(\.text) == ["one", "two", "three"])
        #expect(song.lines.map(\.start) == [1000, 2000, 3000])
        #expect(song.lines[0].end == 2000)
        #expect(song.lines.allSatisfy { !$0.isWordTimed })
        #expect(song.medianLineDuration == 1000) // DESIGN §2's M, through the same assembly as LRC
    }

    @Test("an empty SYLT line ends the line before it")
    func emptyLineEndsTheLineBefore() throws {
        let song = try #require(synced([(1000, "one"), (1500, ""), (4000, "two")]).lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines.map(\.text) == ["one", "two"])
        #expect(song.lines[0].end == 1500)
    }

    @Test("two SYLT lines at one time: the first is sung, the second is its translation")
    func duplicateTimes() throws {
        let song = try #require(synced([(1000, "sung"), (1000, "gesungen")]).lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines.count == 1)
        #expect(song.lines[0].text == "sung")
        #expect(song.lines[0].translations == ["gesungen"])
    }

    @Test("the last SYLT line lasts to the audio's end when the tags give a duration")
    func lastLineEndsAtDuration() throws {
        let song = try #require(synced([(1000, "one")], duration: 60).lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines[0].end == 60_000)
        #expect(song.metadata.length == 60_000)
    }

    @Test(
        "control and bidi characters are removed from SYLT text as from lyric files",
        arguments: [
            ("a\u{1B}[31mb", "a[31mb"), // ESC goes, the printable rest stays (as the LRC parser does)
            ("\u{202E}evil", "evil"), // right-to-left override
            ("tab\there", "tab here"),
            ("\u{9B}c1", "c1"), // C1 CSI
            ("  spaced  ", "spaced"),
        ])
    func controlCharacters(raw: String, shown: String) throws {
        let song = try #require(synced([(0, raw), (1000, "next")]).lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines[0].text == shown)
        let lrc = try #require(LRCParser.parse(Array("[00:00.00]\(raw)\n".utf8), file: "a.lrc").song)
        #expect(lrc.lines[0].text == shown) // exactly as a lyric file's line
    }

    @Test("SYLT pieces that start new lines with a line break become word-timed lines")
    func syltWordPieces() throws {
        let tags = synced([(1000, "Hel"), (1200, "lo "), (1500, "world"), (3000, "\nsecond "), (3500, "line")])
        let song = try #require(tags.lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines.map(\.text) == ["Hello world", "second line"])
        #expect(song.lines[0].segments.map(\.text) == ["Hel", "lo ", "world"])
        #expect(song.lines[0].segments.map(\.start) == [1000, 1200, 1500])
        #expect(song.lines[0].segments[1].end == 1500)
        #expect(song.lines[1].segments.map(\.text) == ["second ", "line"])
    }

    @Test("the most pieces the reader keeps, all in one line, make one word-timed line")
    func manyPieces() throws {
        let count = AudioTags.maximumSyncedLines - 1
        let pieces = [(0, "\nx")] + (1..<count).map { ($0, "y") } + [(count, "\nlast")]
        let song = try #require(synced(pieces).lyrics(fileName: "a.mp3")?.song)
        #expect(song.lines.count == 2)
        #expect(song.lines[0].segments.count == count)
        #expect(song.lines[0].segments.last?.end == count)
    }

    @Test("SYLT lines without any text are no lyrics; a lyric text is used instead")
    func emptySyltFallsBack() throws {
        var tags = synced([(1000, ""), (2000, "  ")])
        tags.lyricTexts = [.init(source: "USLT", text: "[00:01.00]from uslt")]
        let found = try #require(tags.lyrics(fileName: "a.mp3"))
        #expect(found.tag == "USLT")
        #expect(found.song?.lines.map(\.text) == ["from uslt"])
    }

    @Test("a lyric text that reads as LRC is LRC, named by its tag")
    func lrcInText() throws {
        let tags = AudioTags(lyricTexts: [
            .init(source: "Vorbis LYRICS", text: "[ar:Ann]\n[00:01.00]one\n[00:02.50]two\n")
        ])
        let found = try #require(tags.lyrics(fileName: "song.flac"))
        #expect(found.sourceDescription == "embedded Vorbis LYRICS in song.flac")
        let song = try #require(found.song)
        #expect(song.lines.map(\.start) == [1000, 2500])
        #expect(song.metadata.artist == "Ann")
    }

    @Test("SYLT comes before a lyric text, and a timed text before a plain one")
    func order() throws {
        var tags = synced([(500, "sylt")])
        tags.lyricTexts = [.init(source: "USLT", text: "plain"), .init(source: "MP4 ©lyr", text: "[00:01.00]lrc")]
        #expect(tags.lyrics(fileName: "a")?.tag == "SYLT")
        tags.syncedLines = []
        #expect(tags.lyrics(fileName: "a")?.tag == "MP4 ©lyr")
    }

    @Test("untimed text is given back as plain lines, with no timing invented")
    func plainText() throws {
        let tags = AudioTags(lyricTexts: [.init(source: "USLT", text: "\n first\u{1B}[2J \r\n\r\nsecond\n\n")])
        let found = try #require(tags.lyrics(fileName: "a.mp3"))
        #expect(found.song == nil)
        guard case .plain(let lines) = found.content else {
            Issue.record("expected plain lyrics")
            return
        }
        #expect(lines == ["first[2J", "", "second"]) // the blank line between verses stays
    }

    @Test("tags without lyrics, or with only blank texts, give none")
    func none() {
        #expect(AudioTags(title: "t").lyrics(fileName: "a") == nil)
        #expect(AudioTags(lyricTexts: [.init(source: "USLT", text: " \n\t\n")]).lyrics(fileName: "a") == nil)
    }

    @Test("the tags' names reach the song's metadata, sanitised")
    func metadata() throws {
        let tags = AudioTags(
            title: "Ti\u{1B}tle", artist: "Ann", album: "Al", syncedLines: [.init(milliseconds: 0, text: "x")])
        let song = try #require(tags.lyrics(fileName: "a")?.song)
        #expect(song.metadata.title == "Title")
        #expect(song.metadata.artist == "Ann")
        #expect(song.metadata.album == "Al")
    }
}
