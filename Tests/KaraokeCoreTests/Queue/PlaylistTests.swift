import Testing
@testable import KaraokeCore

@Suite("Playlists and folders as queues")
struct PlaylistTests {
    @Test("relative paths are taken against the playlist's folder, absolute ones as they are")
    func paths() {
        let text = "one.lrc\n/music/two.mp3\nsub/three.lrc\n"
        let parsed = Playlist.parse(Array(text.utf8), file: "lists/night.m3u")
        #expect(parsed.entries.map(\.path) == ["lists/one.lrc", "/music/two.mp3", "lists/sub/three.lrc"])
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test(
        "a BOM, CRLF or LF line ends, blank lines and comments are all read alike",
        arguments: [
            // LF
            "#EXTM3U\n\na.lrc\n# a comment\nb.lrc",
            // CRLF with a BOM
            "\u{FEFF}#EXTM3U\r\n\r\na.lrc\r\n# a comment\r\nb.lrc\r\n",
            // blanks around the lines
            "  #EXTM3U \n  a.lrc  \n\t# a comment\nb.lrc\t\n",
        ])
    func lineEnds(text: String) {
        let parsed = Playlist.parse(Array(text.utf8), file: "night.m3u8")
        #expect(parsed.entries.map(\.path) == ["a.lrc", "b.lrc"])
    }

    @Test("#EXTINF gives the next song's title and #EXTSINGER its singer, for that song only")
    func extendedLines() {
        let text =
            "#EXTM3U\n#EXTINF:203,Lantern River\n#EXTSINGER: Ana \nlantern.lrc\nnext.lrc\n#extinf:-1,\nlast.lrc\n"
        let parsed = Playlist.parse(Array(text.utf8), file: "night.m3u")
        #expect(
            parsed.entries == [
                QueueEntry(path: "lantern.lrc", title: "Lantern River", singer: "Ana"),
                QueueEntry(path: "next.lrc"),
                QueueEntry(path: "last.lrc"),
            ])
    }

    @Test(
        "a URL is refused with a warning that names its line, and the songs around it stay",
        arguments: ["http://example.com/a.mp3", "https://x/y.lrc", "file:///music/a.lrc", "rtsp://h/s"])
    func urlsRefused(url: String) throws {
        let parsed = Playlist.parse(Array("a.lrc\n\(url)\nb.lrc\n".utf8), file: "night.m3u")
        #expect(parsed.entries.map(\.path) == ["a.lrc", "b.lrc"])
        let warning = try #require(parsed.diagnostics.first)
        #expect(warning.line == 2)
        #expect(warning.message.contains("URL"))
    }

    @Test("a file name with a colon is a path, not a URL")
    func colonInName() {
        let parsed = Playlist.parse(Array("Live: at home.lrc\nC:drive.lrc\n".utf8), file: "night.m3u")
        #expect(parsed.entries.count == 2)
        #expect(parsed.diagnostics.isEmpty)
    }

    @Test(
        "only .m3u and .m3u8 names are playlists",
        arguments: [
            ("night.m3u", true), ("NIGHT.M3U8", true), ("night.lrc", false), ("m3u", false), ("a.m3u.lrc", false),
        ])
    func playlistNames(name: String, isPlaylist: Bool) {
        #expect(Playlist.isPlaylist(name) == isPlaylist)
    }

    @Test("a folder's songs are sorted by name, and an audio file and its lyrics are one song")
    func folderSongs() {
        let names = [
            "sakura.lrc", ".hidden.lrc", "lantern.opus", "lantern.lrc", "notes.pdf", "harbour.ttml", "harbour.srt",
            "harbour.txt", "desert.lrc", "solo.mp3", "playlist.m3u",
        ]
        let songs = Playlist.songs(inFolder: "night", names: names)
        #expect(
            songs.map(\.path) == [
                "night/desert.lrc", "night/harbour.ttml", "night/lantern.opus", "night/sakura.lrc", "night/solo.mp3",
            ])
    }

    @Test("a MIDI karaoke file is a song of its own in a folder; beside an audio file of its name the audio wins")
    func folderMidiSongs() {
        let names = ["a.lrc", "b.kar", "b.lrc", "c.MID", "c.mp3", "d.midi", "d.mid", ".e.kar"]
        #expect(
            Playlist.songs(inFolder: "f", names: names).map(\.path) == ["f/a.lrc", "f/b.kar", "f/c.mp3", "f/d.mid"])
    }

    @Test(
        "MP3+G songs in a folder: the audio beside its .cdg is the song; a zip is one, before a .cdg of its name; a .cdg alone is one"
    )
    func folderGraphicsSongs() {
        let names = ["a.mp3", "a.cdg", "b.ZIP", "b.cdg", "c.CDG", "d.zip", "d.lrc", "e.kar", "e.zip", ".f.zip"]
        #expect(
            Playlist.songs(inFolder: "f", names: names).map(\.path) == [
                "f/a.mp3", "f/b.ZIP", "f/c.CDG", "f/d.zip", "f/e.kar",
            ])
        #expect(Playlist.songs(inFolder: "f", names: names) == Playlist.songs(inFolder: "f", names: names.reversed()))
    }

    @Test("the folder's order does not depend on the order the names are listed in")
    func folderOrderStable() {
        let names = ["b.lrc", "a.mp3", "a.lrc", "c.flac", "c.ogg"]
        #expect(
            Playlist.songs(inFolder: "f/", names: names) == Playlist.songs(inFolder: "f/", names: names.reversed()))
        #expect(Playlist.songs(inFolder: "f/", names: names).map(\.path) == ["f/a.mp3", "f/b.lrc", "f/c.flac"])
    }

    @Test(
        "hostile bytes in a playlist make entries or nothing, never a crash, and quote nothing raw",
        arguments: [
            // invalid UTF-8 and NUL
            [0xFF, 0xFE, 0x00, 0x0A, 0x61, 0x2E, 0x6C, 0x72, 0x63],
            // an escape sequence in a URL
            Array("http://\u{1B}]52;c;x\u{07}/a.lrc\n".utf8),
            // CR only, no line feed at all
            Array("a.lrc\rb.lrc\r".utf8),
            // a very long line
            Array(String(repeating: "x", count: 100_000).utf8),
        ] as [[UInt8]])
    func hostile(bytes: [UInt8]) {
        let parsed = Playlist.parse(bytes, file: "night.m3u")
        #expect(parsed.entries.count <= 2)
        #expect(parsed.diagnostics.allSatisfy { !$0.description.unicodeScalars.contains { $0.value == 0x1B } })
    }
}
