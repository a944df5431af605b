import Testing
@testable import KaraokeCore

/// The order lyrics are looked for in and how the files of lyric folders are ranked (DESIGN §10.1, §10.3).
@Suite("Finding: the search order and the ranking of lyric folder files")
struct LyricsSearchTests {
    /// An index of `folder` holding lyric files built from the heads given.
    static func index(_ folder: String, _ files: [(path: String, head: String)]) -> LyricsFolderIndex {
        LyricsFolderIndex(
            folder: folder,
            entries: files.map {
                LyricsFolderIndex.entry(for: .init(path: $0.path, size: 1, modified: 1), head: Array($0.head.utf8))
            })
    }

    @Test(
        "the steps: --lyrics alone; else beside, folders, tags when read, LRCLIB last when allowed",
        arguments: [
            (nil, true, true, [LyricsSearch.Step.sidecar, .folders, .embedded, .lrclib]),
            (nil, true, false, [.sidecar, .folders, .embedded]), // no network unless allowed
            (nil, false, false, [.sidecar, .folders]), // no tag reader wired
            (nil, false, true, [.sidecar, .folders, .lrclib]),
            ("x.lrc", true, true, [.given("x.lrc")]), // --lyrics wins over everything
        ] as [(String?, Bool, Bool, [LyricsSearch.Step])])
    func steps(lyricsFile: String?, readsTags: Bool, lrclib: Bool, expected: [LyricsSearch.Step]) {
        #expect(LyricsSearch.steps(lyricsFile: lyricsFile, readsTags: readsTags, lrclibAllowed: lrclib) == expected)
    }

    @Test(
        "the default folders and the cache follow XDG, with HOME's defaults and relative values ignored",
        arguments: [
            (["HOME": "/h"], ["/h/.local/share/karaoke/lyrics", "/h/.lyrics"], "/h/.cache/karaoke"),
            (
                ["HOME": "/h/", "XDG_DATA_HOME": "/d/", "XDG_CACHE_HOME": "/c"],
                ["/d/karaoke/lyrics", "/h/.lyrics"], "/c/karaoke"
            ),
            (
                ["HOME": "/h", "XDG_DATA_HOME": "rel", "XDG_CACHE_HOME": ""],
                ["/h/.local/share/karaoke/lyrics", "/h/.lyrics"], "/h/.cache/karaoke"
            ),
            (["XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/c"], ["/d/karaoke/lyrics"], "/c/karaoke"), // no HOME
            ([:], [], nil),
        ] as [([String: String], [String], String?)])
    func xdgFolders(environment: [String: String], folders: [String], cache: String?) {
        #expect(LyricsSearch.defaultFolders(environment: { environment[$0] }) == folders)
        #expect(LyricsSearch.cacheFolder(environment: { environment[$0] }) == cache)
    }

    @Test("each folder has its own index file, named by a stable hash of its path")
    func indexFiles() {
        let a = LyricsSearch.indexFile(forFolder: "/h/.lyrics", cacheFolder: "/c")
        #expect(a == LyricsSearch.indexFile(forFolder: "/h/.lyrics", cacheFolder: "/c"))
        #expect(a != LyricsSearch.indexFile(forFolder: "/h/.lyric", cacheFolder: "/c"))
        #expect(a.hasPrefix("/c/lyrics-index/") && a.hasSuffix(".tsv"))
        #expect(StableHash.fnv1a("") == 0xcbf2_9ce4_8422_2325)
        #expect(StableHash.fnv1a("a") == 0xaf63_dc4c_8601_ec8c) // the published FNV-1a test vector
    }

    @Test(
        "lengths agree within 5 s, or when either is unknown",
        arguments: [
            (200_000, 205_000, true), (205_000, 200_000, true), (200_000, 205_001, false), (0, 5000, true),
            (200_000, nil, true), (nil, 1, true),
        ] as [(Int?, Int?, Bool)])
    func lengths(a: Int?, b: Int?, agree: Bool) {
        #expect(LyricsSearch.lengthsAgree(a, b) == agree)
    }

    @Test(
        "how a file matches an audio file: name, then artist and title, then tags with the length checked",
        arguments: [
            ("Song.LRC", "", FolderMatch.Kind.name), // the base name, case aside
            ("ac dc - thunderstruck.lrc", "", .artistAndTitle), // name spelled as artist - title
            ("x.lrc", "[ar:AC/DC]\n[ti:Thunderstruck]\n", .tags), // tags, no length in the file
            ("x.lrc", "[ar:AC-DC]\n[ti:thunderstruck]\n[length:4:52]\n", .tags), // lengths within 5 s
            ("x.lrc", "[ar:AC/DC]\n[ti:Thunderstruck]\n[length:4:58]\n", nil), // 6 s off
            ("x.lrc", "[ar:AC/DC]\n[ti:Thunder]\n", nil), // another title
            ("y.lrc", "", nil), // nothing in common
        ] as [(String, String, FolderMatch.Kind?)])
    func kinds(path: String, head: String, kind: FolderMatch.Kind?) {
        let audio = AudioIdentity(path: "/m/song.mp3", artist: "AC/DC", title: "Thunderstruck", length: 292_000)
        let entry = LyricsFolderIndex.entry(for: .init(path: path, size: 1, modified: 1), head: Array(head.utf8))
        #expect(LyricsSearch.matchKind(of: entry, for: audio) == kind)
    }

