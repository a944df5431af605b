import Testing
@testable import KaraokeCore

@Suite("The size option and the z key")
struct LyricSizeOptionTests {
    /// The frame options `arguments` give `command` with `config`.
    static func frame(_ arguments: [String], config: String? = nil) throws -> FrameOptions {
        let file = config.map { ConfigFile(path: "config", text: $0) }
        switch try CommandLineParser.parse(arguments, config: file) {
        case .play(let request): return request.display.frame
        case .render(let request): return request.display.frame
        case .follow(let request): return request.display.frame
        case .party(let request): return request.play.display.frame
        case let other:
            Issue.record("unexpected \(other)")
            return FrameOptions()
        }
    }

    @Test("play, follow and party default to auto; render to 1")
    func defaults() throws {
        #expect(try LyricSizeOptionTests.frame(["play", "a.lrc"]).size == .auto)
        #expect(try LyricSizeOptionTests.frame(["follow"]).size == .auto)
        #expect(try LyricSizeOptionTests.frame(["party", "songs"]).size == .auto)
        #expect(try LyricSizeOptionTests.frame(["render", "a.lrc", "--at", "1"]).size == .fixed(1))
    }

    @Test("--size sets the size; the config file's size reaches play and not render")
    func given() throws {
        #expect(try LyricSizeOptionTests.frame(["play", "a.lrc", "--size", "3"]).size == .fixed(3))
        #expect(try LyricSizeOptionTests.frame(["render", "a.lrc", "--at", "1", "--size", "auto"]).size == .auto)
        #expect(try LyricSizeOptionTests.frame(["play", "a.lrc"], config: "size = 2\n").size == .fixed(2))
        #expect(
            try LyricSizeOptionTests.frame(["render", "a.lrc", "--at", "1"], config: "size = 2\n").size == .fixed(1))
        #expect(try LyricSizeOptionTests.frame(["play", "a.lrc", "--big-cells", "halves"]).bigCells == .halves)
        #expect(try LyricSizeOptionTests.frame(["follow", "--big-cells", "sextants"]).bigCells == .sextants)
        #expect(
            try LyricSizeOptionTests.frame(["play", "a.lrc"], config: "big-cells = sextants\n").bigCells == .sextants)
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["play", "a.lrc", "--size", "5"]) }
    }

    @Test("z is bound to stepping the size and listed in the keys, in play and in follow")
    func key() {
        #expect(PlayerAction.bound(to: .character("z")) == .stepSize)
        #expect(PlayerAction.help.contains { $0.keys == "z" })
        #expect(FollowAction.bound(to: .character("z")) == .stepSize)
        #expect(FollowAction.help.contains { $0.keys == "z" })
    }

    @Test("z steps the loop's size, rebuilds the frame and says the size in a notice")
    func stepsInTheLoop() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var options = FrameOptions()
        options.size = .auto
        options.bigFont = BigFontSource(font: MadeUpFont.font(for: song))
        var loop = PlayLoop(
            song: song, fallbackTitle: "", options: options, columns: 200, rows: 60, start: 18, framesPerSecond: 30,
            now: 0)
        _ = loop.start(at: 0)
        #expect(loop.composer.bigSize >= 2)
        _ = loop.handle(.screen(.key(.character("z"))), at: 0.1)
        #expect(loop.composer.options.size == .fixed(1))
        #expect(loop.composer.bigSize == 1)
        #expect(loop.state.overlay.noticeText(at: 0.2) == "size 1")
        _ = loop.handle(.screen(.key(.character("z"))), at: 0.3)
        #expect(loop.composer.bigSize == 2)
        #expect(loop.state.overlay.noticeText(at: 0.4) == "size 2")
    }

    @Test("without Unifont, play starts at size 1 and says why")
    func missingFontNotice() throws {
        let song = try Fixtures.song("lantern-river.lrc")
        var options = FrameOptions()
        options.size = .auto
        options.bigFont = BigFontSource(font: nil)
        let loop = PlayLoop(
            song: song, fallbackTitle: "", options: options, columns: 200, rows: 60, start: 18, framesPerSecond: 30,
            now: 0)
        #expect(loop.composer.bigSize == 1)
        #expect(loop.state.overlay.noticeText(at: 1) == "big lyrics need GNU Unifont (Debian: unifont); size 1")
    }
}
