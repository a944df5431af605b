import Testing
@testable import KaraokeCore

/// The usage error `arguments` make, or nil when they parse.
private func usageError(_ arguments: [String]) -> UsageError? {
    do {
        _ = try CommandLineParser.parse(arguments)
        return nil
    } catch {
        return error
    }
}

/// The render request `arguments` (after `render song.lrc --at 1`) make.
private func render(_ arguments: [String]) throws -> RenderRequest {
    let invocation = try CommandLineParser.parse(["render", "song.lrc", "--at", "1"] + arguments)
    guard case .render(let request) = invocation else {
        Issue.record("expected a render request, got \(invocation)")
        throw UnexpectedInvocation(invocation: invocation)
    }
    return request
}

/// The play request `arguments` (after `play song.lrc`) make.
private func play(_ arguments: [String]) throws -> PlayRequest {
    let invocation = try CommandLineParser.parse(["play", "song.lrc"] + arguments)
    guard case .play(let request) = invocation else {
        Issue.record("expected a play request, got \(invocation)")
        throw UnexpectedInvocation(invocation: invocation)
    }
    return request
}

@Suite("Command line parser")
struct CommandLineParserTests {
    // MARK: Commands

    @Test("play takes a FILE and has the defaults of DESIGN §1")
    func playDefaults() throws {
        let request = try play([])
        #expect(request.display.file == "song.lrc")
        #expect(request.display.framesPerSecond == 30)
        #expect(request.display.frame.restOpacity == 0.35)
        #expect(request.display.frame.userOffset == 0)
        #expect(request.display.frame.alignment == .center)
        #expect(request.display.frame.reduceMotion == false)
        #expect(request.display.color == .auto)
        #expect(request.display.frame.gradient.colors == TitleGradient.defaultColors)
        #expect(request.display.frame.gradient.cycle == 4)
        #expect(request.display.maxSize == 64 * 1_048_576)
        #expect(request.start == 0)
    }

    @Test("render takes a FILE and --at, with no size and the text format by default")
    func renderDefaults() throws {
        let request = try render([])
        #expect(request.display.file == "song.lrc")
        #expect(request.time == 1)
        #expect(request.columns == nil)
        #expect(request.rows == nil)
        #expect(request.format == .text)
    }

    @Test("options may come before the FILE")
    func optionsBeforeFile() throws {
        let invocation = try CommandLineParser.parse(["render", "--at", "12.5", "--cols", "40", "x.lrc"])
        guard case .render(let request) = invocation else {
            Issue.record("expected render, got \(invocation)")
            return
        }
        #expect(request.display.file == "x.lrc")
        #expect(request.time == 12.5)
        #expect(request.columns == 40)
    }

    @Test("render without --at is a usage error that names --at")
    func renderNeedsAt() throws {
        let error = try #require(usageError(["render", "song.lrc", "--cols", "40"]))
        #expect(error.message.contains("--at"))
    }

