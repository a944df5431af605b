import Foundation
import KaraokeCore
import Testing

@testable import karaoke

/// Tagged audio files made by `Fixtures/tagged_audio.py` (ffmpeg and mutagen) for the suite that has this trait,
/// in a temporary folder removed when the suite ends, however it ends.
private struct TaggedAudioFiles: SuiteTrait, TestScoping {
    /// The folder of the suite running now; nil outside such a suite.
    @TaskLocal static var folder: URL?

    /// Why the files could not be made.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The script, in the fixtures folder.
    static let script = KaraokeProcess.repository
        .appendingPathComponent("Tests/KaraokeEndToEndTests/Fixtures/tagged_audio.py").path

    /// Why the script cannot run here (ffmpeg, python3 or mutagen missing: `make deps-test` installs them), or
    /// nil when it can.
    static let missing: String? = {
        guard ChildProcess.find("ffmpeg") != nil else { return "ffmpeg is missing" }
        // python3 from PATH: the one `make deps-test` installed mutagen for.
        guard
            let probe = try? KaraokeProcess.runRaw(
                ["python3", "-c", "import mutagen"], executable: "/usr/bin/env", timeout: 30),
            probe.status == 0
        else { return "python3 with mutagen is missing" }
        return nil
    }()

    /// One scope for the suite as a whole: the files are made once for all its tests.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        test.isSuite ? self : nil
    }

    /// Makes the files, runs the suite with them, and removes them.
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let made = try KaraokeProcess.runRaw(
            ["python3", Self.script, folder.path], executable: "/usr/bin/env", timeout: 120)
        guard made.status == 0 else {
            throw Unavailable(description: "tagged_audio.py failed: \(String(decoding: made.stderr, as: UTF8.self))")
        }
        try await Self.$folder.withValue(folder) { try await function() }
    }
}

extension Trait where Self == TaggedAudioFiles {
    /// The suite's tests find the tagged audio files with `fixture(_:)`.
    fileprivate static var taggedAudioFiles: Self { Self() }
}

/// The helper SwiftPM built next to the karaoke binary.
private let helper = KaraokeProcess.binary.deletingLastPathComponent().appendingPathComponent("karaoke-tags").path

/// Whether the tagged files can be made; when not, says why once, and the suites that need them are skipped.
private let taggedFilesAreAvailable: Bool = {
    guard let why = TaggedAudioFiles.missing else { return true }
    print("skipped: the tagged audio files cannot be made: \(why)")
    return false
}()

/// The fixture `name`'s path in the running suite's tagged audio files (nil, with an issue, when the suite has
/// none).
private func fixture(_ name: String) -> String? {
    guard let folder = TaggedAudioFiles.folder else {
        Issue.record("no tagged audio files here: the suite needs the .taggedAudioFiles trait")
        return nil
    }
    return folder.appendingPathComponent(name).path
}

/// Reads `name`'s tags through the helper, as karaoke does.
private func read(_ name: String) -> Result<AudioTags, TagReader.Failure>? {
    guard let path = fixture(name) else { return nil }
    return TagReader.read(path, helper: helper)
}

@Suite(
    "Reading lyrics from real tagged audio files", .enabled(if: taggedFilesAreAvailable), .taggedAudioFiles,
    .concurrencyLimit(4))
struct TagTests {
    @Test("synced lyrics in an ID3 SYLT frame become a line-timed song, sanitised")
    func sylt() throws {
        guard let result = read("sylt.mp3") else { return }
        let tags = try result.get()
        #expect(tags.title == "Lantern River")
        #expect(tags.artist == "The Tests")
        #expect(tags.album == "Fixtures")
        #expect(abs((tags.duration ?? 0) - 3) < 0.2)
        let found = try #require(tags.lyrics(fileName: "sylt.mp3"))
        #expect(found.sourceDescription == "embedded SYLT in sylt.mp3")
        let song = try #require(found.song)
        #expect(song.lines.map(\.text) == ["first [31mline", "second line", "third line"])
        #expect(song.lines.map(\.start) == [1000, 2000, 3000])
        #expect(song.lines[1].end == 2500) // the empty entry ends the line before it
    }

    @Test("a SYLT frame timed in MPEG frames is converted to milliseconds")
    func syltInFrames() throws {
        guard let result = read("frames.mp3") else { return }
        let tags = try result.get()
        // 10 frames of 1152 samples at 44.1 kHz.
        #expect(tags.syncedLines == [.init(milliseconds: 261, text: "framed")])
    }

