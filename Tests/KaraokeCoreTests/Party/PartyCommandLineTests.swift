import Testing
@testable import KaraokeCore

/// The party request `arguments` make, with `config` under them.
private func party(_ arguments: [String], config: ConfigFile? = nil) throws -> PartyRequest {
    let invocation = try CommandLineParser.parse(arguments, config: config)
    guard case .party(let request) = invocation else {
        Issue.record("expected a party request, got \(invocation)")
        throw UnexpectedInvocation(invocation: invocation)
    }
    return request
}

/// `karaoke party [FOLDER...] [--port N] [--bind ADDR] [--code CODE] [--max-per-singer N] …` (DESIGN §20).
@Suite("The party command line")
struct PartyCommandLineTests {
    @Test("without options a party searches the current folder on port 8737, every address, a drawn code, 2 a singer")
    func defaults() throws {
        let request = try party(["party"])
        #expect(request.folders.isEmpty)
        #expect(request.searchedFolders == ["."])
        #expect(request.port == 8737)
        #expect(request.bind == nil)
        #expect(request.code == nil)
        #expect(request.maximumPerSinger == 2)
        #expect(request.resume == nil)
        #expect(request.play == PlayRequest(display: DisplayRequest(file: "")))
        #expect(request == PartyRequest())
    }

