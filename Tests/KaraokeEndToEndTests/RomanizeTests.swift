import Foundation
import Testing

/// Whether libkakasi and its dictionary are installed (`make deps`: libkakasi2 kakasi-dic).
private let kakasiInstalled =
    ["/usr/lib/x86_64-linux-gnu/libkakasi.so.2", "/usr/lib/aarch64-linux-gnu/libkakasi.so.2"].contains {
        FileManager.default.fileExists(atPath: $0)
    } && FileManager.default.fileExists(atPath: "/usr/share/kakasi/kanwadict")

@Suite("--romanize of a Japanese song", .concurrencyLimit(2))
struct RomanizeTests {
    @Test(
        "render --romanize shows romaji under the Japanese line, swept with its words",
        .enabled(if: kakasiInstalled, "libkakasi is missing: 'make deps' installs libkakasi2 and kakasi-dic"))
    func romaji() throws {
        let song = KaraokeProcess.song("natsu-no-yoru.lrc")
        let shown = try KaraokeProcess.run(["render", song, "--at", "4", "--romanize", "--cols", "60"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("夏の夜空に花火"))
        #expect(shown.stdout.contains("natsu no yozora ni hanabi"), "\(shown.stdout)")
        #expect(shown.stderr.isEmpty, "\(shown.stderr)")
        let plain = try KaraokeProcess.run(["render", song, "--at", "4", "--cols", "60"])
        #expect(!plain.stdout.contains("natsu"))
        // As JSON the romaji row is swept: "natsu no " is lit at 4 s, "hanabi" not yet.
        let json = try KaraokeProcess.run(["render", song, "--at", "4", "--romanize", "--format", "json"])
        #expect(json.stdout.contains("natsu"))
    }

    @Test("without libkakasi the song still renders, without romaji, and one warning says what to install")
    func missing() throws {
        let song = KaraokeProcess.song("natsu-no-yoru.lrc")
        // A dictionary path that cannot be read fails the load as a missing package would.
        let shown = try KaraokeProcess.run(
            ["render", song, "--at", "4", "--romanize"], environment: ["KANWADICTPATH": "/nonexistent/kanwadict"])
        #expect(shown.status == 0, "\(shown.stderr)")
        #expect(shown.stdout.contains("夏の夜空に花火"))
        #expect(!shown.stdout.contains("natsu"))
        let warnings = shown.stderr.split(separator: "\n")
        #expect(warnings.count == 1, "\(shown.stderr)")
        #expect(
            shown.stderr
                == "karaoke: warning: romaji for Japanese lines needs libkakasi.so.2 (Debian: libkakasi2 kakasi-dic): "
                + "cannot read its dictionary /nonexistent/kanwadict\n")
    }

    @Test(
        "play --romanize shows romaji under the Japanese lines in a terminal",
        .enabled(if: TmuxSession.isAvailable, "needs tmux"),
        .enabled(if: kakasiInstalled, "libkakasi is missing: 'make deps' installs libkakasi2 and kakasi-dic"))
    func playing() throws {
        let song = KaraokeProcess.song("natsu-no-yoru.lrc")
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play --no-audio --start 3.5 --romanize \(song)", columns: 70, rows: 16)
        let screen = try session.waitFor { $0.contains { $0.contains("natsu no yozora ni hanabi") } }
        let line = try #require(screen.firstIndex { $0.contains("夏の夜空に花火") })
        #expect(screen[line + 1].contains("natsu no yozora ni hanabi"))
        try session.send("q")
    }

    @Test(
        "without libkakasi, play says so in the status bar and plays on",
        .enabled(if: TmuxSession.isAvailable, "needs tmux"))
    func playingWithout() throws {
        let song = KaraokeProcess.song("natsu-no-yoru.lrc")
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play --no-audio --romanize \(song)", columns: 70, rows: 16,
            environment: ["KANWADICTPATH": "/nonexistent/kanwadict"])
        let screen = try session.waitFor { $0.contains { $0.contains("romaji for Japanese lines needs") } }
        #expect(!screen.contains { $0.contains("natsu") })
        try session.send("q")
    }

    @Test(
        "libkakasi is loaded only for a song with Japanese under --romanize",
        arguments: [
            (["--version"], false),
            (["render", "paper-boats.lrc", "--at", "3"], false),
            (["render", "hangang-night.lrc", "--at", "4", "--romanize"], false),
            (["render", "natsu-no-yoru.lrc", "--at", "4"], false),
            (["render", "natsu-no-yoru.lrc", "--at", "4", "--romanize"], true),
        ])
    func loadedOnFirstUse(_ arguments: [String], _ loads: Bool) throws {
        let arguments = arguments.map { $0.hasSuffix(".lrc") ? KaraokeProcess.song($0) : $0 }
        let run = try KaraokeProcess.run(arguments, environment: ["LD_DEBUG": "libs"])
        #expect(run.stderr.contains("libkakasi.so.2") == (loads && kakasiInstalled), "\(arguments)")
    }
}