    @Test("of several SYLT frames the lyrics one with the most lines is used; other content types are ignored")
    func severalSylt() throws {
        guard let result = read("two-sylt.mp3") else { return }
        let tags = try result.get()
        #expect(tags.syncedLines.map(\.text) == ["one", "two"])
        #expect(tags.notes.contains { $0.contains("not lyrics") })
    }

    @Test(
        "LRC held as text in USLT, Vorbis comments and MP4 is read as LRC",
        arguments: [
            ("uslt.mp3", "USLT"),
            ("lyrics.flac", "Vorbis LYRICS"),
            ("lyrics.ogg", "Vorbis LYRICS"),
            ("lyrics.opus", "Vorbis SYNCEDLYRICS"),
            ("lyrics.m4a", "MP4 ©lyr"),
        ])
    func lrcText(file: String, tag: String) throws {
        guard let result = read(file) else { return }
        let found = try #require(try result.get().lyrics(fileName: file))
        #expect(found.tag == tag)
        let song = try #require(found.song)
        #expect(song.lines.map(\.text) == ["first lrc line", "second lrc line"])
        #expect(song.lines.map(\.start) == [1000, 2000])
    }

    @Test("untimed USLT text is given as plain lyrics")
    func plain() throws {
        guard let result = read("plain.mp3") else { return }
        let found = try #require(try result.get().lyrics(fileName: "plain.mp3"))
        guard case .plain(let lines) = found.content else {
            Issue.record("expected plain lyrics")
            return
        }
        #expect(lines == ["just words", "no times"])
    }

    @Test("audio without tags has a length and no lyrics")
    func untagged() throws {
        guard let result = read("base.mp3") else { return }
        let tags = try result.get()
        #expect(tags.lyrics(fileName: "base.mp3") == nil)
        #expect(tags.duration != nil)
    }

    @Test("a SYLT frame claiming about 4 GB is skipped without the helper allocating it")
    func lyingFrameSize() throws {
        guard let result = read("huge-sylt.mp3") else { return }
        #expect(try result.get().syncedLines.isEmpty)
    }

    @Test(
        "tags that lie about their size are read in 256 MB of address space",
        arguments: ["huge-sylt.mp3", "huge-tag.mp3"])
    func lyingSizesUnderMemoryLimit(file: String) throws {
        guard let path = fixture(file) else { return }
        // Under a limit far below the claimed sizes an allocation of them would fail and the helper abort.
        let run = try KaraokeProcess.runRaw(["--as=268435456", helper, path], executable: "/usr/bin/prlimit")
        #expect(run.reason == .exit)
        #expect(run.status == 0 || run.status == 4, "\(String(decoding: run.stderr, as: UTF8.self))")
    }

    @Test("more than 100,000 SYLT lines are cut at 100,000 with a note")
    func syncedLinesCapped() throws {
        guard let result = read("many.mp3") else { return }
        let tags = try result.get()
        #expect(tags.syncedLines.count == 100_000)
        #expect(tags.notes.contains { $0.contains("more than 100000 lines") })
    }

    @Test("lyric texts past 16 MB of output are left out with a note")
    func outputCapped() throws {
        guard let result = read("large.mp3") else { return }
        let tags = try result.get()
        #expect(tags.lyricTexts.count == 1)
        #expect(tags.notes.contains { $0.contains("larger than 16 MB") })
    }

    @Test("random bytes named .mp3 are not audio, with a clear message")
    func randomBytes() throws {
        guard let result = read("random.mp3") else { return }
        guard case .failure(let failure) = result else {
            Issue.record("random bytes read as tags")
            return
        }
        #expect(failure.kind == .notAudio)
        #expect(failure.message.hasSuffix("random.mp3: not an audio file karaoke can read tags from"))
    }

    @Test("a file cut inside its tag gives what could be read, or a message, never a crash")
    func truncated() throws {
        guard let result = read("truncated.mp3") else { return }
        switch result {
        case .success(let tags): #expect(tags.syncedLines.isEmpty)
        case .failure(let failure): #expect(failure.kind == .notAudio)
        }
    }

