import KaraokeCore
import Testing

@Suite struct MP3GFilesTests {
    @Test(
        arguments: [
            ("song.mp3", ["song.mp3", "song.cdg"], "song.cdg"),
            ("song.mp3", ["song.mp3", "song.CDG"], "song.CDG"),
            ("/music/Song.MP3", ["Song.MP3", "Song.Cdg", "other.cdg"], "Song.Cdg"),
            ("a.b.mp3", ["a.b.mp3", "a.cdg", "a.b.cdg"], "a.b.cdg"),
            ("song.mp3", ["song.mp3", "song.lrc", "songs.cdg"], nil),
            ("song.ogg", ["song.ogg", "song.cdg.bak"], nil),
        ] as [(String, [String], String?)])
    func graphicsBesideAudioHaveItsBaseNameInAnyCase(audio: String, names: [String], expected: String?) {
        #expect(MP3GFiles.graphics(forAudio: audio, among: names) == expected)
    }

    @Test(
        arguments: [
            ("song.cdg", ["song.cdg", "song.ogg", "song.mp3"], "song.mp3"),
            ("song.CDG", ["song.CDG", "song.FLAC"], "song.FLAC"),
            ("dir/song.cdg", ["song.cdg", "song.txt"], nil),
            ("song.cdg", ["song.cdg", "Song.mp3"], nil),
        ] as [(String, [String], String?)])
    func audioBesideGraphicsFollowsTheAudioExtensionOrder(graphics: String, names: [String], expected: String?) {
        #expect(MP3GFiles.audio(forGraphics: graphics, among: names) == expected)
    }

    @Test(arguments: ["a.cdg", "A.CDG", "x/y.Cdg"]) func graphicsAreKnownByExtensionInAnyCase(path: String) {
        #expect(MP3GFiles.isGraphics(path))
        #expect(!MP3GFiles.isArchive(path))
    }

    @Test(arguments: ["a.zip", "A.ZIP", "dir.cdg/x.Zip"]) func archivesAreKnownByExtensionInAnyCase(path: String) {
        #expect(MP3GFiles.isArchive(path))
        #expect(!MP3GFiles.isGraphics(path))
    }

    private func entry(_ name: String, size: Int? = 100, regular: Bool = true) -> MP3GFiles.ArchiveEntry {
        MP3GFiles.ArchiveEntry(name: name, size: size, isRegular: regular)
    }

    @Test func aZipOfOneAudioAndOneGraphicsPairsThem() {
        let result = MP3GFiles.pair(in: [entry("Artist - Song.mp3"), entry("Artist - Song.cdg")])
        #expect(result == .success(.init(audio: "Artist - Song.mp3", graphics: "Artist - Song.cdg")))
    }

    @Test func theAudioWithTheGraphicsNameWinsOverOthers() {
        let result = MP3GFiles.pair(in: [entry("intro.mp3"), entry("sub/track.CDG"), entry("sub/track.ogg")])
        #expect(result == .success(.init(audio: "sub/track.ogg", graphics: "sub/track.CDG")))
    }

    @Test func foldersHiddenFilesAndMacCopiesAreLeftOut() {
        let result = MP3GFiles.pair(in: [
            entry("song.cdg/", regular: false), entry("__MACOSX/._song.cdg"), entry(".song.cdg"),
            entry("song.cdg"), entry("__MACOSX/._song.mp3"), entry("song.mp3"),
        ])
        #expect(result == .success(.init(audio: "song.mp3", graphics: "song.cdg")))
    }

    @Test(
        arguments: [
            ([], MP3GFiles.ArchiveProblem.noGraphics),
            (["song.mp3", "readme.txt"], .noGraphics),
            (["song.cdg"], .noAudio),
            (["a.cdg", "b.cdg", "a.mp3"], .severalGraphics(2)),
            (["song.cdg", "one.mp3", "two.mp3"], .severalAudio(2)),
        ] as [([String], MP3GFiles.ArchiveProblem)])
    func anArchiveThatIsNotOneSongSaysWhy(names: [String], problem: MP3GFiles.ArchiveProblem) {
        #expect(MP3GFiles.pair(in: names.map { entry($0) }) == .failure(problem))
        #expect(!problem.message.isEmpty)
    }

    @Test func graphicsLargerThanAnySongAreRefusedFromTheirSize() {
        let size = MP3GFiles.largestGraphics + 1
        #expect(MP3GFiles.pair(in: [entry("s.cdg", size: size), entry("s.mp3")]) == .failure(.graphicsTooLarge(size)))
        #expect(MP3GFiles.pair(in: [entry("s.cdg", size: nil), entry("s.mp3")]).map(\.graphics) == .success("s.cdg"))
    }
}