    @Test(
        "a display command without a FILE is a usage error",
        arguments: [
            ["play"], // nothing after the command
            ["render", "--at", "3"], // only options
            ["play", "--fps", "20"], // an option value is not a FILE
        ])
    func missingFile(arguments: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message.contains("FILE"))
    }

    @Test("render with two files is a usage error (play makes a queue of them)")
    func twoFiles() throws {
        let error = try #require(usageError(["render", "a.lrc", "b.lrc", "--at", "1"]))
        #expect(error.message.contains("one FILE"))
    }

    @Test("check takes several files in order")
    func checkSeveralFiles() throws {
        let invocation = try CommandLineParser.parse(["check", "a.lrc", "b.lrc", "c.lrc"])
        #expect(invocation == .check(CheckRequest(files: ["a.lrc", "b.lrc", "c.lrc"])))
    }

    @Test("check --strict counts warnings as errors, before or after the files")
    func checkStrict() throws {
        let after = try CommandLineParser.parse(["check", "a.lrc", "b.lrc", "--strict"])
        let before = try CommandLineParser.parse(["check", "--strict", "a.lrc", "b.lrc"])
        #expect(after == .check(CheckRequest(files: ["a.lrc", "b.lrc"], strict: true)))
        #expect(before == after)
    }

    @Test("check takes --max-size too")
    func checkMaxSize() throws {
        let invocation = try CommandLineParser.parse(["check", "a.lrc", "--max-size", "2"])
        #expect(invocation == .check(CheckRequest(files: ["a.lrc"], maxSize: 2 * 1_048_576)))
    }

    @Test("check without a FILE is a usage error")
    func checkNeedsFiles() throws {
        let error = try #require(usageError(["check", "--strict"]))
        #expect(error.message.contains("FILE"))
    }

    @Test("check does not take display options")
    func checkRejectsDisplayOptions() throws {
        let error = try #require(usageError(["check", "a.lrc", "--fps", "30"]))
        #expect(error.message.contains("'--fps'"))
    }

    @Test("-- ends the options, so a file may start with a dash")
    func doubleDash() throws {
        let request = try play(["--"])
        #expect(request.display.file == "song.lrc")
        let invocation = try CommandLineParser.parse(["play", "--", "--odd.lrc"])
        guard case .play(let dashed) = invocation else {
            Issue.record("expected play, got \(invocation)")
            return
        }
        #expect(dashed.display.file == "--odd.lrc")
    }

    // MARK: Help and version

    @Test(
        "--help, -h and no arguments print the main help",
        arguments: [
            [] as [String], // nothing at all
            ["--help"], // the long form
            ["-h"], // the short form
            ["help"], // as a command
        ])
    func mainHelp(arguments: [String]) throws {
        #expect(try CommandLineParser.parse(arguments) == .help(UsageText.main))
    }

    @Test(
        "each command has its own --help, which wins over a missing FILE or --at",
        arguments: [
            (arguments: ["play", "--help"], command: "play"),
            (arguments: ["render", "--help"], command: "render"),
            (arguments: ["check", "--help"], command: "check"),
            (arguments: ["render", "song.lrc", "-h"], command: "render"),
            (arguments: ["play", "song.lrc", "--fps", "20", "--help"], command: "play"),
        ])
    func commandHelp(arguments: [String], command: String) throws {
        let invocation = try CommandLineParser.parse(arguments)
        #expect(invocation == .help(UsageText.help(for: command)))
        guard case .help(let text) = invocation else { return }
        #expect(text.contains("karaoke \(command)"))
    }

    @Test("the help texts name every option the command takes", arguments: ["play", "render", "check"])
    func helpNamesEveryOption(command: String) {
        let text = UsageText.help(for: command)
        for option in CommandLineParser.options(of: command) where option != "--help" {
            #expect(text.contains(option), "\(option) is missing from 'karaoke \(command) --help'")
        }
    }

    @Test(
        "a screen's --help lists every key its help box lists, each on one line",
        arguments: [
            (command: "play", keys: PlayerAction.help), (command: "sync", keys: SyncAction.help),
            (command: "follow", keys: FollowAction.help),
        ] as [(command: String, keys: [HelpEntry])])
    func helpListsEveryKey(command: String, keys: [HelpEntry]) {
        let lines = UsageText.help(for: command).split(separator: "\n")
        for entry in keys {
            #expect(lines.contains { $0.contains(entry.keys + " " + entry.meaning) }, "\(entry) in \(command) --help")
        }
        #expect(lines.allSatisfy { $0.count <= UsageText.width })
    }

    @Test("play --help names the vocals, key and tempo keys")
    func playHelpNamesSingingKeys() {
        let text = UsageText.help(for: "play")
        #expect(text.contains("v vocals 100/50/0 %"))
        #expect(text.contains("< / > key down / up a semitone"))
        #expect(text.contains("[ / ] tempo −0.05× / +0.05×"))
    }

    @Test("--version and -V print the version", arguments: [["--version"], ["-V"]])
    func version(arguments: [String]) throws {
        #expect(try CommandLineParser.parse(arguments) == .version)
    }

    @Test("--help takes no value")
    func helpTakesNoValue() throws {
        let error = try #require(usageError(["play", "song.lrc", "--help=yes"]))
        #expect(error.message == "'--help' takes no value")
    }

    // MARK: Values

    @Test("romanization rows are shown by default; --no-romanization hides them in play and render (DESIGN §29.3)")
    func noRomanization() throws {
        #expect(try play([]).display.frame.showsRomanization)
        #expect(try !play(["--no-romanization"]).display.frame.showsRomanization)
        let invocation = try CommandLineParser.parse(["render", "song.lrc", "--at", "1", "--no-romanization"])
        guard case .render(let request) = invocation else { throw UnexpectedInvocation(invocation: invocation) }
        #expect(!request.display.frame.showsRomanization)
    }

    @Test("--reduce-motion turns reduce motion on and takes no value")
    func reduceMotion() throws {
        #expect(try play(["--reduce-motion"]).display.frame.reduceMotion)
        let error = try #require(usageError(["play", "song.lrc", "--reduce-motion=yes"]))
        #expect(error.message.contains("takes no value"))
    }

    @Test(
        "--fps takes a whole number from 1 to 120",
        arguments: [
            (value: "1", expected: 1 as Int?), // the lower limit
            (value: "120", expected: 120), // the upper limit
            (value: "45", expected: 45), // in between
            (value: "0", expected: nil), // below
            (value: "121", expected: nil), // above
            (value: "29.97", expected: nil), // not whole
            (value: "fast", expected: nil), // not a number
            (value: "", expected: nil), // empty
        ])
    func fps(value: String, expected: Int?) throws {
        if let expected {
            #expect(try play(["--fps", value]).display.framesPerSecond == expected)
        } else {
            let error = try #require(usageError(["play", "song.lrc", "--fps", value]))
            #expect(error.message.contains("'\(value)'"))
            #expect(error.message.contains("'--fps'"))
            #expect(error.message.contains("1 to 120"))
        }
    }

    @Test(
        "--rest-opacity takes a number from 0 to 1",
        arguments: [
            (value: "0", expected: 0.0 as Double?), // fully dark
            (value: "1", expected: 1.0), // as bright as sung
            (value: "0.5", expected: 0.5), // in between
            (value: "-0.1", expected: nil), // below
            (value: "1.01", expected: nil), // above
            (value: "nan", expected: nil), // not a number
            (value: "inf", expected: nil), // not finite
        ])
    func restOpacity(value: String, expected: Double?) throws {
        if let expected {
            #expect(try play(["--rest-opacity", value]).display.frame.restOpacity == expected)
        } else {
            let error = try #require(usageError(["play", "song.lrc", "--rest-opacity", value]))
            #expect(error.message.contains("'--rest-opacity'"))
        }
    }

    @Test(
        "--offset takes milliseconds, negative ones in either form",
        arguments: [
            (arguments: ["--offset", "250"], expected: 250), // positive
            (arguments: ["--offset", "-200"], expected: -200), // a negative value is not an option
            (arguments: ["--offset=-200"], expected: -200), // the = form
            (arguments: ["--offset", "+300"], expected: 300), // an explicit sign
            (arguments: ["--offset", "0"], expected: 0), // none
        ])
    func offset(arguments: [String], expected: Int) throws {
        #expect(try play(arguments).display.frame.userOffset == expected)
    }

    @Test("--offset rejects what is not whole milliseconds", arguments: ["0.5", "-", "ten", "99999999999"])
    func badOffset(value: String) throws {
        let error = try #require(usageError(["play", "song.lrc", "--offset", value]))
        #expect(error.message.contains("'--offset'"))
    }

    @Test("--align takes left, center or right", arguments: FrameOptions.Alignment.allCases)
    func align(alignment: FrameOptions.Alignment) throws {
        #expect(try play(["--align", alignment.rawValue]).display.frame.alignment == alignment)
    }

    @Test("a bad --align names the choices and suggests the near one")
    func badAlign() throws {
        let error = try #require(usageError(["play", "song.lrc", "--align=centre"]))
        #expect(error.message.contains("'centre'"))
        #expect(error.message.contains("left, center or right"))
        #expect(error.message.contains("did you mean 'center'?"))
    }

    @Test("--color takes auto, always or never", arguments: ColorChoice.allCases)
    func color(choice: ColorChoice) throws {
        #expect(try render(["--color", choice.rawValue]).display.color == choice)
    }

    @Test("a bad --color is a usage error", arguments: ["yes", "Always", ""])
    func badColor(value: String) throws {
        let error = try #require(usageError(["render", "song.lrc", "--at", "0", "--color", value]))
        #expect(error.message.contains("auto, always or never"))
    }

    @Test(
        "--colors takes names in any case and #rrggbb, comma separated",
        arguments: [
            (value: "red", expected: [RGB(hex: 0xFF3B30)]), // one name
            (value: "Pink,#00ff80", expected: [RGB(hex: 0xFF2D55), RGB(hex: 0x00FF80)]), // name and hex
            (
                value: "mint, cyan , WHITE",
                expected: [
                    RGB(hex: 0x00C7BE), RGB(hex: 0x32ADE6),
                    RGB(hex: 0xFFFFFF),
                ]
            ), // spaces and case
            (value: "#ABCDEF", expected: [RGB(hex: 0xABCDEF)]), // upper-case hex
        ])
    func colors(value: String, expected: [RGB]) throws {
        #expect(try play(["--colors", value]).display.frame.gradient.colors == expected)
    }

    @Test(
        "--colors rejects unknown names, bad hex and empty entries",
        arguments: [
            (value: "pinkk", bad: "pinkk"), // a typo
            (value: "#12345", bad: "#12345"), // too short
            (value: "#12345g", bad: "#12345g"), // not hex
            (value: "red,,blue", bad: ""), // an empty entry
            (value: "", bad: ""), // nothing at all
        ])
    func badColors(value: String, bad: String) throws {
        let error = try #require(usageError(["play", "song.lrc", "--colors", value]))
        #expect(error.message.hasPrefix("bad colour '\(bad)'"))
        #expect(error.message.contains("#rrggbb"))
    }

    @Test("a misspelt colour name gets a suggestion")
    func colourSuggestion() throws {
        let error = try #require(usageError(["play", "song.lrc", "--colors", "pink,purpel"]))
        #expect(error.message.contains("did you mean 'purple'?"))
    }

    @Test(
        "--gradient-duration takes seconds above 0",
        arguments: [
            (value: "4", expected: 4.0 as Double?), // the default
            (value: "0.5", expected: 0.5), // fast
            (value: "0", expected: nil), // no cycle at all
            (value: "-2", expected: nil), // backwards
            (value: "slow", expected: nil), // not a number
        ])
    func gradientDuration(value: String, expected: Double?) throws {
        if let expected {
            #expect(try play(["--gradient-duration", value]).display.frame.gradient.cycle == expected)
        } else {
            let error = try #require(usageError(["play", "song.lrc", "--gradient-duration", value]))
            #expect(error.message.contains("'--gradient-duration'"))
        }
    }

    @Test(
        "--max-size takes megabytes",
        arguments: [
            (value: "64", expected: 64 * 1_048_576 as Int?), // the default
            (value: "0.5", expected: 524_288), // half a megabyte
            (value: "0", expected: nil), // nothing could be read
            (value: "-1", expected: nil), // negative
            (value: "lots", expected: nil), // not a number
        ])
    func maxSize(value: String, expected: Int?) throws {
        if let expected {
            #expect(try render(["--max-size", value]).display.maxSize == expected)
        } else {
            let error = try #require(usageError(["render", "song.lrc", "--at", "1", "--max-size", value]))
            #expect(error.message.contains("'--max-size'"))
        }
    }

    @Test(
        "--at takes seconds from 0",
        arguments: [
            (value: "0", expected: 0.0 as Double?), // the start
            (value: "12.3", expected: 12.3), // a fraction
            (value: "-1", expected: nil), // before the start
            (value: "soon", expected: nil), // not a number
        ])
    func at(value: String, expected: Double?) throws {
        let arguments = ["render", "song.lrc", "--at", value]
        if let expected {
            guard case .render(let request) = try CommandLineParser.parse(arguments) else {
                Issue.record("expected render")
                return
            }
            #expect(request.time == expected)
        } else {
            let error = try #require(usageError(arguments))
            #expect(error.message.contains("'--at'"))
        }
    }

    @Test(
        "--cols and --rows take a whole number of cells",
        arguments: [
            (option: "--cols", value: "1", valid: true), // the smallest
            (option: "--rows", value: "1000", valid: true), // the largest
            (option: "--cols", value: "0", valid: false), // nothing
            (option: "--rows", value: "1001", valid: false), // too many
            (option: "--cols", value: "80.5", valid: false), // not whole
            (option: "--rows", value: "-24", valid: false), // negative
        ])
    func size(option: String, value: String, valid: Bool) throws {
        if valid {
            let request = try render([option, value])
            #expect((option == "--cols" ? request.columns : request.rows) == Int(value))
        } else {
            let error = try #require(usageError(["render", "song.lrc", "--at", "1", option, value]))
            #expect(error.message.contains("'\(option)'"))
        }
    }

    @Test("--format takes text, ansi or json for a lyric file", arguments: [RenderRequest.Format.text, .ansi, .json])
    func format(format: RenderRequest.Format) throws {
        #expect(try render(["--format", format.rawValue]).format == format)
        #expect(try render(["--format=\(format.rawValue)"]).format == format)
    }

    @Test("a bad --format names the formats and suggests the near one")
    func badFormat() throws {
        let error = try #require(usageError(["render", "song.lrc", "--at", "1", "--format", "jsn"]))
        #expect(error.message.contains("text, ansi, json, ppm, asciicast or svg"))
        #expect(error.message.contains("did you mean 'json'?"))
    }

    @Test("--format ppm takes a CD+G file, with --at as written kept for the exact packet")
    func ppmFormat() throws {
        let invocation = try CommandLineParser.parse(["render", "Song.CDG", "--at", "0.57", "--format", "ppm"])
        guard case .render(let request) = invocation else {
            Issue.record("expected a render request, got \(invocation)")
            return
        }
        #expect(request.format == .ppm)
        #expect(request.timeText == "0.57")
    }

    @Test(
        "a CD+G file renders in every format, ppm included; ppm only a CD+G file",
        arguments: [["song.cdg"], ["song.cdg", "--format", "ansi"], ["Song.ZIP", "--format", "json"], ["song.mp3"]])
    func graphicsFormats(arguments: [String]) throws {
        #expect(usageError(["render", "--at", "1"] + arguments) == nil)
        let error = try #require(usageError(["render", "--at", "1", "song.lrc", "--format", "ppm"]))
        #expect(error.message == "'--format ppm' draws a CD+G picture; give a .cdg FILE or an MP3+G .zip")
    }

    @Test("play takes --start")
    func start() throws {
        #expect(try play(["--start", "42.5"]).start == 42.5)
        #expect(usageError(["play", "song.lrc", "--start", "-3"]) != nil)
    }

    @Test("a value may look like an option: the next argument is taken whole")
    func valueLooksLikeOption() throws {
        let error = try #require(usageError(["play", "song.lrc", "--fps", "--reduce-motion"]))
        #expect(error.message.contains("'--reduce-motion'"))
        #expect(error.message.contains("'--fps'"))
    }

    @Test(
        "an option missing its value at the end is a usage error",
        arguments: [
            "--fps", "--offset", "--colors", "--at", "--format",
        ])
    func missingValue(option: String) throws {
        let error = try #require(usageError(["render", "song.lrc", option]))
        #expect(error.message == "'\(option)' needs a value")
    }

    @Test("the last of a repeated option wins")
    func repeatedOption() throws {
        #expect(try play(["--fps", "10", "--fps=20"]).display.framesPerSecond == 20)
    }

    // MARK: Unknown words

    @Test(
        "an unknown option suggests the near one",
        arguments: [
            (arguments: ["play", "song.lrc", "--ofset", "5"], suggestion: "--offset"), // a letter missing
            (arguments: ["play", "song.lrc", "--reduce-moton"], suggestion: "--reduce-motion"), // a letter missing
            (arguments: ["play", "song.lrc", "--colour=never"], suggestion: "--color"), // British spelling
            (arguments: ["render", "s.lrc", "--at", "1", "--fromat", "json"], suggestion: "--format"), // swapped
            (arguments: ["play", "song.lrc", "--fsp", "20"], suggestion: "--fps"), // swapped letters
            (arguments: ["check", "a.lrc", "--stict"], suggestion: "--strict"), // a letter missing
            (arguments: ["--verison"], suggestion: "--version"), // before a command
        ])
    func unknownOptionSuggests(arguments: [String], suggestion: String) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message.hasPrefix("unknown option '"))
        #expect(error.message.hasSuffix("did you mean '\(suggestion)'?"))
    }

    @Test("an unknown option far from every option gets no suggestion")
    func unknownOptionWithoutSuggestion() throws {
        let error = try #require(usageError(["play", "song.lrc", "--brightness", "3"]))
        #expect(error.message == "unknown option '--brightness' for 'play'")
    }

    @Test(
        "an option of another command is unknown here",
        arguments: [
            ["play", "song.lrc", "--at", "3"], // render's
            ["render", "song.lrc", "--at", "3", "--strict"], // check's
            ["render", "song.lrc", "--at", "3", "--start", "1"], // play's
        ])
    func optionOfAnotherCommand(arguments: [String]) throws {
        let error = try #require(usageError(arguments))
        #expect(error.message.hasPrefix("unknown option"))
    }

    @Test(
        "an unknown command suggests the near one, else points to --help",
        arguments: [
            (word: "plya", suggestion: "play" as String?), // swapped letters
            (word: "rendr", suggestion: "render"), // a letter missing
            (word: "chek", suggestion: "check"), // a letter missing
            (word: "dance", suggestion: nil), // nothing near
        ])
    func unknownCommand(word: String, suggestion: String?) throws {
        let error = try #require(usageError([word, "song.lrc"]))
        #expect(error.message.hasPrefix("unknown command '\(word)'"))
        if let suggestion {
            #expect(error.message == "unknown command '\(word)'; did you mean '\(suggestion)'?")
        } else {
            #expect(error.message == "unknown command '\(word)'; see 'karaoke --help'")
        }
    }

    @Test(
        "usage errors read like the house's messages: lower case, quoting the input, no full stop",
        arguments: [
            ["play"], // no FILE
            ["render", "s.lrc"], // no --at
            ["render", "s.lrc", "--at", "x"], // a bad number
            ["play", "s.lrc", "--fps", "0"], // out of range
            ["play", "s.lrc", "--align", "middle"], // a bad choice
            ["play", "s.lrc", "--colors", "pinkish"], // a bad colour
            ["play", "s.lrc", "--speed", "2"], // an unknown option
            ["sing", "s.lrc"], // an unknown command
            ["-x"], // an unknown option before a command
            ["check"], // no files
            ["play", "s.lrc", "--fps"], // a missing value
        ])
    func messageStyle(arguments: [String]) throws {
        let error = try #require(usageError(arguments))
        let first = try #require(error.message.first)
        #expect(first.isLowercase || first == "'")
        #expect(!error.message.hasSuffix("."))
        #expect(error.message.contains("'"))
        #expect(!error.message.contains("\n"))
    }

    @Test(
        "the edit distance counts insertions, deletions, substitutions and swaps",
        arguments: [
            (a: "", b: "abc", distance: 3),
            (a: "abc", b: "abc", distance: 0),
            (a: "abc", b: "abd", distance: 1),
            (a: "abc", b: "abcd", distance: 1),
            (a: "abc", b: "acb", distance: 1),
            (a: "kitten", b: "sitting", distance: 3),
            (a: "ça", b: "ca", distance: 1),
        ])
    func editDistance(a: String, b: String, distance: Int) {
        #expect(CommandLineParser.editDistance(a, b) == distance)
        #expect(CommandLineParser.editDistance(b, a) == distance)
    }
}

