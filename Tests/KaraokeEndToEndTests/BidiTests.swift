import Foundation
import Testing

/// Where the `fribidi` command is, when libfribidi-bin is installed (`make deps-test`).
private let fribidiCommand = ["/usr/bin/fribidi", "/bin/fribidi"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Whether the system has libfribidi for karaoke to load (`make deps` installs libfribidi0).
private let libraryInstalled = ["/usr/lib/x86_64-linux-gnu", "/usr/lib/aarch64-linux-gnu", "/usr/lib"].contains {
    FileManager.default.fileExists(atPath: $0 + "/libfribidi.so.0")
}

@Suite(
    "Right-to-left lines through FriBidi (DESIGN §3.5)",
    .enabled(if: fribidiCommand != nil, "the fribidi command is missing (Debian: libfribidi-bin)"),
    .enabled(if: libraryInstalled, "libfribidi.so.0 is not installed (Debian: libfribidi0)"))
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
}
