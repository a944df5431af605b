import Foundation
import Testing

/// Where the lyrics of an audio file come from, through the real binary (DESIGN §10.1, §10.3): each test has its
/// own home, data and cache folders, set in the child's environment.
@Suite("Finding lyrics for an audio file", .concurrencyLimit(4))
struct FindingTests {
    /// One test's folders: a fake home, `XDG_DATA_HOME`, `XDG_CACHE_HOME`, a music folder and a lyric folder.
    struct Place {
        let root: URL
        var home: URL { root.appendingPathComponent("home") }
        var data: URL { root.appendingPathComponent("data") }
        var cache: URL { root.appendingPathComponent("cache") }
        var music: URL { root.appendingPathComponent("music") }
        var lyrics: URL { root.appendingPathComponent("lyrics") }
        /// The child's environment: only these folders, nothing of the real user's.
        var environment: [String: String] {
            ["HOME": home.path, "XDG_DATA_HOME": data.path, "XDG_CACHE_HOME": cache.path]
        }

        init() throws {
            root = try KaraokeProcess.temporaryFolder { root in
                for name in ["home", "data", "cache", "music", "lyrics"] {
                    try FileManager.default.createDirectory(
                        at: root.appendingPathComponent(name), withIntermediateDirectories: true)
                }
            }
        }

        /// Writes `text` to `name` below `folder`, making its subfolders.
        @discardableResult
        func write(_ text: String, _ name: String, in folder: URL) throws -> URL {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
            return url
        }

        /// A stand-in audio file in the music folder (`check` and `render` never play it).
        func audio(_ name: String) throws -> String { try write("not really audio\n", name, in: music).path }

        /// Runs karaoke in this place's environment.
        func run(_ arguments: [String]) throws -> KaraokeProcess.Output {
            try KaraokeProcess.run(arguments, environment: environment)
        }

        /// The index files in the cache.
        func indexFiles() -> [URL] {
            let folder = cache.appendingPathComponent("karaoke/lyrics-index")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.filter { $0.hasSuffix(".tsv") }.sorted().map { folder.appendingPathComponent($0) }
        }

        /// Removes the folders.
        func cleanUp() { try? FileManager.default.removeItem(at: root) }
    }

    /// An LRC file with one line saying `words`, and the tags given.
    static func lrc(_ words: String, tags: String = "") -> String { tags + "[00:01.00]\(words)\n[00:04.00]\n" }

