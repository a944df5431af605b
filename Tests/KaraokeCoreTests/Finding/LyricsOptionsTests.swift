import Testing
@testable import KaraokeCore

/// `--lyrics` and `--lyrics-dir` on the command line (DESIGN §10.1).
@Suite("Finding: --lyrics and --lyrics-dir on the command line")
struct LyricsOptionsTests {
    /// The search options a command line sets, whichever command it is.
    static func lyricsOptions(_ arguments: [String]) throws -> LyricsSearchOptions? {
        switch try CommandLineParser.parse(arguments) {
        case .play(let request): request.display.lyrics
        case .render(let request): request.display.lyrics
        case .check(let request): request.lyrics
        default: nil
        }
    }

    @Test(
        "play, render and check take --lyrics once and --lyrics-dir repeatedly, in order",
        arguments: [["play", "a.mp3"], ["render", "a.mp3", "--at", "1"], ["check", "a.mp3", "b.lrc"]])
    func taken(command: [String]) throws {
        let options = try Self.lyricsOptions(
            command + ["--lyrics-dir", "/one", "--lyrics=x.lrc", "--lyrics-dir", "two"])
        #expect(options == LyricsSearchOptions(file: "x.lrc", folders: ["/one", "two"]))
    }

    @Test("without them the search is the default one")
    func defaults() throws {
        #expect(try Self.lyricsOptions(["check", "a.flac"]) == LyricsSearchOptions())
    }

    @Test(
        "--lyrics without an audio FILE is a usage error; --lyrics-dir with a lyric FILE is harmless",
        arguments: [["play", "a.lrc"], ["render", "a.srt", "--at", "1"], ["check", "a.lrc", "b.txt"]])
    func lyricsNeedsAudio(command: [String]) throws {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(command + ["--lyrics", "x.lrc"]) }
        #expect(try Self.lyricsOptions(command + ["--lyrics-dir", "d"])?.folders == ["d"])
    }

    @Test("an empty value is refused", arguments: ["--lyrics", "--lyrics-dir"])
    func emptyValue(option: String) {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["check", "a.mp3", option, ""]) }
    }

    @Test("convert does not take them", arguments: ["--lyrics", "--lyrics-dir"])
    func notForConvert(option: String) throws {
        let error = try #require(
            throws: UsageError.self,
            performing: { try CommandLineParser.parse(["convert", "a.lrc", "--to", "srt", option, "x"]) })
        #expect(error.message.hasPrefix("unknown option '\(option)' for 'convert'"))
    }
}