    @Test("the helper escapes control characters and writes invalid UTF-8 as U+FFFD")
    func helperJSONEscaping() throws {
        guard let path = fixture("sylt.mp3") else { return }
        let run = try KaraokeProcess.runRaw([path], executable: helper)
        #expect(run.status == 0)
        let text = String(decoding: run.stdout, as: UTF8.self)
        #expect(text.contains(#"first \u001b[31mline"#))
        #expect(!run.stdout.contains(0x1B))
    }

    @Test("text that is invalid in its declared encoding gives valid JSON and no made-up title")
    func invalidText() throws {
        guard let result = read("bad-text.mp3") else { return }
        let tags = try result.get() // valid UTF-8 JSON, or this fails
        #expect(tags.title == nil)
        #expect(tags.duration != nil)
    }
}

/// Writes an executable script with a descriptor closed on exec: a process that tests running beside this one
/// start meanwhile must not inherit it open for writing, or running the script fails with ETXTBSY.
private func writeExecutable(_ path: String, _ text: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
    guard fd >= 0 else { throw CocoaError(.fileWriteUnknown) }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    guard write(fd, bytes, bytes.count) == bytes.count else { throw CocoaError(.fileWriteUnknown) }
}

/// The search of DESIGN §10.1 through the binary, with the tag reader wired in: no lyric file anywhere, so only
/// the tags can give the lyrics. HOME and the XDG folders point at an empty folder, so no default lyric folder
/// of the machine's user takes part.
@Suite(
    "Finding lyrics in the audio file's own tags", .enabled(if: taggedFilesAreAvailable), .taggedAudioFiles,
    .concurrencyLimit(4))
struct EmbeddedLyricsSearchTests {
    /// Runs `karaoke ARGUMENTS` in an environment with no lyric folders and a private cache, all in a home of
    /// its own that is removed afterwards.
    static func runIsolated(_ arguments: [String]) throws -> KaraokeProcess.Output {
        try KaraokeProcess.withTemporaryFolder { home in
            try KaraokeProcess.run(
                arguments,
                environment: [
                    "HOME": home.path, "XDG_DATA_HOME": home.path + "/data", "XDG_CACHE_HOME": home.path + "/cache",
                ])
        }
    }

    @Test("check names the SYLT frame it read the lyrics from")
    func checkNamesTheFrame() throws {
        guard let path = fixture("sylt.mp3") else { return }
        let run = try Self.runIsolated(["check", path])
        #expect(run.status == 0)
        #expect(run.stdout.contains("3 lines"))
        #expect(run.stdout.hasSuffix("lyrics: embedded SYLT in sylt.mp3\n"))
    }

    @Test("render shows the lyrics of a USLT frame that holds LRC")
    func renderUSLT() throws {
        guard let path = fixture("uslt.mp3") else { return }
        let check = try Self.runIsolated(["check", path])
        #expect(check.stdout.contains("lyrics: embedded USLT in uslt.mp3"))
        let render = try Self.runIsolated(["render", path, "--at", "0", "--format", "json"])
        #expect(render.status == 0)
        #expect(render.stdout.contains("\"kind\":\"lyric\""))
    }

    @Test(
        "a plain .txt beside a tagged audio turns its pages over the length the tags give",
        arguments: [(0.5, "page 1/3"), (1.5, "page 2/3"), (2.9, "page 3/3")])
    func plainSidecarPages(time: Double, page: String) throws {
        guard let base = fixture("base.mp3") else { return }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let audio = folder.appendingPathComponent("song.mp3").path
        try FileManager.default.copyItem(atPath: base, toPath: audio)
        // 30 lines at 13 rows a page (60 × 16): 3 pages over the audio's 3 s.
        try ((1...30).map { "words \($0)" }.joined(separator: "\n") + "\n").write(
            toFile: folder.appendingPathComponent("song.txt").path, atomically: true, encoding: .utf8)
        let render = try Self.runIsolated(["render", audio, "--at", String(time), "--cols", "60", "--rows", "16"])
        #expect(render.status == 0, "\(render.stderr)")
        #expect(render.stdout.contains("lyrics not timed · \(page)"), "\(render.stdout)")
    }

