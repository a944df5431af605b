import Foundation
import Testing

/// The binary as a user runs it without a terminal: render, check, help, and the exit codes of DESIGN §1.
@Suite("The karaoke command", .concurrencyLimit(4))
struct CommandLineTests {
    @Test("--help and --version print and exit 0")
    func helpAndVersion() throws {
        let help = try KaraokeProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("karaoke play FILE"))
        #expect(help.stdout.contains("karaoke render FILE --at SECONDS"))
        let version = try KaraokeProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("karaoke "))
        for command in ["play", "render", "check"] {
            let sub = try KaraokeProcess.run([command, "--help"])
            #expect(sub.status == 0, "\(command) --help")
            #expect(sub.stdout.contains("Usage: karaoke \(command)"))
        }
    }

    @Test(
        "a usage error exits 2 with a suggestion and no stack trace",
        arguments: [
            (
                ["render", KaraokeProcess.song("lantern-river.lrc"), "--at", "3", "--colr", "never"],
                "did you mean '--color'?"
            ),
            (["rendr"], "did you mean 'render'?"),
            (["render", KaraokeProcess.song("lantern-river.lrc")], "needs '--at SECONDS'"),
            (["render", KaraokeProcess.song("lantern-river.lrc"), "--at", "3", "--fps", "500"], "'--fps'"),
            (["check"], "at least one FILE"),
        ])
    func usageErrors(arguments: [String], message: String) throws {
        let result = try KaraokeProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("karaoke: "))
        #expect(result.stderr.contains(message))
        #expect(result.stdout.isEmpty)
    }

    @Test("a number's range reads the same in the help and in the refusal of a value outside it")
    func rangeInHelpAndRefusal() throws {
        let help = try KaraokeProcess.run(["play", "--help"])
        #expect(help.stdout.contains("(1…120, default 30)"))
        let refusal = try KaraokeProcess.run([
            "render", KaraokeProcess.song("lantern-river.lrc"), "--at", "3", "--fps", "121",
        ])
        #expect(refusal.status == 2)
        #expect(refusal.stderr == "karaoke: bad value '121' for '--fps'; expected a whole number from 1 to 120\n")
    }

    @Test("render --format text prints exactly the requested rows")
    func renderText() throws {
        let result = try KaraokeProcess.run([
            "render", KaraokeProcess.song("lantern-river.lrc"), "--at", "18.5",
            "--cols", "40", "--rows", "14",
        ])
        #expect(result.status == 0)
        let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == 14)
        #expect(rows.allSatisfy { !$0.hasSuffix(" ") })
        #expect(rows[0].contains("Lantern River — The Karaoke Band"))
        #expect(rows[13].hasPrefix("▶ 0:18 / 1:40"))
    }

    @Test("render without a terminal and without a size is 80×24")
    func renderDefaultSize() throws {
        let result = try KaraokeProcess.run([
            "render", KaraokeProcess.song("paper-boats.lrc"), "--at", "9", "--format", "json",
        ])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["cols"] as? Int == 80)
        #expect(json["rows"] as? Int == 24)
    }

    @Test("render --format json has the shape of DESIGN §5")
    func renderJSON() throws {
        let result = try KaraokeProcess.run([
            "render", KaraokeProcess.song("paper-boats.lrc"), "--at", "9.3",
            "--cols", "60", "--rows", "12", "--format", "json",
        ])
        #expect(result.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["time"] as? Double == 9.3)
        let screen = try #require(json["screen"] as? [[String: Any]])
        #expect(screen.count == 12)
        #expect(screen.enumerated().allSatisfy { $0.element["row"] as? Int == $0.offset })
        #expect(screen.first?["kind"] as? String == "title")
        #expect(screen.last?["kind"] as? String == "status")
        let kinds = Set(screen.compactMap { $0["kind"] as? String })
        #expect(kinds.isSubset(of: ["title", "lyric", "translation", "status", "notice", "blank"]))
        let lyrics = screen.filter { $0["kind"] as? String == "lyric" }
        #expect(!lyrics.isEmpty)
        var sawPartial = false
        for row in lyrics {
            let line = try #require(row["line"] as? Int)
            #expect(line >= 0)
            let cells = try #require(row["cells"] as? [[String: Any]])
            var lastColumn = -1
            for cell in cells {
                let column = try #require(cell["col"] as? Int)
                let fill = try #require(cell["fill"] as? Double)
                #expect(column > lastColumn)
                lastColumn = column
                #expect((0...1).contains(fill))
                #expect((fill * 1000).rounded() / 1000 == fill)
                #expect([1, 2].contains(cell["width"] as? Int))
                #expect(cell["text"] is String)
                if fill > 0 && fill < 1 { sawPartial = true }
            }
        }
        #expect(sawPartial, "mid-word at 9.3 s one cell is part sung")
    }

    @Test("render --format ansi colours cells, and NO_COLOR or --color never leaves only attributes")
    func renderANSI() throws {
        let args = [
            "render", KaraokeProcess.song("lantern-river.lrc"), "--at", "18.5", "--cols", "40", "--rows", "14",
            "--format", "ansi",
        ]
        let colour = try KaraokeProcess.run(args, environment: ["NO_COLOR": ""])
        #expect(colour.status == 0)
        #expect(colour.stdout.contains("\u{1B}[0;38;2;"))
        let noColor = try KaraokeProcess.run(args, environment: ["NO_COLOR": "1"])
        #expect(!noColor.stdout.contains("38;2;"))
        #expect(noColor.stdout.contains("\u{1B}[0;1m"))
        let never = try KaraokeProcess.run(args + ["--color", "never"])
        #expect(never.stdout == noColor.stdout)
    }

    @Test("check prints a summary per file and exits 0 for the bundled songs")
    func checkBundledSongs() throws {
        let songs = ["desert-stars.lrc", "lantern-river.lrc", "paper-boats.lrc", "sakura-station.lrc"]
        let result = try KaraokeProcess.run(["check"] + songs.map(KaraokeProcess.song))
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.count == songs.count)
        #expect(
            lines[2].hasSuffix("paper-boats.lrc: 14 lines, 14 word-timed, 1:10, \"Paper Boats — The Karaoke Band\""))
    }

    @Test("check reports a bad line as FILE:LINE:COL and --strict turns it into a failure")
    func checkWarnings() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bad.lrc")
        try "[ti:Bad]\n[00:01.00]fine\n[01:7x.20]broken\n[00:05.00]also fine\n".write(
            to: file, atomically: true, encoding: .utf8)
        let lenient = try KaraokeProcess.run(["check", file.path])
        #expect(lenient.status == 0)
        #expect(lenient.stderr.contains("bad.lrc:3:1: warning: malformed timestamp '[01:7x.20]'"))
        #expect(lenient.stdout.contains("2 lines"))
        let strict = try KaraokeProcess.run(["check", "--strict", file.path])
        #expect(strict.status == 1)
    }

    @Test(
        "an unusable file is a clear error with exit 1, and the other files are still checked",
        arguments: [
            ("missing", "no such file"),
            ("directory", "is a directory"),
            ("empty", "no timed lyric line"),
            ("binary", "not a text file"),
            ("metadata-only", "no timed lyric line"),
            ("too-big", "2.0 MB is over the --max-size limit of 1.0 MB"),
        ])
    func unusableFiles(kind: String, message: String) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(kind).path
        switch kind {
        case "directory": try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        case "empty": try #require(FileManager.default.createFile(atPath: path, contents: Data()))
        case "binary":
            try #require(
                FileManager.default.createFile(atPath: path, contents: Data([0x7F, 0x45, 0x4C, 0x46, 0, 0, 1, 2])))
        case "metadata-only": try "[ti:Nothing]\n[ar:Nobody]\n".write(toFile: path, atomically: true, encoding: .utf8)
        case "too-big":
            try #require(
                FileManager.default.createFile(atPath: path, contents: Data(repeating: 0x41, count: 2 * 1_048_576)))
        default: break
        }
        let good = KaraokeProcess.song("lantern-river.lrc")
        let check = try KaraokeProcess.run(["check", "--max-size", "1", path, good])
        #expect(check.status == 1)
        // check reads a folder's lyric files (here none); render takes one file.
        let checkMessage = kind == "directory" ? "no lyric files in this folder" : message
        #expect(check.stderr.contains("karaoke: \(path): \(checkMessage)"))
        #expect(check.stdout.contains("lantern-river.lrc: 18 lines"))
        let render = try KaraokeProcess.run(["render", path, "--at", "1", "--max-size", "1"])
        #expect(render.status == 1)
        #expect(render.stderr.contains(message))
        #expect(render.stdout.isEmpty)
    }

    @Test("control characters in a lyric file never reach the output, in any command")
    func controlCharactersStripped() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("evil.lrc")
        let text =
            "[ti:Evil\u{1B}]0;pwned\u{07}]\n[00:01.00]copy \u{1B}]52;c;aGVsbG8=\u{07} me\u{9B}31m\u{202E}now\n[00:04.00]end\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        for format in ["text", "json", "ansi"] {
            let result = try KaraokeProcess.run(["render", file.path, "--at", "2", "--format", format])
            #expect(result.status == 0)
            let forbidden = result.stdout.unicodeScalars.filter {
                ($0.value < 0x20 && $0 != "\n" && $0.value != 0x1B) || (0x7F...0x9F).contains($0.value)
                    || (0x202A...0x202E).contains($0.value)
            }
            #expect(forbidden.isEmpty, "\(format)")
            // Only the program's own SGR sequences start with ESC: never the file's OSC 52.
            #expect(!result.stdout.contains("\u{1B}]"))
            let visible = result.stdout.replacingOccurrences(
                of: "\u{1B}\\[[0-9;]*m", with: "",
                options: .regularExpression)
            #expect(visible.contains("]52;c;aGVsbG8="), "\(format)")
        }
        let check = try KaraokeProcess.run(["check", file.path])
        #expect(!check.stdout.contains("\u{1B}"))
        #expect(!check.stderr.contains("\u{1B}"))
    }

    @Test("play without a terminal exits 2 and points to render")
    func playWithoutTerminal() throws {
        let result = try KaraokeProcess.run(["play", KaraokeProcess.song("lantern-river.lrc")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("karaoke render"))
    }

    @Test("check of a folder checks every lyric file in it, sorted; a folder without any is unusable")
    func checkFolder() throws {
        let folder = try KaraokeProcess.temporaryFolder { folder in
            for name in ["b.lrc", "a.SRT"] {
                try FileManager.default.copyItem(
                    atPath: KaraokeProcess.song(name == "b.lrc" ? "paper-boats.lrc" : "harbour-bells.srt"),
                    toPath: folder.appendingPathComponent(name).path)
            }
            try "not lyrics".write(to: folder.appendingPathComponent("notes.md"), atomically: true, encoding: .utf8)
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("empty"), withIntermediateDirectories: false)
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try KaraokeProcess.run(["check", folder.path + "/"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?.hasPrefix(folder.path + "/a.SRT: ") == true)
        #expect(lines.last?.hasPrefix(folder.path + "/b.lrc: 14 lines") == true)
        let empty = try KaraokeProcess.run(["check", folder.appendingPathComponent("empty").path])
        #expect(empty.status == 1)
        #expect(empty.stdout == "\(folder.path)/empty: unusable\n")
        #expect(empty.stderr.hasPrefix("karaoke: \(folder.path)/empty: no lyric files in this folder (.lrc"))
    }

    @Test("writing into a folder that does not exist names the folder, in every command that writes a file")
    func missingOutputFolder() throws {
        let convert = try KaraokeProcess.run([
            "convert", KaraokeProcess.song("lantern-river.lrc"), "--to", "srt", "-o", "/nonexistent-karaoke/x.srt",
        ])
        #expect(convert.status == 1)
        #expect(convert.stderr.hasSuffix("\nkaraoke: /nonexistent-karaoke: no such folder to write x.srt in\n"))
    }
}