/// `play`'s audio options (README "Audio").
@Suite("Command line: audio options")
struct AudioOptionTests {
    @Test("by default the audio is found beside the lyrics at full volume")
    func defaults() throws {
        let request = try play([])
        #expect(request.audio == .automatic)
        #expect(request.volume == 100)
        #expect(request.mpvOptions.isEmpty)
    }

    @Test("--audio, --no-audio, --volume and repeated --mpv-option")
    func options() throws {
        #expect(try play(["--audio", "x.ogg"]).audio == .file("x.ogg"))
        #expect(try play(["--no-audio"]).audio == PlayRequest.AudioChoice.none)
        #expect(try play(["--volume", "40"]).volume == 40)
        #expect(
            try play(["--mpv-option", "ao=null", "--mpv-option=--af=volume=2"]).mpvOptions == [
                "ao=null", "af=volume=2",
            ])
    }

    @Test(
        "bad audio options are usage errors",
        arguments: [
            ["--volume", "131"], ["--volume", "loud"], ["--mpv-option", "=x"], ["--mpv-option", "a b=c"],
            ["--audio", "x.ogg", "--no-audio"], ["--no-audio=yes"],
        ])
    func badOptions(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["play", "song.lrc"] + arguments) }
    }
}

/// render over a span (DESIGN §26): `--from`, `--to`, and the formats that record.
@Suite("Command line: render over a span")
struct RenderSpanParserTests {
    /// The usage message of `arguments` after `render song.lrc`, or nil when they parse.
    private func message(_ arguments: [String]) -> String? {
        usageError(["render", "song.lrc"] + arguments)?.message
    }

