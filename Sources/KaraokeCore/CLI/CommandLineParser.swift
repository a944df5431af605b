/// Parses `karaoke`'s arguments into an `Invocation`: split them, check the command's shape (`CommandShape`),
/// then each value by its option's rule (`ValueRule`), with the usage text in `UsageText` and the wording of
/// every refusal in `UsageProblem` — the split swift-argument-parser uses, written small.
public enum CommandLineParser {
    /// The program's version.
    public static let version = "0.1.0"

    /// The subcommands.
    static let commands = CommandLineOption.Command.allCases.map(\.rawValue)

    /// The long names of the options `command` takes, in the help's order (`CommandLineOption.all`).
    static func options(of command: String) -> [String] {
        guard let command = CommandLineOption.Command(rawValue: command) else { return [] }
        return CommandLineOption.options(of: command).map(\.name)
    }

    /// The long names of `command`'s options in the order suggestions try them: those more commands
    /// share first, as on a tie they are the likelier meant (`--colr` is `--color`, not render's `--cols`).
    static func suggestionOrder(of command: CommandLineOption.Command) -> [String] {
        let options = CommandLineOption.options(of: command).enumerated()
        return options.sorted { ($1.element.commands.count, $0.offset) < ($0.element.commands.count, $1.offset) }
            .map(\.element.name)
    }

    /// Parses `arguments` (without the program name), with `config`'s settings under them: an option
    /// the command line gives wins over the config file's (DESIGN §14.4).
    public static func parse(_ arguments: [String], config: ConfigFile? = nil) throws(UsageError) -> Invocation {
        do throws(UsageProblem) {
            return try invocation(of: arguments, config: config)
        } catch {
            throw UsageError(error)
        }
    }

    /// The walk behind `parse`: the command, then its FILEs and options, then the command's shape, then each
    /// value in order, then the request.
    static func invocation(of arguments: [String], config: ConfigFile?) throws(UsageProblem) -> Invocation {
        guard let first = arguments.first else { return .help(UsageText.main) }
        switch first {
        case "--help", "-h", "help": return .help(UsageText.main)
        case "--version", "-V": return .version
        case "--generate": return try generated(Array(arguments.dropFirst()))
        default: break
        }
        guard let command = CommandLineOption.Command(rawValue: first) else {
            throw first.hasPrefix("-") ? .unknownOption(first, command: nil) : .unknownCommand(first)
        }
        let (positional, given) = try split(arguments.dropFirst(), for: command)
        if given.contains(where: { $0.option.name == "--help" }) { return .help(UsageText.help(for: command.rawValue)) }
        if let problem = CommandShape.of(command).problem(of: command, positional: positional, given: given) {
            throw problem
        }
        if command == .config {
            // Each value is checked as the command that takes it would check it.
            var scratch = OptionValues()
            for (option, value) in given { try option.set(value, into: &scratch) }
            return .config(ConfigFile.listing(config: config, given: given.map { ($0.option.name, $0.value) }))
        }
        var values = OptionValues()
        let givenNames = Set(given.map(\.option.name))
        config?.apply(to: &values, for: command, except: givenNames)
        // `fetch = true` in the config file means "when the FILE is audio"; a lyric FILE is read as it is.
        if command == .play, !givenNames.contains("--fetch"), !positional.contains(where: AudioFiles.isAudio) {
            values.lyrics.fetch = false
        }
        for (option, value) in given { try option.set(value, into: &values) }
        // PPM is CD+G's alone (DESIGN §19.5): the format may come from the config file too, so this is checked
        // once every value is set.
        if command == .render, values.format == .ppm, !positional.contains(where: MP3GFiles.isGraphicsSource) {
            throw .ppmWithoutGraphics
        }
        if command == .render { try checkSpan(values) }
        return values.invocation(of: command, files: positional, given: givenNames)
    }

