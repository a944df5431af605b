import Testing
@testable import KaraokeCore

/// The long options a text names as `--name` (the man page's `\fB\-\-name\fR` read as the page shows it),
/// but `--generate`, which names the text's maker.
private func longOptions(in text: String) -> Set<String> {
    var shown = text.replacingEvery("\\-", with: "-")
    for font in ["\\fB", "\\fI", "\\fR"] { shown = shown.replacingEvery(font, with: " ") }
    let words = shown.split { !($0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-")) }
    return Set(words.filter { $0.hasPrefix("--") && $0.dropFirst(2).first?.isLetter == true }.map(String.init))
        .subtracting(["--generate"])
}

/// The long options the fish script completes: `-l name` on its `complete` lines.
private func fishOptions(in script: String) -> Set<String> {
    var names: Set<String> = []
    for line in script.split(separator: "\n") {
        let words = line.split(separator: " ")
        for (index, word) in words.enumerated() where word == "-l" && index + 1 < words.count {
            names.insert("--" + words[index + 1])
        }
    }
    return names
}

/// Every option in the table, by long name.
private let declared = Set(CommandLineOption.all.map(\.name))

/// The man page and the completions are made from the option table, as the help is (DESIGN §14.5).
@Suite("Generated documents: the man page, the completions and --help list the same options")
struct GeneratedDocumentsTests {
    @Test("the help texts together name every option in the table, and nothing else but --version")
    func helpListsTheTable() {
        let help = CommandLineOption.Command.allCases.map { UsageText.help(for: $0.rawValue) } + [UsageText.main]
        #expect(longOptions(in: help.joined(separator: "\n")).subtracting(["--version"]) == declared)
    }

    @Test(
        "the man page and each completion script name exactly the options in the table",
        arguments: ["man", "bash", "zsh"])
    func documentListsTheTable(kind: String) throws {
        let invocation = try CommandLineParser.parse(["--generate", kind])
        guard case .generated(let text) = invocation else {
            Issue.record("not a generated document: \(invocation)")
            return
        }
        #expect(longOptions(in: text).subtracting(["--help", "--version"]) == declared.subtracting(["--help"]))
        #expect(longOptions(in: text).isSuperset(of: ["--help", "--version"]))
    }

    @Test("the fish script completes exactly the options in the table, and --version")
    func fishListsTheTable() {
        #expect(fishOptions(in: ShellCompletion.fish) == declared.union(["--version"]))
    }

    @Test("bash completes each command's own options after it", arguments: CommandLineOption.Command.allCases)
    func bashOptionsPerCommand(command: CommandLineOption.Command) throws {
        let line = try #require(
            ShellCompletion.bash.split(separator: "\n").first { $0.hasPrefix("        \(command.rawValue)) options=") })
        let listed = Set(line.split(separator: "\"")[1].split(separator: " ").map(String.init))
        let options = CommandLineOption.options(of: command)
        #expect(listed == Set(options.map(\.name) + options.compactMap(\.shortName)))
    }

    @Test(
        "options with a fixed set of values complete those values",
        arguments: [
            ("--align", ["left", "center", "right"]), ("--color", ["auto", "always", "never"]),
            ("--format", ["text", "ansi", "json", "ppm", "asciicast", "svg"]), ("--player", ["auto", "mpris", "mpd"]),
        ])
    func fixedValues(name: String, values: [String]) throws {
        let option = try #require(CommandLineOption.named(name))
        #expect(ShellCompletion.valueKind(of: option) == .choices(values))
        #expect(ShellCompletion.bash.includes("\(name)) COMPREPLY=($(compgen -W \"\(values.joined(separator: " "))\""))
    }

    @Test("convert's --to completes its formats in bash within convert's branch; render's takes seconds")
    func sharedNameValues() throws {
        let option = try #require(CommandLineOption.named("--to", for: .convert))
        #expect(ShellCompletion.valueKind(of: option) == .choices(["lrc", "elrc", "srt", "vtt"]))
        #expect(ShellCompletion.bash.includes("convert) COMPREPLY=($(compgen -W \"lrc elrc srt vtt\""))
    }

    @Test("the man page has every command, key, config key, file and exit status")
    func manPageSections() {
        let page = ManPage.text
        for command in CommandLineOption.Command.allCases { #expect(page.includes(".B \(command.rawValue)\n")) }
        for key in PlayerAction.help + FollowAction.help + SyncAction.help {
            #expect(page.includes(".B " + ManPage.escaped(key.keys) + "\n"))
        }
        for key in ConfigFile.keys { #expect(page.includes(ManPage.escaped(key))) }
        for file in ManPage.files { #expect(page.includes(".I " + ManPage.escaped(file.path))) }
        for status in ["0", "1", "2", "128+N", "141"] { #expect(page.includes(".B \(status)\n")) }
    }

    @Test(
        "man page text is escaped: dashes and backslashes shown as typed, no line read as a request",
        arguments: [
            ("--fps", "\\-\\-fps"), ("a\\b", "a\\eb"), (".start", "\\&.start"), ("'quoted'", "\\&'quoted'"),
        ])
    func escaping(text: String, escaped: String) {
        #expect(ManPage.escaped(text) == escaped)
    }

    @Test(
        "--generate takes man, bash, zsh or fish, and nothing else",
        arguments: [["--generate"], ["--generate", "csh"]])
    func generateValues(arguments: [String]) {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(arguments) }
    }
}
