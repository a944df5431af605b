import Testing
@testable import KaraokeCore

/// The arguments before an option that make `command`'s line complete, so only the option can be wrong.
private func baseArguments(_ command: CommandLineOption.Command) -> [String] {
    switch command {
    case .play: return ["play", "song.lrc"]
    case .render: return ["render", "song.lrc", "--at", "1"]
    case .check: return ["check", "song.lrc"]
    case .convert: return ["convert", "song.lrc", "--to", "lrc"]
    case .fetch: return ["fetch", "song.mp3"]
    case .follow: return ["follow"]
    case .sync: return ["sync", "song.txt"]
    case .calibrate: return ["calibrate"]
    case .mic: return ["mic"]
    case .party: return ["party"]
    case .config: return ["config"]
    }
}

/// The words of `text` that look like options: `--name` or `-x`.
private func optionWords(in text: String) -> Set<String> {
    let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }
    return Set(
        words.filter {
            $0.count > 1 && $0.first == "-" && $0.dropFirst().first.map { $0.isLetter || $0 == "-" } == true
        }
        .map(String.init))
}

/// The option table that the parser, the help texts and the suggestions all read.
@Suite("Command line: options declared once")
struct CommandLineOptionTests {
    @Test(
        "each command's help lists every option it takes on a line of its own, with its sentence",
        arguments: CommandLineOption.Command.allCases)
    func helpListsEveryDeclaredOption(command: CommandLineOption.Command) throws {
        let lines = UsageText.help(for: command.rawValue).split(separator: "\n", omittingEmptySubsequences: false)
        for option in CommandLineOption.options(of: command) {
            let line = try #require(
                lines.first { $0.hasPrefix("  " + option.label + " ") },
                "\(option.name) has no line in 'karaoke \(command.rawValue) --help'")
            let firstWords = option.help(for: command).split(separator: " ").prefix(2).joined(separator: " ")
            #expect(line.contains(firstWords), "\(option.name)'s help sentence is not on its line")
        }
    }

    @Test("every option a help text names is declared for that command", arguments: CommandLineOption.Command.allCases)
    func helpNamesOnlyDeclaredOptions(command: CommandLineOption.Command) {
        let declared = CommandLineOption.options(of: command).flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
        for word in optionWords(in: UsageText.help(for: command.rawValue)) {
            #expect(
                declared.contains(word), "'karaoke \(command.rawValue) --help' names \(word), which it does not take")
        }
    }

    @Test("every option the main help names is declared, or is one of its own")
    func mainHelpNamesOnlyDeclaredOptions() {
        for word in optionWords(in: UsageText.main) where word != "--version" {
            #expect(CommandLineOption.named(word) != nil, "'karaoke --help' names \(word), which no command takes")
        }
    }

    @Test("the parser takes exactly the options declared for a command", arguments: CommandLineOption.Command.allCases)
    func parserAcceptsExactlyTheDeclared(command: CommandLineOption.Command) {
        // Every declared name, of this command and the others, and names no command takes.
        let candidates =
            CommandLineOption.all.flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
            + ["--version", "-V", "--speed", "-x", "--"]
        for name in Set(candidates) where name != "--" {
            let option = CommandLineOption.named(name, for: command)
            let arguments = baseArguments(command) + [name] + (option?.takesValue == true ? ["1"] : [])
            var message: String? = nil
            do { _ = try CommandLineParser.parse(arguments) } catch { message = error.message }
            let refused = message?.hasPrefix("unknown option") == true
            let declared = option != nil
            #expect(refused == !declared, "\(arguments): \(message ?? "accepted")")
        }
    }

    @Test(
        "an option is either a flag or takes a value, and says so the same way to parser and help",
        arguments: CommandLineOption.all.indices)
    func flagsAndValues(index: Int) throws {
        let option = CommandLineOption.all[index]
        let name = option.name
        let command = try #require(CommandLineOption.Command.allCases.first { option.commands.contains($0) })
        var message: String? = nil
        do {
            _ = try CommandLineParser.parse(baseArguments(command) + (option.takesValue ? [name] : [name + "=1"]))
        } catch {
            message = error.message
        }
        // An optional value (`--monitor[=PERCENT]`) may be left out.
        let expected = option.takesValue ? "'\(name)' needs a value" : "'\(name)' takes no value"
        #expect(message == (option.bareValue == nil ? expected : nil))
    }

    @Test("names are unique for each command and spelled as options: --long, -x")
    func namesAreWellFormed() {
        for command in CommandLineOption.Command.allCases {
            let names = CommandLineOption.options(of: command).flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
            #expect(Set(names).count == names.count, "\(command) takes a name twice")
        }
        for option in CommandLineOption.all {
            #expect(option.name.hasPrefix("--") && option.name.count > 3)
            if let short = option.shortName { #expect(short.count == 2 && short.hasPrefix("-")) }
            #expect(!option.commands.isEmpty)
            #expect(option.help.first?.isLowercase == true && !option.help.hasSuffix("."))
        }
    }

    @Test("every command takes --help and -h", arguments: CommandLineOption.Command.allCases)
    func everyCommandTakesHelp(command: CommandLineOption.Command) throws {
        #expect(try CommandLineParser.parse([command.rawValue, "-h"]) == .help(UsageText.help(for: command.rawValue)))
    }

    @Test(
        "help lines keep to the help's width, a long sentence wrapping under its column",
        arguments: CommandLineOption.Command.allCases)
    func helpWidth(command: CommandLineOption.Command) {
        for line in UsageText.optionLines(for: command).split(separator: "\n") {
            #expect(line.count <= UsageText.width, "too wide: \(line)")
            if !line.hasPrefix("  -") {
                #expect(
                    line.prefix(UsageText.helpColumn).allSatisfy { $0 == " " }, "not under the help column: \(line)")
            }
        }
    }

    @Test(
        "a default that fits on a line of its own is not split",
        arguments: [
            (
                "--colors",
                [
                    "  --colors LIST            title gradient colours, names or #rrggbb, comma separated",
                    "                           (default pink,orange,yellow,mint,cyan,purple)",
                ]
            ),
            (
                "--theme",
                [
                    "  --theme auto|dark|light  colours for a dark or light background (default auto: COLORFGBG, else dark)"
                ]
            ),
            ("--align", ["  --align left|center|right  alignment of lyric rows (default center)"]),
        ])
    func defaultsStayWhole(name: String, lines: [String]) throws {
        let option = try #require(CommandLineOption.named(name))
        #expect(UsageText.optionEntry(option, for: .play) == lines.joined(separator: "\n"))
    }
}