    @Test("--from and --to with --format asciicast make a span, with -o, --force and --fps")
    func span() throws {
        let invocation = try CommandLineParser.parse([
            "render", "song.lrc", "--from", "10", "--to", "30.5", "--format", "asciicast", "-o", "demo.cast",
            "--force", "--fps", "24", "--cols", "80", "--rows", "24",
        ])
        guard case .render(let request) = invocation else {
            Issue.record("expected render, got \(invocation)")
            return
        }
        #expect(request.span == 10...30.5)
        #expect(request.format == .asciicast)
        #expect(request.output == "demo.cast")
        #expect(request.force)
        #expect(request.display.framesPerSecond == 24)
        #expect(request.time == 10)
    }

    @Test("svg is a still with --at and an animation with --from and --to")
    func svg() throws {
        #expect(try render(["--format", "svg"]).span == nil)
        let invocation = try CommandLineParser.parse(["render", "s.lrc", "--from", "0", "--to", "5", "--format", "svg"])
        guard case .render(let request) = invocation else {
            Issue.record("expected render, got \(invocation)")
            return
        }
        #expect(request.format == .svg)
        #expect(request.span == 0...5)
    }

    @Test("render --score draws the lanes; a config file's score, which is for playing, does not")
    func lanes() throws {
        #expect(try render(["--score"]).showsLanes)
        #expect(try !render([]).showsLanes)
        let config = ConfigFile(path: "config", text: "score = true\n")
        let invocation = try CommandLineParser.parse(["render", "song.lrc", "--at", "1"], config: config)
        guard case .render(let request) = invocation else {
            Issue.record("expected render, got \(invocation)")
            return
        }
        #expect(!request.showsLanes)
    }