    /// What render's span needs once every value is set (DESIGN §26): a recording format, `--to` after
    /// `--from`, and a span for asciicast.
    static func checkSpan(_ values: OptionValues) throws(UsageProblem) {
        guard let start = values.spanStart, let end = values.spanEnd else {
            if values.format == .asciicast { throw .recordingNeedsSpan }
            return
        }
        guard values.format == .asciicast || values.format == .svg else {
            throw .spanNeedsRecording(format: values.format.rawValue)
        }
        if end <= start { throw .spanBackwards(from: start, to: end) }
    }

    /// `command`'s arguments as FILEs and options with their values, each option known to `command`.
    static func split(
        _ arguments: ArraySlice<String>, for command: CommandLineOption.Command
    ) throws(UsageProblem) -> (positional: [String], given: [CommandShape.Given]) {
        var positional: [String] = []
        var given: [CommandShape.Given] = []
        var index = arguments.startIndex
        var onlyPositional = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositional = true
                continue
            }
            let equals = argument.firstIndex(of: "=")
            var name = equals.map { String(argument[..<$0]) } ?? argument
            var value = equals.map { String(argument[argument.index(after: $0)...]) }
            // Looked up by name and command: one name may mean different options to different commands
            // (DESIGN §1). A short alias is named by its long name from here on, in messages too.
            guard let option = CommandLineOption.named(name, for: command) else {
                throw .unknownOption(CommandLineOption.named(name)?.name ?? name, command: command)
            }
            name = option.name
            if !option.takesValue {
                if value != nil { throw .takesNoValue(option: name) }
            } else if value == nil, let bare = option.bareValue {
                // A choice's word as the next argument is the value (`--print lines`, DESIGN §28); anything
                // else there stays a FILE.
                if index < arguments.endIndex, !onlyPositional, option.rule.choices?.contains(arguments[index]) == true
                {
                    value = arguments[index]
                    index += 1
                } else {
                    value = bare
                }
            } else if value == nil {
                // The next argument is the value even when it starts with '-' (`--offset -200`).
                guard index < arguments.endIndex else { throw .needsValue(option: name) }
                value = arguments[index]
                index += 1
            }
            given.append((option, value ?? ""))
        }
        return (positional, given)
    }

    /// What `--generate` makes: the man page, then the completion scripts (DESIGN §14.5).
    static let documents = ["man", "bash", "zsh", "fish"]

    /// `--generate man|bash|zsh|fish`: the man page or a completion script, for `make install` (DESIGN §14.5);
    /// not in the help, as it is for packaging rather than for singing.
    static func generated(_ arguments: [String]) throws(UsageProblem) -> Invocation {
        guard arguments.count == 1, let kind = arguments.first, documents.contains(kind) else {
            throw .unknownDocument(arguments.first)
        }
        return .generated(kind == "man" ? ManPage.text : ShellCompletion.script(for: kind) ?? "")
    }

    /// An LRCLIB server's address: `http://` or `https://`, a host, no spaces or control characters.
    public static func serverURL(_ text: String) throws(UsageError) -> String {
        do throws(UsageProblem) {
            return try ValueRule.serverURL.read(text, for: "--lrclib-url").text
        } catch {
            throw UsageError(error)
        }
    }

    /// `; did you mean 'x'?` when a known word is within a small edit distance, else "".
    static func suggestion(for word: String, among candidates: [String]) -> String {
        var best: (String, Int)? = nil
        for candidate in candidates {
            let distance = editDistance(word, candidate)
            if distance <= max(1, min(3, candidate.count / 3)), distance < (best?.1 ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best.map { "; did you mean '\($0.0)'?" } ?? ""
    }

    /// The edit distance between two words, by Characters: insertions, deletions, substitutions, and
    /// swaps of two neighbours (the optimal string alignment distance), so `--fsp` is one edit from `--fps`.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var row = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            row[0] = i
            for j in 1...b.count {
                row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    row[j] = min(row[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, row) = (previous, row, beforePrevious)
        }
        return previous[b.count]
    }
}

extension String {
    /// The string without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var characters = Substring(self)
        while characters.first == " " { characters.removeFirst() }
        while characters.last == " " { characters.removeLast() }
        return String(characters)
    }

    /// Every occurrence of `target` replaced (Foundation-free).
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        replacingEvery(target, with: replacement)
    }
}