/// A complete line of `option`'s first command with `value` given to `option` (fetch's names the song by
/// `--artist` and `--title`, which its song options go with).
private func line(_ option: CommandLineOption, _ value: String) -> [String] {
    let command = CommandLineOption.Command.allCases.first { option.commands.contains($0) } ?? .play
    let base = command == .fetch ? ["fetch", "--artist", "A", "--title", "T"] : baseArguments(command)
    // PPM is a CD+G file's picture (DESIGN §19.5).
    if option.name == "--format" && value == "ppm" { return ["render", "song.cdg", "--at", "1", option.name, value] }
    // A recording is of a span (DESIGN §26): its ends go with each other, after each other.
    if option.name == "--format" && value == "asciicast" {
        return ["render", "song.lrc", "--from", "0", "--to", "1", option.name, value]
    }
    if command == .render && option.name == "--from" {
        return ["render", "song.lrc", "--format", "asciicast", "--to", "360000", option.name, value]
    }
    if command == .render && option.name == "--to" {
        return ["render", "song.lrc", "--format", "asciicast", "--from", "0", option.name, value]
    }
    // An optional value is given only after '=' (`--monitor=80`).
    return base + (option.bareValue == nil ? [option.name, value] : [option.name + "=" + value])
}

/// The options whose value is a number, with the rule's range.
private let numericOptions = CommandLineOption.all.filter { $0.rule.writtenRange != nil || $0.name == "--seed" }

/// The options whose value is one of a list of words.
private let choiceOptions = CommandLineOption.all.filter { $0.rule.choices != nil }