    @Test("a file of a lyric folder with the audio's name is found, and check says so")
    func baseName() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("Track 07.mp3")
        try place.write(Self.lrc("from the folder"), "sub/track_07.LRC", in: place.lyrics)
        let check = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.hasSuffix(", lyrics: \(place.lyrics.path)/sub/track_07.LRC (same name)\n"), "\(check.stdout)")
        let render = try place.run([
            "render", audio, "--at", "2", "--cols", "40", "--rows", "6", "--lyrics-dir", place.lyrics.path,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("from the folder"), "\(render.stdout)")
        // Without a [ti:], the song is named after the audio, not after the folder's file.
        #expect(render.stdout.split(separator: "\n").first?.contains("Track 07") == true, "\(render.stdout)")
    }

    @Test("an Artist - Title file name matches whatever its case, spacing and punctuation")
    func artistAndTitle() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("AC_DC - Thunderstruck.mp3")
        try place.write(Self.lrc("wrong"), "AC DC - Thunder.lrc", in: place.lyrics)
        try place.write(Self.lrc("right"), "ac.dc  -  THUNDERSTRUCK!.lrc", in: place.lyrics)
        let render = try place.run([
            "render", audio, "--at", "2", "--cols", "40", "--rows", "6", "--lyrics-dir", place.lyrics.path,
        ])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("right"), "\(render.stdout)")
    }

    @Test("a file whose [ar:] and [ti:] name the song matches, whatever the file is called")
    func tags() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("Queen - Bohemian Rhapsody.mp3")
        try place.write(Self.lrc("other", tags: "[ar:Queen]\n[ti:Radio Ga Ga]\n"), "0001.lrc", in: place.lyrics)
        try place.write(
            Self.lrc("is this the real life", tags: "[ti:Bohemian Rhapsody]\n[ar:QUEEN]\n[length:05:55]\n"), "0002.lrc",
            in: place.lyrics)
        let check = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.hasSuffix("lyrics: \(place.lyrics.path)/0002.lrc (its [ar:] and [ti:] tags)\n"),
            "\(check.stdout)")
    }

    @Test("the default folders are XDG_DATA_HOME/karaoke/lyrics and ~/.lyrics, shown with ~")
    func defaultFolders() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("one.mp3")
        let other = try place.audio("two.mp3")
        try place.write(Self.lrc("data"), "karaoke/lyrics/one.lrc", in: place.data)
        try place.write(Self.lrc("home"), ".lyrics/two.lrc", in: place.home)
        let check = try place.run(["check", audio, other])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(
            check.stdout.contains("lyrics: \(place.data.path)/karaoke/lyrics/one.lrc (same name)"), "\(check.stdout)")
        #expect(check.stdout.contains("lyrics: ~/.lyrics/two.lrc (same name)"), "\(check.stdout)")
    }

    @Test("--lyrics wins over the file beside the audio and the folders; a sidecar wins over the folders")
    func order() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("song.mp3")
        let given = try place.write(Self.lrc("given"), "given.lrc", in: place.root)
        try place.write(Self.lrc("folder"), "song.lrc", in: place.lyrics)
        let folderOnly = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(folderOnly.stdout.contains("(same name)"), "\(folderOnly.stdout)")
        try place.write(Self.lrc("beside"), "song.lrc", in: place.music)
        let beside = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(beside.stdout.hasSuffix("lyrics: song.lrc beside song.mp3\n"), "\(beside.stdout)")
        let withGiven = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path, "--lyrics", given.path])
        #expect(withGiven.stdout.hasSuffix("lyrics: \(given.path) (--lyrics)\n"), "\(withGiven.stdout)")
        let render = try place.run([
            "render", audio, "--at", "2", "--cols", "40", "--rows", "6", "--lyrics", given.path,
        ])
        #expect(render.stdout.contains("given") && !render.stdout.contains("beside"), "\(render.stdout)")
    }

    @Test("no lyrics anywhere: exit 1, and the message names every place looked in")
    func notFound() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("lonely.mp3")
        try FileManager.default.createDirectory(
            at: place.home.appendingPathComponent(".lyrics"), withIntermediateDirectories: true)
        let check = try place.run(["check", audio])
        #expect(check.status == 1)
        #expect(check.stdout == "\(audio): unusable\n")
        #expect(check.stderr == "karaoke: no lyrics found for \(audio) (looked beside it, in ~/.lyrics, in its tags)\n")
        let render = try place.run(["render", audio, "--at", "1", "--lyrics-dir", place.lyrics.path])
        #expect(render.status == 1 && render.stdout.isEmpty)
        #expect(
            render.stderr
                == "karaoke: no lyrics found for \(audio) (looked beside it, in \(place.lyrics.path), in its tags)\n")
    }

    @Test("the index is written once, reused while the folder is unchanged, and refreshed when a file is added")
    func indexLife() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("Artist - Title.mp3")
        for number in 0..<50 {
            try place.write(
                Self.lrc("filler", tags: "[ar:Someone]\n[ti:Song \(number)]\n"), "\(number).lrc", in: place.lyrics)
        }
        let first = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(first.status == 1)
        let index = try #require(place.indexFiles().first)
        #expect(place.indexFiles().count == 1)
        let written = try FileManager.default.attributesOfItem(atPath: index.path)
        let text = try String(contentsOf: index, encoding: .utf8)
        #expect(text.hasPrefix("karaoke lyrics index 1\n"))

        let second = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(second.status == 1)
        let kept = try FileManager.default.attributesOfItem(atPath: index.path)
        // Not rewritten: the same file (a rewrite renames a new one over it) with the same time.
        #expect(kept[.systemFileNumber] as? Int == written[.systemFileNumber] as? Int)
        #expect(kept[.modificationDate] as? Date == written[.modificationDate] as? Date)

        try place.write(Self.lrc("found", tags: "[ar:artist]\n[ti:title]\n"), "new/zz.lrc", in: place.lyrics)
        let third = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(third.status == 0, "\(third.stderr)")
        #expect(third.stdout.hasSuffix("new/zz.lrc (its [ar:] and [ti:] tags)\n"), "\(third.stdout)")
        #expect(try String(contentsOf: index, encoding: .utf8).contains("new/zz.lrc\t"))
    }

    @Test("a damaged index is rebuilt silently, and an unwritable cache only means no index")
    func damagedIndex() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("x.mp3")
        try place.write(Self.lrc("found", tags: "[ar:A]\n[ti:B]\n"), "x.lrc", in: place.lyrics)
        #expect(try place.run(["check", audio, "--lyrics-dir", place.lyrics.path]).status == 0)
        let index = try #require(place.indexFiles().first)
        try Data("karaoke lyrics index 1\n\u{0}garbage\tgarbage".utf8).write(to: index)
        let again = try place.run(["check", audio, "--lyrics-dir", place.lyrics.path])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(try String(contentsOf: index, encoding: .utf8).contains("x.lrc\t"))

        // XDG_CACHE_HOME is a file: no cache folder can be made, and the search still works.
        let blocked = try place.write("", "not-a-folder", in: place.root)
        let output = try KaraokeProcess.run(
            ["check", audio, "--lyrics-dir", place.lyrics.path],
            environment: place.environment.merging(["XDG_CACHE_HOME": blocked.path]) { $1 })
        #expect(output.status == 0 && output.stderr.isEmpty, "\(output.stderr)")
        #expect(output.stdout.contains("(same name)"), "\(output.stdout)")
    }

    @Test("a --lyrics-dir that is not a folder is named in a warning, and the search goes on")
    func missingFolder() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = try place.audio("song.mp3")
        try place.write(Self.lrc("found"), "song.lrc", in: place.lyrics)
        let missing = place.root.appendingPathComponent("nowhere").path
        let check = try place.run(["check", audio, "--lyrics-dir", missing, "--lyrics-dir", place.lyrics.path])
        #expect(check.status == 0)
        #expect(check.stderr == "karaoke: warning: --lyrics-dir '\(missing)' is not a folder\n")
        #expect(check.stdout.contains("lyrics: \(place.lyrics.path)/song.lrc (same name)"), "\(check.stdout)")
    }

    @Test("an audio FILE that is not there is named as such, and nothing is looked for")
    func missingAudio() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = place.music.appendingPathComponent("gone.mp3").path
        let check = try place.run(["check", audio])
        #expect(check.status == 1)
        #expect(check.stderr == "karaoke: \(audio): no such file\n")
        #expect(place.indexFiles().isEmpty)
    }

    @Test("--lyrics with a lyric FILE is a usage error")
    func lyricsNeedsAudio() throws {
        let output = try KaraokeProcess.run(["check", "song.lrc", "--lyrics", "x.lrc"])
        #expect(output.status == 2)
        #expect(output.stderr.hasPrefix("karaoke: '--lyrics' goes with an audio FILE"), "\(output.stderr)")
    }

    @Test(
        "play song.wav plays the audio with the lyrics found in a lyric folder",
        .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable, "needs tmux and mpv"))
    func play() throws {
        let place = try Place()
        defer { place.cleanUp() }
        let audio = place.music.appendingPathComponent("song.wav").path
        try ToneFile.write(to: audio, seconds: 30)
        try place.write(
            Self.lrc("sung from the folder", tags: "[ti:Found In A Folder]\n"), "SONG.lrc", in: place.lyrics)
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(audio)' --lyrics-dir '\(place.lyrics.path)' --mpv-option ao=null",
            environment: place.environment)
        let screen = try session.waitFor { $0.contains { $0.contains("Found In A Folder") } }
        #expect(screen.contains { $0.contains("Found In A Folder") })
        #expect(MpvProbe.waitFor(playing: audio) != nil)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let deadline = Date().addingTimeInterval(8)
        while !MpvProbe.all(mentioning: place.music.path).isEmpty && Date() < deadline { usleep(50_000) }
        #expect(MpvProbe.all(mentioning: place.music.path).isEmpty)
    }
}
