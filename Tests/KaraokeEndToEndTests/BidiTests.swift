import Foundation
import Testing

/// Where the `fribidi` command is, when libfribidi-bin is installed (`make deps-test`).
private let fribidiCommand = ["/usr/bin/fribidi", "/bin/fribidi"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Where the system's libfribidi is, when libfribidi0 is installed (`make deps`).
private let libraryPath = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].map {
    $0 + "/libfribidi.so.0"
}.first { FileManager.default.fileExists(atPath: $0) }
private let libraryInstalled = libraryPath != nil

/// Whether a test may hide the library in a mount namespace of its own: as root, with util-linux's unshare.
private let canHideLibrary = getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")

@Suite(
    "Right-to-left lines through FriBidi (DESIGN §3.5)",
    .enabled(if: fribidiCommand != nil, "the fribidi command is missing (Debian: libfribidi-bin)"),
    .enabled(if: libraryInstalled, "libfribidi.so.0 is not installed (Debian: libfribidi0)"), .concurrencyLimit(2))
struct BidiTests {
    /// A Hebrew line with an English name and numbers, brackets and a percent sign. FriBidi shows `3 cats` as
    /// `cats 3` (the number takes the Hebrew side); the simple rule would keep `3 cats`.
    static let line = "שלום David, יש לי 3 cats (חתולים) ו-25% מהשירים"

    @Test("render of a Hebrew line with an English name and a number agrees with FriBidi")
    func renderAgreesWithFriBidi() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let song = folder.appendingPathComponent("song.lrc")
            try Data("[00:01.00]\(BidiTests.line)\n[00:09.00]סוף\n".utf8).write(to: song)
            let plain = folder.appendingPathComponent("line.txt")
            try Data((BidiTests.line + "\n").utf8).write(to: plain)
            let fribidi = try KaraokeProcess.runRaw(
                ["--nopad", "--nobreak", plain.path], executable: try #require(fribidiCommand))
            let expected = String(decoding: fribidi.stdout, as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let render = try KaraokeProcess.run(
                ["render", song.path, "--at", "2", "--cols", "80", "--rows", "10", "--format", "text"],
                environment: ["LD_DEBUG": "libs"])
            #expect(render.status == 0)
            let rows = render.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(rows.contains(expected), "FriBidi: \(expected)\nkaraoke:\n\(render.stdout)")
            #expect(render.stderr.contains("libfribidi.so.0"), "a right-to-left line loads libfribidi")
        }
    }

    @Test("render of a song without right-to-left text, and --version, do not load libfribidi")
    func notLoadedWithoutRightToLeft() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let song = folder.appendingPathComponent("song.lrc")
            try Data("[00:01.00]hello (world) 25%\n[00:05.00]end\n".utf8).write(to: song)
            let render = try KaraokeProcess.run(
                ["render", song.path, "--at", "2", "--cols", "80", "--rows", "10"], environment: ["LD_DEBUG": "libs"])
            #expect(render.status == 0)
            #expect(render.stderr.contains("libc.so")) // LD_DEBUG works here
            #expect(!render.stderr.contains("libfribidi"))
            let version = try KaraokeProcess.run(["--version"], environment: ["LD_DEBUG": "libs"])
            #expect(!version.stderr.contains("libfribidi"))
        }
    }

    @Test("check says nothing of bidi when libfribidi loads")
    func checkQuietWithLibrary() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let song = folder.appendingPathComponent("song.lrc")
            try Data("[00:01.00]\(BidiTests.line)\n[00:05.00]סוף\n".utf8).write(to: song)
            let check = try KaraokeProcess.run(["check", song.path])
            #expect(check.status == 0)
            #expect(!check.stderr.contains("libfribidi"), "\(check.stderr)")
        }
    }

    @Test(
        "without libfribidi, check warns that the simple rule orders right-to-left lines, and render still works",
        .enabled(if: canHideLibrary, "hiding libfribidi needs root and unshare (a private mount namespace)"))
    func fallbackWithoutLibrary() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let song = folder.appendingPathComponent("song.lrc")
            try Data("[00:01.00]שנת 2024\n[00:05.00]סוף\n".utf8).write(to: song)
            let latin = folder.appendingPathComponent("latin.lrc")
            try Data("[00:01.00]hello\n[00:05.00]end\n".utf8).write(to: latin)
            // The library is covered by an empty file in a mount namespace that ends with the shell.
            let script = """
                mount --bind /dev/null "$1" || exit 99
                "$2" check "$3" "$4"; echo "check $?"
                "$2" render "$3" --at 2 --cols 40 --rows 6
                """
            let raw = try KaraokeProcess.runRaw(
                [
                    "-m", "sh", "-c", script, "sh", try #require(libraryPath), KaraokeProcess.binary.path, song.path,
                    latin.path,
                ],
                executable: "/usr/bin/unshare")
            let run = KaraokeProcess.Output(
                status: raw.status, stdout: String(decoding: raw.stdout, as: UTF8.self),
                stderr: String(decoding: raw.stderr, as: UTF8.self))
            try #require(run.status == 0, "\(run.stderr)")
            let warnings = run.stderr.split(separator: "\n").filter { $0.contains("libfribidi0") }
            #expect(warnings.count == 1, "\(run.stderr)")
            #expect(
                warnings.first?.hasPrefix(song.path + ": warning: right-to-left lines need libfribidi.so.0") == true)
            #expect(warnings.first?.hasSuffix("; karaoke orders them by its simpler rule") == true)
            #expect(run.stdout.contains("check 0"), "a missing library is not the file's fault")
            #expect(run.stdout.contains("2024 תנש"), "\(run.stdout)")
        }
    }
}