/// Each option's range and choices are fields of its rule, read by the parser, the help and the completions.
@Suite("Command line: an option's range and choices declared once")
struct ValueRuleTests {
    @Test(
        "a number's bounds are accepted, the numbers just outside refused with the range, the help showing it",
        arguments: numericOptions.indices)
    func numberBounds(index: Int) throws {
        let option = numericOptions[index]
        let name = option.name
        switch option.rule {
        case .integer(let range):
            let expected = "expected a whole number from \(range.lowerBound) to \(range.upperBound)"
            for inside in [range.lowerBound, range.upperBound] {
                #expect(usageMessage(line(option, "\(inside)")) == nil, "\(name) \(inside)")
            }
            for outside in [range.lowerBound - 1] + (range.upperBound < Int.max ? [range.upperBound + 1] : []) {
                #expect(usageMessage(line(option, "\(outside)")) == "bad value '\(outside)' for '\(name)'; \(expected)")
            }
        case .integerOrWord(let range, let words):
            let spoken = UsageProblem.spoken(ValueRule.ordered(words))
            let expected = "expected a whole number from \(range.lowerBound) to \(range.upperBound), \(spoken)"
            for inside in [range.lowerBound, range.upperBound] {
                #expect(usageMessage(line(option, "\(inside)")) == nil, "\(name) \(inside)")
            }
            for outside in [range.lowerBound - 1, range.upperBound + 1] {
                #expect(usageMessage(line(option, "\(outside)")) == "bad value '\(outside)' for '\(name)'; \(expected)")
            }
            for word in words.keys { #expect(usageMessage(line(option, word)) == nil, "\(name) \(word)") }
            #expect(ShellCompletion.valueKind(of: option) == .choices(ValueRule.ordered(words)))
        case .decimal(let range):
            let bounds = (ValueRule.written(range.lowerBound), ValueRule.written(range.upperBound))
            for inside in [bounds.0, bounds.1] {
                // A span's end at its start is in the rule's range, and refused for the order of the two.
                let message = usageMessage(line(option, inside))
                #expect(
                    message == nil || message!.hasPrefix("'--to 360000' must be after")
                        || message!.hasPrefix("'--to 0' must be after"), "\(name) \(inside)")
            }
            let outside = ValueRule.written(range.upperBound + 1)
            #expect(
                usageMessage(line(option, outside))
                    == "bad value '\(outside)' for '\(name)'; expected a number from \(bounds.0) to \(bounds.1)")
        default:
            Issue.record("\(name) is not a number")
        }
        if let range = option.rule.writtenRange {
            #expect(
                UsageText.optionEntry(option, for: Array(option.commands)[0]).includes(range),
                "\(name)'s help does not show \(range)")
            #expect(ManPage.text.includes(ManPage.escaped(range)), "the man page does not show \(name)'s \(range)")
        }
    }

    @Test(
        "no help sentence writes a range of its own: the help adds the rule's",
        arguments: CommandLineOption.all.map(\.name))
    func noRangeInSentences(name: String) throws {
        let option = try #require(CommandLineOption.named(name))
        let characters = Array(option.help)
        for (index, character) in characters.enumerated() where character == "…" && index > 0 {
            #expect(!characters[index - 1].isNumber, "\(name)'s sentence writes a range: \(option.help)")
        }
    }

    @Test(
        "each choice is accepted, another word refused naming them all, and the completions offer the same words",
        arguments: choiceOptions.indices)
    func choices(index: Int) throws {
        let option = choiceOptions[index]
        let name = option.name
        let words = try #require(option.rule.choices)
        for word in words { #expect(usageMessage(line(option, word)) == nil, "\(name) \(word)") }
        let refusal = try #require(usageMessage(line(option, "zzz")))
        #expect(refusal.hasPrefix("bad value 'zzz' for '\(name)'; expected "))
        for word in words { #expect(refusal.includes(word)) }
        #expect(ShellCompletion.valueKind(of: option) == .choices(words))
        if case .choice = option.rule { #expect(option.placeholder == words.joined(separator: "|")) }
    }

    @Test(
        "a rule reads its value into the form the option sets",
        arguments: [
            ("--fps", "24", OptionValue.integer(24)), ("--tempo", "1.25", .decimal(1.25, text: "1.25")),
            ("--align", "left", .text("left")), ("--mpv-option", "--ao=null", .text("ao=null")),
            ("--player", "mpd:host:6601", .player(.mpd(host: "host", port: 6601))),
        ])
    func readsValues(name: String, text: String, value: OptionValue) throws {
        let option = try #require(CommandLineOption.named(name))
        #expect(try option.rule.read(text, for: name) == value)
    }
}

/// What each command takes besides its options' values, checked before any value is read.
@Suite("Command line: each command's shape")
struct CommandShapeTests {
    @Test(
        "a command is refused too few or too many FILEs as its shape says",
        arguments: CommandLineOption.Command.allCases)
    func fileCounts(command: CommandLineOption.Command) {
        let base = baseArguments(command).filter { !$0.hasPrefix("song.") }
        let none = usageMessage(base)
        let two = usageMessage(base + ["a.lrc", "b.lrc"])
        switch CommandShape.of(command).files {
        case .none:
            #expect(none == nil)
            #expect(two == UsageError(.unexpectedFile(command)).message)
        case .one:
            #expect(none == UsageError(.missingFile(command)).message)
            #expect(two == "'\(command.rawValue)' takes one FILE, got 2")
        case .oneOrMore:
            #expect(none == UsageError(.missingFile(command)).message)
            #expect(two == nil)
        case .any where command == .fetch:
            // fetch: its rule asks for AUDIO files or --artist and --title.
            #expect(none == "'fetch' needs AUDIO files, or '--artist A --title T'")
        case .any:
            // party: FOLDER..., none searching the current folder.
            #expect(none == nil)
            #expect(two == nil)
        }
    }

    /// Every pair of options a command refuses together, with the command.
    static let exclusivePairs = CommandLineOption.Command.allCases.flatMap { command in
        CommandShape.of(command).exclusive.map { (command, $0.0, $0.1) }
    }

    @Test("options that exclude each other are refused together, in either order", arguments: exclusivePairs)
    func exclusive(command: CommandLineOption.Command, first: String, second: String) throws {
        let options = try [first, second].map { try #require(CommandLineOption.named($0)) }
        let given = options.map { [$0.name] + ($0.takesValue ? ["x.lrc"] : []) }
        let message = "'\(first)' and '\(second)' contradict each other"
        #expect(usageMessage(baseArguments(command) + given[0] + given[1]) == message)
        #expect(usageMessage(baseArguments(command) + given[1] + given[0]) == message)
    }

    @Test(
        "a required option is named in the message that misses it and marked required in the help",
        arguments: [
            (["convert", "a.lrc"], "--to", "'convert' needs '--to FORMAT' (lrc, elrc, srt, vtt)")
        ])
    func required(arguments: [String], name: String, message: String) throws {
        #expect(usageMessage(arguments) == message)
        let command = try #require(CommandLineOption.Command(rawValue: arguments[0]))
        let option = try #require(CommandLineOption.named(name, for: command))
        #expect(option.details.first == "required")
    }

    @Test(
        "the shape is checked before any value, so a missing FILE is said before a bad number",
        arguments: [["render", "--at", "x"], ["convert", "--to", "x"], ["sync", "--latency", "x"]])
    func shapeBeforeValues(arguments: [String]) {
        #expect(usageMessage(arguments)?.hasSuffix("needs a FILE") == true)
    }
}

/// Every message of a usage error is worded in `UsageProblem.message`.
@Suite("Command line: usage problems worded in one place")
struct UsageProblemTests {
    @Test(
        "each problem reads as the user has always read it",
        arguments: [
            (UsageProblem.unknownOption("--sped", command: nil), "unknown option '--sped'"),
            (.unknownOption("--colr", command: .play), "unknown option '--colr' for 'play'; did you mean '--color'?"),
            (.unknownCommand("rendr"), "unknown command 'rendr'; did you mean 'render'?"),
            (.unknownCommand("zzz"), "unknown command 'zzz'; see 'karaoke --help'"),
            (.emptyValue(option: "--music-dir", rule: .folder(called: "folder")), "'--music-dir' needs a folder"),
            (.emptyValue(option: "--output", rule: .file), "'--output' needs a FILE"),
            (.emptyValue(option: "--singer", rule: .word), "'--singer' needs a NAME"),
            (
                .badValue("centre", option: "--align", rule: .choice(["left", "center", "right"])),
                "bad value 'centre' for '--align'; expected left, center or right, did you mean 'center'?"
            ),
            (
                .badValue("lrcx", option: "--to", rule: .namedChoice(["lrc", "elrc", "srt", "vtt"])),
                "bad value 'lrcx' for '--to'; expected one of lrc, elrc, srt, vtt; did you mean 'lrc'?"
            ),
            (.unknownDocument(nil), "'--generate' needs a value; expected man, bash, zsh or fish"),
            (.unknownDocument("csh"), "bad value 'csh' for '--generate'; expected man, bash, zsh or fish"),
            (.missingFile(.check), "'check' needs at least one FILE"),
            (.missingFile(.play), "'play' needs a FILE"),
            (.unexpectedFile(.mic), "'mic' takes no FILE; it listens to the microphone (see '--mic')"),
            (.unexpectedFileWith(option: "--calibrate"), "'--calibrate' takes no FILE: it plays its own clicks"),
            (.samePartTwice("P1=x"), "'--mic' names the same part twice: 'P1=x'"),
        ])
    func wording(problem: UsageProblem, message: String) {
        #expect(UsageError(problem).message == message)
    }

    @Test(
        "a long free-form value is quoted clipped, an address without its control characters",
        arguments: [
            (ValueRule.name, String(repeating: "a", count: 50), String(repeating: "a", count: 40)),
            (.player, String(repeating: "p", count: 41), String(repeating: "p", count: 40)),
            (.serverURL, "http://a\u{1B}b c", "http://ab c"),
        ])
    func quotedValues(rule: ValueRule, value: String, shown: String) {
        #expect(UsageError(.badValue(value, option: "--x", rule: rule)).message.hasPrefix("bad value '\(shown)' for"))
    }
}

@Suite("Each command's help")
struct CommandHelpTests {
    /// `config` takes every option, as the settings of every command: its sentences may name them.
    @Test(
        "speaks of that command only: no option's sentence names another command's use of it",
        arguments: CommandLineOption.Command.allCases.filter { $0 != .config })
    func speaksOfItsCommandOnly(command: CommandLineOption.Command) {
        let others = CommandLineOption.Command.allCases.filter { $0 != command }.map(\.rawValue)
        for option in CommandLineOption.options(of: command) {
            let sentence = option.help(for: command)
            for other in others {
                for form in ["\(other):", "\(other) takes", "\(other), "] {
                    #expect(
                        !sentence.includes(form), "\(command) --help: \(option.name) speaks of \(other): \(sentence)")
                }
            }
        }
    }

    @Test(
        "fetch and convert say -o writes instead of stdout; sync says instead of FILE's name; follow's --fps is its own"
    )
    func theSentencesThatWereShared() {
        for command in ["fetch", "convert"] {
            let help = UsageText.help(for: command)
            #expect(help.includes("-o, --output OUT"))
            #expect(!help.includes("sync"), "\(command) --help: \(help)")
        }
        #expect(UsageText.help(for: "sync").includes("write the timed lyrics to OUT instead of FILE's name with .lrc"))
        #expect(!UsageText.help(for: "follow").includes("render"))
        #expect(!UsageText.help(for: "play").includes("render takes"))
        #expect(UsageText.help(for: "render").includes("frames per second of a span (--from/--to)"))
        #expect(UsageText.help(for: "render").includes("-o, --output OUT"))
    }
}

/// One name declared for disjoint sets of commands, each with its own rule (DESIGN §1): convert's `--to` is
/// a format, render's the end of a span.
@Suite("Command line: one name, an option for each command")
struct SharedOptionNameTests {
    /// The declarations of `name`.
    private static func declarations(of name: String) -> [CommandLineOption] {
        CommandLineOption.all.filter { $0.name == name }
    }

    @Test("a name declared more than once has disjoint commands and is not a config key")
    func sharedNamesAreDisjointAndCommandLineOnly() {
        for name in Set(CommandLineOption.all.map(\.name)) where Self.declarations(of: name).count > 1 {
            let declarations = Self.declarations(of: name)
            for (index, first) in declarations.enumerated() {
                for second in declarations[(index + 1)...] {
                    #expect(
                        first.commands.isDisjoint(with: second.commands), "\(name) is declared twice for one command")
                }
            }
            // A config key names one option: a shared name would be read by one rule and applied by another.
            #expect(ConfigFile.commandLineOnly.contains(name), "\(name) is declared twice and settable in a config")
        }
    }

    @Test("--to is found by name and command: convert's format, render's seconds, nothing for play")
    func lookupByCommand() throws {
        let convert = try #require(CommandLineOption.named("--to", for: .convert))
        let render = try #require(CommandLineOption.named("--to", for: .render))
        #expect(convert.rule == .namedChoice(ConvertRequest.targets))
        #expect(render.rule == .decimal(0...360_000))
        #expect(CommandLineOption.named("--to", for: .play) == nil)
    }

    @Test("each command's rule reads its own --to: a format for convert, seconds for render")
    func eachCommandReadsItsOwnValue() throws {
        let converted = try CommandLineParser.parse(["convert", "song.lrc", "--to", "srt"])
        guard case .convert(let request) = converted else {
            Issue.record("expected convert, got \(converted)")
            return
        }
        #expect(request.target == "srt")
        let rendered = try CommandLineParser.parse(
            ["render", "song.lrc", "--from", "1", "--to", "2.5", "--format", "asciicast"])
        guard case .render(let span) = rendered else {
            Issue.record("expected render, got \(rendered)")
            return
        }
        #expect(span.span == 1...2.5)
    }

    @Test(
        "a value one command's rule takes is refused by the other's, with that rule's words",
        arguments: [
            // render's seconds are no format to convert
            (["convert", "song.lrc", "--to", "12"], "expected one of lrc, elrc, srt, vtt"),
            // convert's format is no time to render
            (
                ["render", "song.lrc", "--from", "1", "--to", "srt", "--format", "asciicast"],
                "bad value 'srt' for '--to'; expected a number from 0 to 360000"
            ),
        ])
    func rulesStayWithTheirCommand(arguments: [String], words: String) throws {
        var message = ""
        do { _ = try CommandLineParser.parse(arguments) } catch { message = error.message }
        #expect(message.contains(words), "\(message)")
    }

    @Test("each command's help shows its own --to, and only convert's says it is required")
    func eachHelpShowsItsOwn() {
        let convert = UsageText.help(for: "convert")
        let render = UsageText.help(for: "render")
        #expect(convert.contains("--to FORMAT"))
        #expect(convert.contains("lrc (line timing)"))
        #expect(!convert.contains("--to SECONDS"))
        #expect(render.contains("--to SECONDS"))
        #expect(render.contains("the end of the span"))
        #expect(!render.contains("lrc (line timing)"))
        let renderLine = render.split(separator: "\n").first { $0.hasPrefix("  --to ") } ?? ""
        #expect(!renderLine.contains("required"))
    }

    @Test("the man page lists both --to options, each with its commands")
    func manPageListsBoth() {
        let page = ManPage.text
        #expect(page.contains("\\fB\\-\\-to\\fR \\fIFORMAT\\fR"))
        #expect(page.contains("\\fB\\-\\-to\\fR \\fISECONDS\\fR"))
    }

    @Test("bash completes --to by the command: convert's formats, nothing for render's seconds")
    func bashCompletesByCommand() throws {
        let script = try #require(ShellCompletion.script(for: "bash"))
        #expect(script.contains("--to) case \"${COMP_WORDS[1]}\" in"))
        #expect(script.contains("convert) COMPREPLY=($(compgen -W \"lrc elrc srt vtt\" -- \"$cur\")); return;;"))
        #expect(script.contains("render) return;;"))
    }

    @Test("zsh and fish offer each command its own --to")
    func zshAndFishByCommand() throws {
        let fish = try #require(ShellCompletion.script(for: "fish"))
        #expect(fish.contains("'__fish_seen_subcommand_from convert' -l to -x -a 'lrc elrc srt vtt'"))
        #expect(fish.contains("'__fish_seen_subcommand_from render' -l to -x -d 'the end of the span"))
        let zsh = try #require(ShellCompletion.script(for: "zsh"))
        #expect(zsh.contains("'--to[the end of the span"))
        #expect(zsh.contains(":FORMAT:(lrc elrc srt vtt)"))
    }

    @Test("did you mean: a near miss of --to is suggested for render and for convert")
    func suggestionsForEach() {
        for arguments in [["render", "s.lrc", "--from", "1", "--tto", "2"], ["convert", "s.lrc", "--tto", "srt"]] {
            var message = ""
            do { _ = try CommandLineParser.parse(arguments) } catch { message = error.message }
            #expect(message.hasSuffix("did you mean '--to'?"), "\(arguments): \(message)")
        }
    }

    @Test("karaoke config lists neither --to nor --from, which belong on the command line")
    func configListing() throws {
        #expect(!ConfigFile.keys.contains("to"))
        #expect(!ConfigFile.keys.contains("from"))
        guard case .config(let listing) = try CommandLineParser.parse(["config", "--fps", "24"]) else {
            Issue.record("expected the config listing")
            return
        }
        #expect(listing.contains("fps = 24"))
        let keys = listing.split(separator: "\n").map { $0.hasPrefix("# ") ? $0.dropFirst(2) : $0[...] }
        #expect(!keys.contains { $0.hasPrefix("to =") || $0.hasPrefix("from =") })
    }
}
