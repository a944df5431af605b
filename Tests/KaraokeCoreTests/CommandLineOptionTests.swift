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
            let firstWords = option.help.split(separator: " ").prefix(2).joined(separator: " ")
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
            let option = CommandLineOption.named(name)
            let arguments = baseArguments(command) + [name] + (option?.takesValue == true ? ["1"] : [])
            var message: String? = nil
            do { _ = try CommandLineParser.parse(arguments) } catch { message = error.message }
            let refused = message?.hasPrefix("unknown option") == true
            let declared = option?.commands.contains(command) == true
            #expect(refused == !declared, "\(arguments): \(message ?? "accepted")")
        }
    }

    @Test(
        "an option is either a flag or takes a value, and says so the same way to parser and help",
        arguments: CommandLineOption.all.map(\.name))
    func flagsAndValues(name: String) throws {
        let option = try #require(CommandLineOption.named(name))
        let command = try #require(CommandLineOption.Command.allCases.first { option.commands.contains($0) })
        var message: String? = nil
        do {
            _ = try CommandLineParser.parse(baseArguments(command) + (option.takesValue ? [name] : [name + "=1"]))
        } catch {
            message = error.message
        }
        #expect(message == (option.takesValue ? "'\(name)' needs a value" : "'\(name)' takes no value"))
    }

    @Test("names are unique and spelled as options: --long, -x")
    func namesAreWellFormed() {
        let names = CommandLineOption.all.flatMap { [$0.name] + ($0.shortName.map { [$0] } ?? []) }
        #expect(Set(names).count == names.count)
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
        #expect(UsageText.optionEntry(option) == lines.joined(separator: "\n"))
    }
}