    @Test("a full command line sets every field: the folders, the party's own options and play's it shares")
    func fullCommandLine() throws {
        let request = try party([
            "party", "songs", "more songs", "--port", "9000", "--bind", "192.168.1.20", "--code", "Room42",
            "--max-per-singer", "3", "--resume", "--score", "--mic", "P1=usb", "--mic", "P2=headset", "--mic-delay",
            "200", "--difficulty", "hard", "--no-audio", "--volume", "80", "--vocals", "reduced", "--key", "-2",
            "--tempo", "0.9", "--mpv-option", "ao=null", "--soundfont", "gm.sf2", "--no-countdown", "--fps", "24",
            "--reduce-motion", "--rest-opacity", "0.5", "--offset", "-200", "--align", "left", "--color", "never",
            "--theme", "light", "--colors", "red,blue", "--gradient-duration", "2", "--max-size", "2", "--encoding",
            "GBK", "--no-translation", "--lyrics-dir", "lyrics",
        ])
        var expected = PartyRequest()
        expected.folders = ["songs", "more songs"]
        expected.port = 9000
        expected.bind = "192.168.1.20"
        expected.code = "Room42"
        expected.maximumPerSinger = 3
        expected.resume = true
        // The FOLDERs are the party's: the shared display options name no file.
        var display = DisplayRequest(file: "")
        display.framesPerSecond = 24
        display.frame.countIn = false
        display.frame.reduceMotion = true
        display.frame.restOpacity = 0.5
        display.frame.userOffset = -200
        display.frame.alignment = .left
        display.color = .never
        display.theme = .light
        display.frame.gradient.colors = [try #require(RGB(parsing: "red")), try #require(RGB(parsing: "blue"))]
        display.frame.gradient.cycle = 2
        display.maxSize = 2 * 1_048_576
        display.encoding = "GBK"
        display.showsTranslations = false
        display.lyrics = LyricsSearchOptions(folders: ["lyrics"])
        expected.play.display = display
        expected.play.offsetIsGiven = true
        expected.play.vocalsIsGiven = true
        expected.play.audio = .none
        expected.play.volume = 80
        expected.play.singing.vocalsPercent = 0
        expected.play.singing.key = -2
        expected.play.singing.tempoPercent = 90
        expected.play.mpvOptions = ["ao=null"]
        expected.play.soundfont = "gm.sf2"
        expected.play.scoring.isOn = true
        expected.play.scoring.microphones = [
            try #require(ScoringOptions.Microphone(argument: "P1=usb")),
            try #require(ScoringOptions.Microphone(argument: "P2=headset")),
        ]
        expected.play.scoring.micDelay = 200
        expected.play.scoring.difficulty = .hard
        #expect(request == expected)
    }

    @Test("--no-resume starts afresh without asking")
    func noResume() throws {
        #expect(try party(["party", "--no-resume"]).resume == false)
    }

    @Test(
        "--port takes 0 to 65535, 0 letting the system pick a free port",
        arguments: [0, 1, 80, 8737, 65535])
    func ports(port: Int) throws {
        #expect(try party(["party", "--port", "\(port)"]).port == port)
    }

    @Test(
        "--bind takes an IPv4 address as four numbers 0 to 255",
        arguments: [
            "0.0.0.0", // every address, written out
            "127.0.0.1", // this machine only
            "192.168.1.20", // a home network
            "255.255.255.255", // every part at its largest
            "10.0.100.9", // zeros that are not leading
        ])
    func bindAddresses(address: String) throws {
        #expect(try party(["party", "--bind", address]).bind == address)
    }

    @Test(
        "--code takes 1 to 12 ASCII letters or digits, as written",
        arguments: [
            "7", // one character
            "0042", // leading zeros kept, as the drawn codes keep them
            "Room42", // letters of either case
            "abcdefghijk9", // twelve
        ])
    func codes(code: String) throws {
        #expect(try party(["party", "--code", code]).code == code)
    }

    @Test("--max-per-singer takes 1 to 20", arguments: [1, 2, 20])
    func maximumPerSinger(maximum: Int) throws {
        #expect(try party(["party", "--max-per-singer", "\(maximum)"]).maximumPerSinger == maximum)
    }

    /// The expectation of a refused `--bind`.
    static let addressExpected =
        "expected an IPv4 address such as 192.168.1.20 (four numbers from 0 to 255, no leading zeros)"
    /// The expectation of a refused `--code`.
    static let codeExpected = "expected 1 to 12 letters or digits (A-Z, a-z, 0-9)"

    @Test(
        "a bad value is a usage error naming the option and what it takes",
        arguments: [
            // a port past the largest
            (["--port", "70000"], "bad value '70000' for '--port'; expected a whole number from 0 to 65535"),
            (["--port", "-1"], "bad value '-1' for '--port'; expected a whole number from 0 to 65535"),
            (["--port", "http"], "bad value 'http' for '--port'; expected a whole number from 0 to 65535"),
            // three parts
            (["--bind", "1.2.3"], "bad value '1.2.3' for '--bind'; \(addressExpected)"),
            // a part past 255
            (["--bind", "256.1.1.1"], "bad value '256.1.1.1' for '--bind'; \(addressExpected)"),
            // a leading zero, which some readers take as octal
            (["--bind", "01.2.3.4"], "bad value '01.2.3.4' for '--bind'; \(addressExpected)"),
            (["--bind", "1.2.3.00"], "bad value '1.2.3.00' for '--bind'; \(addressExpected)"),
            // five parts, an empty part, a sign, a name, IPv6, a space, digits that are not ASCII
            (["--bind", "1.2.3.4.5"], "bad value '1.2.3.4.5' for '--bind'; \(addressExpected)"),
            (["--bind", "1..3.4"], "bad value '1..3.4' for '--bind'; \(addressExpected)"),
            (["--bind", "+1.2.3.4"], "bad value '+1.2.3.4' for '--bind'; \(addressExpected)"),
            (["--bind", "localhost"], "bad value 'localhost' for '--bind'; \(addressExpected)"),
            (["--bind", "::1"], "bad value '::1' for '--bind'; \(addressExpected)"),
            (["--bind", "1.2.3.4 "], "bad value '1.2.3.4 ' for '--bind'; \(addressExpected)"),
            (["--bind", "１.2.3.4"], "bad value '１.2.3.4' for '--bind'; \(addressExpected)"),
            (["--bind", ""], "bad value '' for '--bind'; \(addressExpected)"),
            // an empty code, a space, thirteen characters, a letter that is not ASCII, a dash
            (["--code", ""], "bad value '' for '--code'; \(codeExpected)"),
            (["--code", "ab cd"], "bad value 'ab cd' for '--code'; \(codeExpected)"),
            (["--code", "abcdefghijklm"], "bad value 'abcdefghijklm' for '--code'; \(codeExpected)"),
            (["--code", "café"], "bad value 'café' for '--code'; \(codeExpected)"),
            (["--code", "ab-cd"], "bad value 'ab-cd' for '--code'; \(codeExpected)"),
            // a control character is not shown
            (["--code", "a\u{1B}[2J"], "bad value 'a[2J' for '--code'; \(codeExpected)"),
            (["--max-per-singer", "0"], "bad value '0' for '--max-per-singer'; expected a whole number from 1 to 20"),
            (
                ["--max-per-singer", "21"],
                "bad value '21' for '--max-per-singer'; expected a whole number from 1 to 20"
            ),
        ])
    func badValues(arguments: [String], message: String) {
        #expect(usageMessage(["party", "songs"] + arguments) == message)
    }

    @Test(
        "play's options for one song, one output or one queue's order are refused for party",
        arguments: [
            ["--audio", "x.mp3"], ["--start", "10"], ["--lyrics", "x.lrc"], ["--fetch"],
            ["--lrclib-url", "http://localhost"], ["--clock-log", "clock.log"], ["--shuffle"], ["--seed", "1"],
            ["--loop"], ["--singer", "Ana"], ["--score-out", "score.json"], ["--graphics", "cells"],
            ["--melody-channel", "1"], ["--apply-offset"],
        ])
    func playOnlyOptions(arguments: [String]) throws {
        let message = try #require(usageMessage(["party", "songs"] + arguments))
        #expect(message.hasPrefix("unknown option '\(arguments[0])' for 'party'"))
    }

    @Test("--resume with --no-resume is a contradiction, in either order")
    func resumeContradiction() {
        let message = "'--resume' and '--no-resume' contradict each other"
        #expect(usageMessage(["party", "--resume", "--no-resume"]) == message)
        #expect(usageMessage(["party", "--no-resume", "songs", "--resume"]) == message)
    }

    @Test("--mic names each part of a duet once, as for play")
    func micPartTwice() {
        #expect(
            usageMessage(["party", "--mic", "P1=a", "--mic", "P1=b"]) == "'--mic' names the same part twice: 'P1=b'")
    }

