import Testing
@testable import KaraokeCore

/// `--print[=lines|waybar|json]`: an optional value that may also come as the next argument when it is
/// exactly one of the choice's words (DESIGN §28).
@Suite("StatusLine: the --print option and optional values given as the next argument")
struct StatusLineOptionTests {
    @Test(
        "follow's --print takes its form bare, with '=' or as the next word",
        arguments: [
            // Bare: json, as scripts have always used it.
            (["follow", "--print"], StatusLineForm.json),
            // The next argument when it is one of the words.
            (["follow", "--print", "lines"], .lines),
            (["follow", "--print", "waybar"], .waybar),
            (["follow", "--print", "json"], .json),
            // After '='.
            (["follow", "--print=lines"], .lines),
            (["follow", "--print=waybar", "--player", "mpd"], .waybar),
            // Followed by another option.
            (["follow", "--print", "--player", "mpd"], .json),
        ])
    func follow(arguments: [String], expected: StatusLineForm) throws {
        guard case .follow(let request) = try CommandLineParser.parse(arguments) else {
            Issue.record("not follow: \(arguments)")
            return
        }
        #expect(request.print == expected)
        #expect(request.prints)
    }

    @Test("follow without --print shows the screen")
    func followScreen() throws {
        guard case .follow(let request) = try CommandLineParser.parse(["follow"]) else {
            Issue.record("not follow")
            return
        }
        #expect(request.print == nil)
    }

    @Test(
        "play's --print: the word is the form, anything else after it stays a FILE",
        arguments: [
            (["play", "--print", "lines", "song.lrc"], StatusLineForm.lines, ["song.lrc"]),
            (["play", "song.lrc", "--print", "waybar"], .waybar, ["song.lrc"]),
            (["play", "--print", "song.lrc"], .json, ["song.lrc"]),
            // A FILE named like a form is written as a path.
            (["play", "--print", "./lines"], .json, ["./lines"]),
            (["play", "--print", "lines", "lines"], .lines, ["lines"]),
            (["play", "--print=json", "waybar.lrc", "--no-audio"], .json, ["waybar.lrc"]),
            // After '--' every argument is a FILE.
            (["play", "--print", "--", "lines"], .json, ["lines"]),
        ] as [([String], StatusLineForm, [String])])
    func play(arguments: [String], expected: StatusLineForm, files: [String]) throws {
        guard case .play(let request) = try CommandLineParser.parse(arguments) else {
            Issue.record("not play: \(arguments)")
            return
        }
        #expect(request.print == expected)
        #expect(request.files == files)
    }

    @Test(
        "refusals say what was wrong",
        arguments: [
            (["play", "--print=bogus", "song.lrc"], "bad value 'bogus' for '--print'; expected lines, waybar or json"),
            (
                ["play", "--print=line", "song.lrc"],
                "bad value 'line' for '--print'; expected lines, waybar or json, did you mean 'lines'?"
            ),
            // The word taken as the value, no FILE is left.
            (["play", "--print", "lines"], "'play' needs a FILE"),
            (
                ["play", "--print", "a.lrc", "b.lrc"],
                "'--print' goes with one FILE; print a queue's songs one at a time"
            ),
            (["play", "--print", "lines", "a.lrc", "--score"], "'--print' and '--score' contradict each other"),
            (
                ["mic", "--print", "lines"],
                "'mic --print' prints JSON lines only ('--print' or '--print json'); 'lines' is for follow and play"
            ),
            (
                ["mic", "--print=waybar"],
                "'mic --print' prints JSON lines only ('--print' or '--print json'); 'waybar' is for follow and play"
            ),
            // mic takes no FILE, and a word that is not a form stays one.
            (["mic", "--print", "loud"], "'mic' takes no FILE; it listens to the microphone (see '--mic')"),
        ])
    func refusals(arguments: [String], message: String) {
        do {
            _ = try CommandLineParser.parse(arguments)
            Issue.record("accepted: \(arguments)")
        } catch {
            #expect(error.message == message)
        }
    }

    @Test("mic's --print stays JSON, bare or named")
    func mic() throws {
        var expected = MicRequest()
        expected.prints = true
        #expect(try CommandLineParser.parse(["mic", "--print"]) == .mic(expected))
        #expect(try CommandLineParser.parse(["mic", "--print", "json"]) == .mic(expected))
        #expect(try CommandLineParser.parse(["mic", "--print=json"]) == .mic(expected))
    }

    @Test("an optional value whose rule is not a choice never takes the next argument (--monitor 80 is a FILE)")
    func monitorKeepsItsFile() throws {
        guard case .play(let request) = try CommandLineParser.parse(["play", "--monitor", "80", "--no-audio"]) else {
            Issue.record("not play")
            return
        }
        #expect(request.files == ["80"])
        #expect(request.monitor.percent == MonitorOptions.defaultPercent)
    }

    @Test("the help names the forms and that the value is optional")
    func help() throws {
        let option = try #require(CommandLineOption.named("--print"))
        #expect(option.label == "--print[=lines|waybar|json]")
        #expect(UsageText.help(for: "follow").contains("--print[=lines|waybar|json]"))
        #expect(UsageText.help(for: "play").contains("--print[=lines|waybar|json]"))
    }
}