    @Test("untimed lyrics in the tags are plain lyrics: check says so, render shows them as a page not timed")
    func plainIsShownAsPages() throws {
        guard let path = fixture("plain.mp3") else { return }
        let run = try Self.runIsolated(["check", path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("plain lyrics, not timed"), "\(run.stdout)")
        #expect(run.stdout.contains("lyrics: embedded USLT in plain.mp3"), "\(run.stdout)")
        let render = try Self.runIsolated(["render", path, "--at", "0"])
        #expect(render.status == 0)
        #expect(render.stdout.contains("lyrics not timed"), "\(render.stdout)")
    }
}

/// `fetch AUDIO` asks LRCLIB for the song the tags name (DESIGN §11), not the file's name: `sylt.mp3` says
/// nothing, its tags say "The Tests — Lantern River".
@Suite(
    "Fetching for a tagged audio file", .enabled(if: taggedFilesAreAvailable && LRCLIBServer.isAvailable),
    .taggedAudioFiles, .concurrencyLimit(4))
struct TaggedFetchTests {
    @Test("fetch asks for the artist and title of the audio's tags")
    func fetchUsesTags() throws {
        guard let path = fixture("sylt.mp3") else { return }
        let server = try LRCLIBServer()
        defer { server.stop() }
        let cache = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: cache) }
        let run = try KaraokeProcess.run(
            ["fetch", path, "--lrclib-url", server.url],
            environment: ["XDG_CACHE_HOME": cache.path, "no_proxy": "*", "NO_PROXY": "*"])
        #expect(run.status == 1)
        #expect(run.stderr == "karaoke: The Tests — Lantern River: no lyrics found on 127.0.0.1:\(server.port)\n")
    }
}

@Suite("Running the tag helper", .concurrencyLimit(4))
struct TagHelperTests {
    @Test("a missing file is named with the reason")
    func missingFile() throws {
        let result = TagReader.read("/nonexistent/song.mp3", helper: helper)
        guard case .failure(let failure) = result else {
            Issue.record("a missing file was read")
            return
        }
        #expect(failure.kind == .unreadable)
        #expect(failure.message == "/nonexistent/song.mp3: no such file or directory")
    }

    @Test("a missing helper says where karaoke looked for it")
    func missingHelper() throws {
        let result = TagReader.read("song.mp3", helper: "/nonexistent/karaoke-tags")
        guard case .failure(let failure) = result else {
            Issue.record("read without a helper")
            return
        }
        #expect(failure.kind == .helperMissing)
        #expect(failure.message.hasPrefix("reading tags needs karaoke-tags beside karaoke ("))
    }

    @Test(
        "a helper that crashes, hangs or prints garbage gives a message naming the audio file",
        arguments: [
            ("kill -SEGV $$", "ended by signal 11"),
            // exec: the helper itself hangs, so stopping it leaves no sleep of its own behind.
            ("exec sleep 30", "took longer than 1 s"),
            ("echo '{not json'", "malformed JSON"),
            ("head -c 20000000 /dev/zero", "printed more than 17 MB"),
            ("echo boom >&2; exit 9", "exited with status 9: boom"),
        ])
    func brokenHelper(script: String, reason: String) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fake = folder.appendingPathComponent("karaoke-tags")
        try writeExecutable(fake.path, "#!/bin/sh\n\(script)\n")
        let started = Date()
        var result = TagReader.read("song.mp3", helper: fake.path, timeout: 1)
        // Another test's process, forked between our write and its exec, may hold the script open for a moment
        // (ETXTBSY): the test's race, not karaoke's, since an installed helper is never being written.
        for _ in 0..<20 {
            guard case .failure(let failure) = result, failure.message.contains("Text file busy") else { break }
            usleep(50_000)
            result = TagReader.read("song.mp3", helper: fake.path, timeout: 1)
        }
        #expect(Date().timeIntervalSince(started) < 25) // the hung helper was stopped, not waited for
        guard case .failure(let failure) = result else {
            Issue.record("a broken helper gave tags")
            return
        }
        #expect(failure.kind == .helperFailed)
        #expect(failure.message.hasPrefix("song.mp3: could not read its tags ("))
        #expect(failure.message.contains(reason), "\(failure.message)")
    }

    @Test("the karaoke binary does not link TagLib: it stays in the helper (DESIGN §10.2)")
    func karaokeDoesNotLinkTagLib() throws {
        let run = try KaraokeProcess.runRaw([KaraokeProcess.binary.path], executable: "/usr/bin/ldd")
        let libraries = String(decoding: run.stdout, as: UTF8.self)
        #expect(run.status == 0)
        #expect(!libraries.contains("libtag"))
    }
}