    @Test("without artist and title only the name matches")
    func nameOnly() {
        let audio = AudioIdentity(path: "/m/song.mp3")
        let entry = LyricsFolderIndex.entry(
            for: .init(path: "x.lrc", size: 1, modified: 1), head: Array("[ar:song]\n[ti:song]\n".utf8))
        #expect(LyricsSearch.matchKind(of: entry, for: audio) == nil)
    }

    @Test("the name beats artist and title, which beats tags, whatever the folder")
    func kindFirst() throws {
        let audio = AudioIdentity(path: "/m/track.mp3", artist: "A", title: "T")
        let first = Self.index("/1", [("tagged.lrc", "[ar:A]\n[ti:T]\n"), ("A - T.lrc", "")])
        let second = Self.index("/2", [("Track.lrc", "")])
        let best = try #require(LyricsSearch.bestMatch(in: [first, second], for: audio))
        #expect(best.kind == .name && best.folderPosition == 1)
        let withoutName = try #require(LyricsSearch.bestMatch(in: [first], for: audio))
        #expect(withoutName.kind == .artistAndTitle && withoutName.entry.status.path == "A - T.lrc")
    }

    @Test("among tag matches the closest known length wins, an unknown length comes last")
    func closestLength() throws {
        let audio = AudioIdentity(path: "/m/x.mp3", artist: "A", title: "T", length: 200_000)
        let index = Self.index(
            "/1",
            [
                ("none.lrc", "[ar:A]\n[ti:T]\n"),
                ("far.lrc", "[ar:A]\n[ti:T]\n[length:3:24]\n"), // 4 s off
                ("near.lrc", "[ar:A]\n[ti:T]\n[length:3:21]\n"), // 1 s off
            ])
        #expect(try #require(LyricsSearch.bestMatch(in: [index], for: audio)).entry.status.path == "near.lrc")
    }

    @Test("among equal matches: the earlier folder, then .lrc before other formats, then the shallower path")
    func ties() throws {
        let audio = AudioIdentity(path: "/m/song.mp3")
        let first = Self.index("/1", [("deep/song.lrc", ""), ("song.txt", ""), ("song.srt", "")])
        let second = Self.index("/2", [("song.lrc", "")])
        let best = try #require(LyricsSearch.bestMatch(in: [first, second], for: audio))
        #expect(best.folderPosition == 0 && best.entry.status.path == "deep/song.lrc")
        let flat = Self.index("/1", [("song.txt", ""), ("song.srt", ""), ("b/song.lrc", ""), ("a/song.lrc", "")])
        #expect(try #require(LyricsSearch.bestMatch(in: [flat], for: audio)).entry.status.path == "a/song.lrc")
        let noLRC = Self.index("/1", [("song.txt", ""), ("song.srt", "")])
        #expect(try #require(LyricsSearch.bestMatch(in: [noLRC], for: audio)).entry.status.path == "song.srt")
    }

    @Test("the audio's identity: tags first, else the file name; the length only from the tags")
    func identity() {
        let tagged = AudioIdentity(
            path: "/m/Wrong - Name.mp3", tags: AudioTags(title: "Title", artist: "Artist", duration: 201.4))
        #expect(tagged == AudioIdentity(path: "/m/Wrong - Name.mp3", artist: "Artist", title: "Title", length: 201_400))
        let halfTagged = AudioIdentity(path: "/m/A - T.mp3", tags: AudioTags(title: "Only title"))
        #expect(halfTagged.songKey == "at")
        let untagged = AudioIdentity(path: "/m/track01.mp3", tags: nil)
        #expect(untagged.songKey == nil && untagged.nameKey == "track01")
        let badLength = AudioIdentity(path: "/m/x.mp3", tags: AudioTags(duration: .infinity))
        #expect(badLength.length == nil)
    }

    @Test(
        "check names the source of the lyrics",
        arguments: [
            (LyricsOrigin.sidecar(file: "/m/song.lrc", audio: "/m/song.mp3"), "song.lrc beside song.mp3"),
            (.folder(file: "/h/.lyrics/A - T.lrc", kind: .artistAndTitle), "~/.lyrics/A - T.lrc (artist and title)"),
            (.folder(file: "/hx/a.lrc", kind: .name), "/hx/a.lrc (same name)"), // not below the home folder
            (.folder(file: "/l/x.lrc", kind: .tags), "/l/x.lrc (its [ar:] and [ti:] tags)"),
            (.given(file: "/h/x.lrc"), "~/x.lrc (--lyrics)"),
            (.embedded("embedded SYLT in song.mp3"), "embedded SYLT in song.mp3"),
        ])
    func origins(origin: LyricsOrigin, text: String) {
        #expect(origin.description(home: "/h") == text)
    }

    @Test("the message when nothing was found names every place looked in")
    func notFound() {
        let steps = LyricsSearch.steps(lyricsFile: nil, readsTags: true, lrclibAllowed: false)
        #expect(
            LyricsSearch.notFoundMessage(audio: "song.mp3", folders: ["/h/.lyrics", "/d"], home: "/h", steps: steps)
                == "no lyrics found for song.mp3 (looked beside it, in ~/.lyrics, in /d, in its tags)")
    }
}
