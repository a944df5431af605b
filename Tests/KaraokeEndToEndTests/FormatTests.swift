import Foundation
import Testing

/// Every lyric format and legacy encodings through the real binary: `check` and `render` read them all.
@Suite("Lyric formats and encodings from the command line", .concurrencyLimit(4))
struct FormatTests {
    @Test(
        "check accepts every bundled song, whatever its format",
        arguments: [
            "lantern-river.lrc", "paper-boats.lrc", "sakura-station.lrc", "desert-stars.lrc",
            "harbour-bells.srt", "harbour-bells.txt", "harbour-bells.ttml",
        ])
    func bundledSongsCheck(name: String) throws {
        let output = try KaraokeProcess.run(["check", "--strict", KaraokeProcess.song(name)])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("6 lines") || !name.hasPrefix("harbour"), "\(output.stdout)")
    }

    @Test("the same song in three formats draws the same lyric rows", arguments: ["srt", "txt", "ttml"])
    func sameSongSameRows(ext: String) throws {
        func lyricRows(_ name: String) throws -> [String] {
            let output = try KaraokeProcess.run([
                "render", KaraokeProcess.song(name), "--at", "15", "--cols", "80",
                "--rows", "20", "--no-translation", "--align", "left",
            ])
            #expect(output.status == 0)
            // The title differs (SRT has none); the lyric rows must not.
            return output.stdout.components(separatedBy: "\n").dropFirst().dropLast(2)
                .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        #expect(try lyricRows("harbour-bells.\(ext)") == lyricRows("harbour-bells.srt"))
    }

    /// `text` written in `encoding` by the iconv program, as a file in a new folder.
    func legacyFile(_ text: String, encoding: String, name: String) throws -> URL {
        let folder = try KaraokeProcess.temporaryFolder { folder in
            let source = folder.appendingPathComponent("utf8.txt"), target = folder.appendingPathComponent(name)
            try text.write(to: source, atomically: true, encoding: .utf8)
            let iconv = Process()
            iconv.executableURL = URL(fileURLWithPath: "/usr/bin/iconv")
            iconv.arguments = ["-f", "UTF-8", "-t", encoding, "-o", target.path, source.path]
            try iconv.run()
            iconv.waitUntilExit()
            #expect(iconv.terminationStatus == 0)
        }
        return folder.appendingPathComponent(name)
    }

    @Test(
        "a GBK file without --encoding: one warning naming the guess, and the right text",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/iconv")))
    func guessesGBK() throws {
        let file = try legacyFile(
            "[ti:晚风]\n[00:01.00]晚风吹过城市的灯火\n[00:04.00]我们一起唱到天亮\n",
            encoding: "GBK", name: "wind.lrc")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let check = try KaraokeProcess.run(["check", file.path])
        #expect(check.status == 0)
        #expect(check.stderr.contains("warning: not UTF-8; read as GB18030, a guess (--encoding NAME chooses another)"))
        #expect(check.stdout.contains("\"晚风\""))
        let render = try KaraokeProcess.run(["render", file.path, "--at", "2", "--cols", "40", "--rows", "10"])
        #expect(render.stdout.contains("晚风吹过城市的灯火"))
    }

    @Test(
        "a Shift_JIS file with --encoding reads without a warning; a wrong one is refused clearly",
        .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/iconv")))
    func namedShiftJIS() throws {
        let file = try legacyFile("[00:01.00]さくらの花が咲いている\n", encoding: "SHIFT_JIS", name: "sakura.lrc")
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let render = try KaraokeProcess.run([
            "render", file.path, "--at", "2", "--cols", "40", "--rows", "8",
            "--encoding", "SHIFT_JIS",
        ])
        #expect(render.status == 0)
        #expect(render.stderr.isEmpty)
        #expect(render.stdout.contains("さくらの花が咲いている"))
        let wrong = try KaraokeProcess.run(["check", file.path, "--encoding", "UTF-8"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("not valid UTF-8 (byte "))
        let unknown = try KaraokeProcess.run(["check", file.path, "--encoding", "KLINGON-8"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown encoding 'KLINGON-8'"))
    }

    @Test("a subtitle file with no usable cue says which format it was read as")
    func unusableSubtitle() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.vtt")
        try "WEBVTT\n\nnot a cue\n".write(to: file, atomically: true, encoding: .utf8)
        let output = try KaraokeProcess.run(["check", file.path])
        #expect(output.status == 1)
        #expect(output.stderr.contains("no timed lyric line (read as WebVTT)"))
    }
}

/// `karaoke convert`: any format in, LRC, Enhanced LRC, SRT or WebVTT out; nothing overwritten unasked.
@Suite("Converting lyric files", .concurrencyLimit(4))
struct ConvertTests {
    @Test("a TTML duet to Enhanced LRC on stdout keeps words, singers and translations, and reads back")
    func ttmlToElrc() throws {
        let output = try KaraokeProcess.run(["convert", KaraokeProcess.song("harbour-bells.ttml"), "--to", "elrc"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.contains("[ti:Harbour Bells]"))
        #expect(output.stdout.contains("[00:02.00]v1: <00:02.00>The <"))
        #expect(output.stdout.contains("[00:24.00]D: <00:24.00>And <"))
        #expect(output.stdout.contains("港口的钟声低低地响"))
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bells.lrc")
        try output.stdout.write(to: file, atomically: true, encoding: .utf8)
        let check = try KaraokeProcess.run(["check", "--strict", file.path])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("6 lines, 6 word-timed"))
    }

    @Test("what the target cannot hold is named in a warning on stderr")
    func lossesAreWarned() throws {
        let output = try KaraokeProcess.run(["convert", KaraokeProcess.song("paper-boats.lrc"), "--to", "srt"])
        #expect(output.status == 0)
        #expect(output.stdout.hasPrefix("1\n00:00:"))
        #expect(output.stderr.contains("paper-boats.lrc: warning: "))
        #expect(output.stderr.contains("word timing"))
    }

    @Test("-o writes a file; an existing one is kept unless --force")
    func neverOverwritesUnasked() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("lantern.vtt")
        let first = try KaraokeProcess.run([
            "convert", KaraokeProcess.song("lantern-river.lrc"), "--to", "vtt", "-o", out.path,
        ])
        #expect(first.status == 0)
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("WEBVTT"))
        try "precious\n".write(to: out, atomically: true, encoding: .utf8)
        let refused = try KaraokeProcess.run([
            "convert", KaraokeProcess.song("lantern-river.lrc"), "--to", "vtt", "-o", out.path,
        ])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("exists; --force replaces it"))
        #expect(try String(contentsOf: out, encoding: .utf8) == "precious\n")
        let forced = try KaraokeProcess.run([
            "convert", KaraokeProcess.song("lantern-river.lrc"), "--to", "vtt",
            "-o", out.path, "--force",
        ])
        #expect(forced.status == 0)
        #expect(try String(contentsOf: out, encoding: .utf8).hasPrefix("WEBVTT"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["lantern.vtt"], "no temporary file left: \(leftovers)")
    }

    @Test(
        "convert's usage errors",
        arguments: [
            (["convert", "x.lrc"], "needs '--to FORMAT'"),
            (["convert", "x.lrc", "--to", "mp3"], "bad value 'mp3' for '--to'"),
            (["convert", "--to", "lrc"], "'convert' needs a FILE"),
            (["convert", "x.lrc", "--to", "lrc", "--at", "1"], "unknown option '--at'"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let output = try KaraokeProcess.run(arguments)
        #expect(output.status == 2)
        #expect(output.stderr.contains(message), "\(output.stderr)")
    }
}