    @Test("-o - writes to stdout, as convert's does; -o is render's too at one moment")
    func outputDash() throws {
        #expect(try render(["-o", "-"]).output == nil)
        #expect(try render(["--output", "frame.txt"]).output == "frame.txt")
    }

    @Test(
        "each broken rule is a usage error that says what is wrong and what to give",
        arguments: [
            // no moment at all
            (
                [],
                "'render' needs '--at SECONDS', or '--from SECONDS --to SECONDS' with '--format asciicast' or svg"
            ),
            // a span needs both ends
            (["--from", "1", "--format", "asciicast"], "'--from' needs '--to SECONDS': a span has two ends"),
            (["--to", "1", "--format", "asciicast"], "'--to' needs '--from SECONDS': a span has two ends"),
            // the end after the start
            (["--from", "5", "--to", "2", "--format", "asciicast"], "'--to 2' must be after '--from 5'"),
            (["--from", "5", "--to", "5", "--format", "svg"], "'--to 5' must be after '--from 5'"),
            // a span needs a format that records
            (
                ["--from", "1", "--to", "2"],
                "'--from'/'--to' record a span, which '--format text' cannot hold; "
                    + "use '--format asciicast' or '--format svg' (or '--at' for one frame)"
            ),
            (
                ["--from", "1", "--to", "2", "--format", "json"],
                "'--from'/'--to' record a span, which '--format json' cannot hold; "
                    + "use '--format asciicast' or '--format svg' (or '--at' for one frame)"
            ),
            // asciicast needs a span
            (
                ["--at", "3", "--format", "asciicast"],
                "'--format asciicast' records a span; give '--from SECONDS --to SECONDS'"
            ),
            // one moment or a span, not both
            (
                ["--at", "3", "--from", "1", "--to", "2", "--format", "svg"],
                "'--at' and '--from' contradict each other"
            ),
            (["--at", "3", "--to", "2"], "'--at' and '--to' contradict each other"),
        ])
    func rules(arguments: [String], expected: String) {
        #expect(message(arguments) == expected)
    }

    @Test("a config file's format = asciicast needs a span too: checked once every value is set")
    func configFormat() throws {
        let config = ConfigFile(path: "config", text: "format = asciicast\n")
        #expect(throws: UsageError.self) {
            try CommandLineParser.parse(["render", "s.lrc", "--at", "1"], config: config)
        }
        let invocation = try CommandLineParser.parse(["render", "s.lrc", "--from", "1", "--to", "2"], config: config)
        guard case .render(let request) = invocation else {
            Issue.record("expected render, got \(invocation)")
            return
        }
        #expect(request.format == .asciicast)
    }

    @Test("render's help lists --from, --to, -o and --force, and --fps says it is for spans")
    func help() {
        let help = UsageText.help(for: "render")
        for label in ["--from SECONDS", "--to SECONDS", "-o, --output OUT", "--force", "--fps N"] {
            #expect(help.includes("  " + label), "\(label)")
        }
        #expect(help.includes("frames per second of a span"))
        #expect(UsageText.main.includes("karaoke render FILE --from S --to E --format asciicast|svg"))
    }
}