    @Test("karaoke --help lists party with its line; party --help speaks of party and lists its options")
    func help() throws {
        #expect(UsageText.main.includes("  karaoke party [FOLDER...] "))
        #expect(UsageText.main.includes("let guests request songs from their phones; show who sings next"))
        let invocation = try CommandLineParser.parse(["party", "--port", "x", "--help"])
        #expect(invocation == .help(UsageText.help(for: "party")))
        let text = UsageText.help(for: "party")
        #expect(text.hasPrefix("Usage: karaoke party [FOLDER...]"))
        for name in ["--port N", "--bind ADDR", "--code CODE", "--max-per-singer N", "--resume", "--score"] {
            #expect(text.includes("\n  " + name + " "), "\(name) in party --help")
        }
        #expect(text.includes("the port the guests' page is served on; 0 lets the system pick a free one"))
        #expect(text.includes("(default four random digits, shown on the card)"))
        #expect(text.includes("go on with today's party when it was left unfinished, without asking"))
        #expect(!text.includes("autosave"))
        #expect(text.split(separator: "\n").allSatisfy { $0.count <= UsageText.width })
    }

    @Test("the man page and the completions have party, its FOLDERs completed as folders")
    func generated() {
        #expect(ManPage.text.includes("party [FOLDER...] [\\-\\-port N] [\\-\\-bind ADDR]"))
        #expect(ShellCompletion.bash.includes("elif [ \"${COMP_WORDS[1]}\" = party ]; then"))
        #expect(ShellCompletion.bash.includes("COMPREPLY=($(compgen -d -- \"$cur\"))"))
        #expect(ShellCompletion.zsh.includes("        party)\n"))
        #expect(ShellCompletion.zsh.includes("'*:folder:_files -/'"))
        #expect(
            ShellCompletion.fish.includes(
                "complete -c karaoke -n '__fish_seen_subcommand_from party' -a '(__fish_complete_directories)'"))
    }

    @Test("a config file's play settings, port, bind and max-per-singer apply to party; code is the command line's")
    func configFile() throws {
        let file = ConfigFile(
            path: "config",
            text: "port = 9000\nbind = 127.0.0.1\nmax-per-singer = 4\nvolume = 70\nshuffle = true\ncode = 1234\n")
        #expect(file.warnings.map(\.message) == ["'code' is given on the command line only"])
        let request = try party(["party"], config: file)
        #expect(request.port == 9000)
        #expect(request.bind == "127.0.0.1")
        #expect(request.maximumPerSinger == 4)
        #expect(request.play.volume == 70)
        #expect(request.play.queue == PlayRequest.QueueOptions())
        #expect(request.code == nil)
        let given = try party(["party", "--port", "0"], config: file)
        #expect(given.port == 0)
    }
}
