import Testing
@testable import KaraokeCore

/// The search carried out over stand-in sources: a file system of a few paths, lyric folders as indexes, and a
/// stub tag reader (DESIGN §10.1).
@Suite("Finding: the search order over stand-in sources")
struct LyricsLookupTests {
    /// A stand-in world: the files that exist, the folders' files with their heads, the audio's tags.
    final class World {
        var files: Set<String> = []
        var folders: [String: [(path: String, head: String)]] = [:]
        var tags: AudioTags? = nil
        var embedded: SuppliedLyrics? = nil
        var fromLRCLIB: SuppliedLyrics? = nil
        /// How often the stub tag reader was called.
        var tagReads = 0
        /// What LRCLIB was asked.
        var lrclibQuestions: [AudioIdentity] = []

        /// The sources, with the embedded and LRCLIB steps only when asked for.
        func sources(embedded wantsEmbedded: Bool = false, lrclib wantsLRCLIB: Bool = false) -> LyricsSources {
            LyricsSources(
                isRegularFile: { self.files.contains($0) },
                folderIndex: { folder in
                    self.folders[folder].map { files in
                        LyricsFolderIndex(
                            folder: folder,
                            entries: files.map {
                                LyricsFolderIndex.entry(
                                    for: .init(path: $0.path, size: 1, modified: 1), head: Array($0.head.utf8))
                            })
                    }
                },
                readTags: { _ in
                    self.tagReads += 1
                    return self.tags
                },
                embeddedLyrics: wantsEmbedded ? { _, _ in self.embedded } : nil,
                lrclib: wantsLRCLIB
                    ? { identity in
                        self.lrclibQuestions.append(identity)
                        return self.fromLRCLIB
                    } : nil)
        }

        /// Runs the search for `audio` over `folders`.
        func find(
            _ audio: String = "/m/song.mp3", lyricsFile: String? = nil, folders: [String] = ["/l"],
            embedded: Bool = false, lrclib: Bool = false
        ) -> Result<FoundLyrics, LyricsLookup.NotFound> {
            LyricsLookup.find(
                audio: audio, options: LyricsSearchOptions(file: lyricsFile), folders: folders, home: "/h",
                sources: sources(embedded: embedded, lrclib: lrclib))
        }
    }

    /// A song of one line, standing for lyrics the tags or LRCLIB gave.
    static func supplied(_ text: String) -> SuppliedLyrics {
        let line = LyricLine(start: 1000, end: 2000, text: text)
        return SuppliedLyrics(
            song: Song(metadata: SongMetadata(), lines: [line], medianLineDuration: nil), origin: .embedded(text))
    }

    @Test("--lyrics wins over a sidecar, a folder and the tags, and reads no tags")
    func givenWins() throws {
        let world = World()
        world.files = ["/m/song.lrc"]
        world.folders["/l"] = [("song.lrc", "")]
        world.embedded = Self.supplied("embedded")
        let found = try world.find(lyricsFile: "/x.lrc", embedded: true).get()
        #expect(found == FoundLyrics(content: .file("/x.lrc"), origin: .given(file: "/x.lrc")))
        #expect(world.tagReads == 0)
    }

    @Test("a sidecar wins over the folders and the tags, and reads no tags")
    func sidecarWins() throws {
        let world = World()
        world.files = ["/m/song.LRC", "/m/song.srt"]
        world.folders["/l"] = [("song.lrc", "")]
        let found = try world.find(embedded: true).get()
        #expect(found.content == .file("/m/song.LRC")) // .lrc in either case before .srt
        #expect(found.origin == .sidecar(file: "/m/song.LRC", audio: "/m/song.mp3"))
        #expect(world.tagReads == 0)
    }

    @Test("a folder match by name reads no tags; by artist and title it reads them once")
    func tagsOnlyWhenNeeded() throws {
        let world = World()
        world.folders["/l"] = [("Song.lrc", ""), ("Queen - Innuendo.lrc", "")]
        #expect(try world.find(embedded: true).get().origin == .folder(file: "/l/Song.lrc", kind: .name))
        #expect(world.tagReads == 0)
        world.tags = AudioTags(title: "Innuendo", artist: "Queen")
        let found = try world.find("/m/track01.mp3", embedded: true).get()
        #expect(found.origin == .folder(file: "/l/Queen - Innuendo.lrc", kind: .artistAndTitle))
        #expect(world.tagReads == 1)
    }

    @Test(
        "a match by [ar:]/[ti:] takes the audio's length from its tags and refuses a length 5 s off",
        arguments: [
            (292.0, "4:52", true), // equal
            (292.0, "4:57", true), // 5 s: still within
            (292.0, "4:58", false), // 6 s off
            (nil, "9:59", true), // the audio's length unknown
        ] as [(Double?, String, Bool)])
    func lengthChecked(seconds: Double?, length: String, found: Bool) {
        let world = World()
        world.tags = AudioTags(title: "Thunderstruck", artist: "AC/DC", duration: seconds)
        world.folders["/l"] = [("0001.lrc", "[ar:AC DC]\n[ti:thunderstruck]\n[length:\(length)]\n")]
        let result = world.find("/m/01.mp3")
        if found {
            #expect((try? result.get())?.origin == .folder(file: "/l/0001.lrc", kind: .tags))
        } else {
            #expect((try? result.get()) == nil)
        }
    }

    @Test("the folders come before the tags, the tags before LRCLIB, which is asked last and only when allowed")
    func laterSteps() throws {
        let world = World()
        world.tags = AudioTags(title: "T", artist: "A", duration: 100)
        world.embedded = Self.supplied("embedded")
        world.fromLRCLIB = Self.supplied("lrclib")
        world.folders["/l"] = [("A - T.lrc", "")]
        #expect(
            try world.find(embedded: true, lrclib: true).get().origin
                == .folder(file: "/l/A - T.lrc", kind: .artistAndTitle))
        world.folders["/l"] = []
        #expect(try world.find(embedded: true, lrclib: true).get().content == .supplied(Self.supplied("embedded")))
        #expect(world.lrclibQuestions.isEmpty)
        world.embedded = nil
        #expect(try world.find(embedded: true, lrclib: true).get().content == .supplied(Self.supplied("lrclib")))
        #expect(world.lrclibQuestions == [AudioIdentity(path: "/m/song.mp3", artist: "A", title: "T", length: 100_000)])
        #expect(world.tagReads == 3) // once a search, however many steps needed them
        #expect((try? world.find(embedded: true).get()) == nil) // no network unless allowed
    }

    @Test(
        "the message when nothing is found names the places looked in, and only those",
        arguments: [
            (false, false, ["/h/.lyrics"], "(looked beside it, in ~/.lyrics)"),
            (true, false, ["/l", "/h/x"], "(looked beside it, in /l, in ~/x, in its tags)"),
            (true, true, [], "(looked beside it, in its tags, on lrclib.net)"),
        ])
    func notFound(embedded: Bool, lrclib: Bool, folders: [String], looked: String) {
        let world = World()
        let result = world.find("/m/a.mp3", folders: folders, embedded: embedded, lrclib: lrclib)
        guard case .failure(let notFound) = result else {
            Issue.record("expected nothing found, got \(result)")
            return
        }
        #expect(notFound.message == "no lyrics found for /m/a.mp3 " + looked)
        // A queue names the file first, so its reason leaves the file out.
        #expect(notFound.reason == "no lyrics found " + looked)
    }
}
