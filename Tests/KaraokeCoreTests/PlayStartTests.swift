import Testing

@testable import KaraokeCore

@Suite("Where play --start may start")
struct PlayStartTests {
    /// A song of 1:10: its last line ends there (an empty end marker).
    static let song = "[ti:Start]\n[00:05.00]first\n[00:40.00]second\n[01:10.00]\n"

    @Test(
        "a start at or past the song's end is refused with the start, the file and the song's length",
        arguments: [(70.0, "70"), (500, "500"), (70.5, "70.5")])
    func pastTheEnd(start: Double, written: String) throws {
        let song = try Fixtures.song(text: PlayStartTests.song)
        #expect(
            PlayStart.problem(start: start, song: song, file: "dir/song.lrc")
                == "--start \(written) is past the end of dir/song.lrc (1:10)")
    }

    @Test("a start within the song, or at 0, is taken", arguments: [0.0, 0.5, 40, 69.99])
    func withinTheSong(start: Double) throws {
        let song = try Fixtures.song(text: PlayStartTests.song)
        #expect(PlayStart.problem(start: start, song: song, file: "song.lrc") == nil)
    }

    @Test("a song without a length (still being looked up) is not judged")
    func noLength() {
        #expect(
            PlayStart.problem(
                start: 500, song: Song(metadata: SongMetadata(), lines: [], medianLineDuration: nil), file: "song.mp3")
                == nil)
    }

    @Test("control characters in the file's name do not reach the message")
    func controlCharacters() throws {
        let song = try Fixtures.song(text: PlayStartTests.song)
        let message = try #require(PlayStart.problem(start: 90, song: song, file: "a\u{1B}[31mb.lrc"))
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B })
    }
}

@Suite("The lyric files of a folder, as check reads them")
struct LyricFolderTests {
    @Test("every lyric extension in any case, sorted, hidden files and other kinds left out, with the folder's path")
    func lyricFiles() {
        let names = ["b.LRC", "a.srt", ".hidden.lrc", "song.mp3", "notes.md", "c.ttml", "d.Txt", "e.ass", "x"]
        #expect(
            AudioFiles.lyricFiles(inFolder: "songs", names: names)
                == ["songs/a.srt", "songs/b.LRC", "songs/c.ttml", "songs/d.Txt", "songs/e.ass"])
        #expect(AudioFiles.lyricFiles(inFolder: "songs/", names: ["a.vtt"]) == ["songs/a.vtt"])
        #expect(AudioFiles.lyricFiles(inFolder: "songs", names: ["a.mp3", "b.wav"]).isEmpty)
        #expect(
            AudioFiles.lyricFiles(inFolder: "songs", names: ["a.KAR", "b.mid", "c.midi", "d.cdg", "e.Zip", "f.mp4"])
                == ["songs/a.KAR", "songs/b.mid", "songs/c.midi", "songs/d.cdg", "songs/e.Zip"])
    }
}
