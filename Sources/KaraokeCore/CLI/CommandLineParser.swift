/// Parses `karaoke`'s arguments into an `Invocation`: parse, then validate each value, then usage text
/// (in `UsageText`) — the split swift-argument-parser uses, written small.
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
        guard let first = arguments.first else { return .help(UsageText.main) }
        switch first {
        case "--help", "-h", "help": return .help(UsageText.main)
        case "--version", "-V": return .version
        case "--generate": return try generated(Array(arguments.dropFirst()))
        default: break
        }
        guard let command = CommandLineOption.Command(rawValue: first) else {
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)'\(suggestion(for: first, among: ["--help", "--version"]))")
            }
            // One pointer is enough: the suggestion when there is one, else the help.
            let hint = suggestion(for: first, among: commands)
            throw UsageError("unknown command '\(first)'" + (hint.isEmpty ? "; see 'karaoke --help'" : hint))
        }
        var positional: [String] = []
        var given: [(option: CommandLineOption, value: String)] = []
        var index = 1
        var onlyPositional = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositional || !argument.hasPrefix("-") || argument == "-" {
                positional.append(argument)
                continue
            }
            if argument == "--" { onlyPositional = true; continue }
            var name = argument
            var value: String? = nil
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                value = String(argument[argument.index(after: equals)...])
            }
            // A short alias is named by its long name from here on, in messages too.
            let declared = CommandLineOption.named(name)
            if let declared { name = declared.name }
            guard let option = declared, option.commands.contains(command) else {
                throw UsageError(
                    "unknown option '\(name)' for '\(command.rawValue)'"
                        + suggestion(for: name, among: suggestionOrder(of: command)))
            }
            if !option.takesValue {
                if value != nil { throw UsageError("'\(name)' takes no value") }
            } else if value == nil {
                // The next argument is the value even when it starts with '-' (`--offset -200`).
                guard index < arguments.count else { throw UsageError("'\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            given.append((option, value ?? ""))
        }
        if given.contains(where: { $0.option.name == "--help" }) { return .help(UsageText.help(for: command.rawValue)) }
        // What the command needs besides its options is checked first, then each value in order.
        switch command {
        case .convert:
            guard positional.count == 1 else {
                throw UsageError(
                    positional.isEmpty ? "'convert' needs a FILE" : "'convert' takes one FILE, got \(positional.count)")
            }
            guard given.contains(where: { $0.option.name == "--to" }) else {
                throw UsageError("'convert' needs '--to FORMAT' (\(ConvertRequest.targets.joined(separator: ", ")))")
            }
        case .check:
            guard !positional.isEmpty else { throw UsageError("'check' needs at least one FILE") }
        case .fetch:
            try validateFetch(positional: positional, given: given.map(\.option.name))
        case .follow:
            guard positional.isEmpty else {
                throw UsageError("'follow' takes no FILE; it shows what the player plays (see '--player')")
            }
        case .sync where given.contains(where: { $0.option.name == "--calibrate" }):
            guard positional.isEmpty else { throw UsageError("'--calibrate' takes no FILE: it plays its own clicks") }
        case .calibrate, .mic:
            guard positional.isEmpty else {
                throw UsageError("'\(command.rawValue)' takes no FILE; it listens to the microphone (see '--mic')")
            }
        case .config:
            guard positional.isEmpty else {
                throw UsageError("'config' takes no FILE; it prints the settings in effect")
            }
            // Each value is checked as the command that takes it would check it.
            var scratch = OptionValues()
            for (option, value) in given { try option.apply(&scratch, value) }
            return .config(ConfigFile.listing(config: config, given: given.map { ($0.option.name, $0.value) }))
        case .play:
            // Several FILEs make a queue (DESIGN §14.2).
            guard !positional.isEmpty else { throw UsageError("'play' needs a FILE") }
        case .render, .sync:
            guard positional.count == 1 else {
                throw UsageError(
                    positional.isEmpty
                        ? "'\(command.rawValue)' needs a FILE"
                        : "'\(command.rawValue)' takes one FILE, got \(positional.count)")
            }
        }
        var values = OptionValues()
        let givenNames = Set(given.map(\.option.name))
        config?.apply(to: &values, for: command, except: givenNames)
        // `fetch = true` in the config file means "when the FILE is audio"; a lyric FILE is read as it is.
        if command == .play, !givenNames.contains("--fetch"), !positional.contains(where: AudioFiles.isAudio) {
            values.lyrics.fetch = false
        }
        for (option, value) in given { try option.apply(&values, value) }
        values.display.maxSize = values.maxSize
        values.display.encoding = values.encoding
        values.display.file = positional.first ?? ""
        values.display.lyrics = values.lyrics
        if values.lyrics.file != nil, !positional.contains(where: AudioFiles.isAudio) {
            throw UsageError(
                "'--lyrics' goes with an audio FILE (." + AudioFiles.audioExtensions.prefix(4).joined(separator: ", .")
                    + ", …); a lyric FILE is read as it is")
        }
        if command == .play, values.lyrics.fetch, !positional.contains(where: AudioFiles.isAudio) {
            throw UsageError("'--fetch' goes with an audio FILE; a lyric FILE is read as it is")
        }
        switch command {
        case .sync:
            if given.contains(where: { $0.option.name == "--resume" }),
                given.contains(where: { $0.option.name == "--no-resume" })
            {
                throw UsageError("'--resume' and '--no-resume' contradict each other")
            }
            if given.contains(where: { $0.option.name == "--output" && $0.value == "-" }) {
                throw UsageError("'sync' writes a file; '-o -' (stdout) is not one")
            }
            var request = values.sync
            request.file = positional.first ?? ""
            if case .file(let audio) = values.play.audio { request.audio = audio }
            request.output = values.convert.output
            request.force = values.convert.force
            request.mpvOptions = values.play.mpvOptions
            request.maxSize = values.maxSize
            request.encoding = values.encoding
            return .sync(request)
        case .config:
            // Returned above, before the file's settings were applied; here only to keep the switch whole.
            return .config(ConfigFile.listing(config: config, given: given.map { ($0.option.name, $0.value) }))
        case .calibrate:
            var request = values.mic
            request.mpvOptions = values.play.mpvOptions
            return .calibrate(request)
        case .mic:
            return .mic(values.mic)
        case .follow:
            var follow = values.follow
            follow.display = values.display
            return .follow(follow)
        case .fetch:
            var request = values.fetch
            request.audioFiles = positional
            return .fetch(request)
        case .convert:
            var request = values.convert
            request.file = positional[0]
            request.maxSize = values.maxSize
            request.encoding = values.encoding
            return .convert(request)
        case .check:
            return .check(
                CheckRequest(
                    files: positional, strict: values.strict, maxSize: values.maxSize,
                    encoding: values.encoding, lyrics: values.lyrics))
        case .play:
            if given.contains(where: { $0.option.name == "--audio" }),
                given.contains(where: { $0.option.name == "--no-audio" })
            {
                throw UsageError("'--audio' and '--no-audio' contradict each other")
            }
            if positional.count > 1, given.contains(where: { $0.option.name == "--audio" }) {
                throw UsageError("'--audio' goes with one FILE; in a queue each song's audio is found beside it")
            }
            var play = values.play
            play.display = values.display
            play.offsetIsGiven = givenNames.contains("--offset")
            play.files = positional
            return .play(play)
        case .render:
            guard let time = values.time else { throw UsageError("'render' needs '--at SECONDS'") }
            return .render(
                RenderRequest(
                    display: values.display, time: time, columns: values.columns, rows: values.rows,
                    format: values.format))
        }
    }

    /// `--generate man|bash|zsh|fish`: the man page or a completion script, for `make install` (DESIGN §14.5);
    /// not in the help, as it is for packaging rather than for singing.
    static func generated(_ arguments: [String]) throws(UsageError) -> Invocation {
        let kinds = ["man", "bash", "zsh", "fish"]
        guard arguments.count == 1, let kind = arguments.first, kinds.contains(kind) else {
            let given =
                arguments.first.map { "bad value '\($0.prefix(40))' for '--generate'; " }
                ?? "'--generate' needs a value; "
            throw UsageError(given + "expected man, bash, zsh or fish")
        }
        return .generated(kind == "man" ? ManPage.text : ShellCompletion.script(for: kind) ?? "")
    }

    /// What `fetch` needs besides its options: AUDIO files, or `--artist` and `--title` instead; `--save`
    /// only with AUDIO, `-o` only for one song and not with `--save`.
    static func validateFetch(positional: [String], given: [String]) throws(UsageError) {
        let named = given.contains("--artist") || given.contains("--title")
        if named {
            guard positional.isEmpty else {
                throw UsageError("'fetch' takes AUDIO files or '--artist'/'--title', not both")
            }
            guard given.contains("--artist"), given.contains("--title") else {
                throw UsageError("'fetch' needs both '--artist A' and '--title T'")
            }
            if given.contains("--save") {
                throw UsageError("'--save' writes beside AUDIO files; use '-o OUT' with '--artist'")
            }
        } else {
            guard !positional.isEmpty else { throw UsageError("'fetch' needs AUDIO files, or '--artist A --title T'") }
            for option in ["--album", "--duration"] where given.contains(option) {
                throw UsageError("'\(option)' goes with '--artist' and '--title'; AUDIO files give their own")
            }
            if given.contains("--output"), positional.count > 1 {
                throw UsageError("'--output' takes the lyrics of one song, got \(positional.count) AUDIO files")
            }
        }
        if given.contains("--output"), given.contains("--save") {
            throw UsageError("'--output' and '--save' contradict each other")
        }
    }

    /// A name to look up: not empty, at most 1,000 characters.
    static func name(_ text: String, option: String) throws(UsageError) -> String {
        guard !text.trimmingSpaces().isEmpty, text.count <= 1000 else {
            throw UsageError("bad value '\(text.prefix(40))' for '\(option)'; expected a name")
        }
        return text
    }

    /// An LRCLIB server's address: `http://` or `https://`, a host, no spaces or control characters.
    public static func serverURL(_ text: String) throws(UsageError) -> String {
        let lower = text.lowercased()
        let scheme = lower.hasPrefix("https://") ? 8 : lower.hasPrefix("http://") ? 7 : 0
        guard scheme > 0, text.count > scheme, text.count <= 2000,
            !text.unicodeScalars.contains(where: { $0 == " " || ControlCharacters.isForbidden($0.value) })
        else {
            throw UsageError(
                "bad value '\(ControlCharacters.strip(String(text.prefix(80))))' for '--lrclib-url'; "
                    + "expected an address such as https://lrclib.net")
        }
        return text
    }

    /// An encoding name as iconv takes it (`GBK`, `SHIFT_JIS`, `cp1252`); whether iconv knows it is
    /// found when the file is read.
    static func encodingName(_ text: String) throws(UsageError) -> String {
        guard !text.isEmpty, text.count <= 40,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
        else {
            throw UsageError(
                "bad value '\(text)' for '--encoding'; expected an encoding name such as GBK, "
                    + "SHIFT_JIS or CP1252 ('iconv -l' lists them)")
        }
        return text
    }

    /// `KEY=VALUE` for mpv: the key is an option name as mpv spells it, without the leading dashes.
    static func mpvOption(_ text: String) throws(UsageError) -> String {
        var text = Substring(text)
        while text.hasPrefix("-") { text = text.dropFirst() }
        let key = text.prefix { $0 != "=" }
        guard !key.isEmpty, key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
        else {
            throw UsageError("bad value '\(text)' for '--mpv-option'; expected KEY=VALUE, such as 'ao=null'")
        }
        return String(text)
    }

    static func integer(_ text: String, option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw UsageError(
                "bad value '\(text)' for '\(option)'; expected a whole number from "
                    + "\(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    static func number(_ text: String, option: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError(
                "bad value '\(text)' for '\(option)'; expected a number from "
                    + "\(trimmed(range.lowerBound)) to \(trimmed(range.upperBound))")
        }
        return value
    }

    static func trimmed(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    static func megabytes(_ text: String, option: String) throws(UsageError) -> Int {
        let value = try number(text, option: option, in: 0.001...65536)
        return Int(value * 1_048_576)
    }

    static func choice<T: RawRepresentable & CaseIterable>(_ text: String, option: String) throws(UsageError) -> T
    where T.RawValue == String {
        guard let value = T(rawValue: text) else {
            let names = T.allCases.map(\.rawValue)
            throw UsageError(
                "bad value '\(text)' for '\(option)'; expected "
                    + names.dropLast().joined(separator: ", ") + " or " + names.last!
                    + suggestion(for: text, among: names).replacingOccurrences(of: ";", with: ","))
        }
        return value
    }

    static func colorList(_ text: String) throws(UsageError) -> [RGB] {
        var colors: [RGB] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part).trimmingSpaces()
            guard let color = RGB(parsing: name) else {
                throw UsageError(
                    "bad colour '\(name)' in '--colors'; expected a name ("
                        + RGB.named.map(\.name).joined(separator: ", ") + ") or #rrggbb"
                        + suggestion(for: name, among: RGB.named.map(\.name)).replacingOccurrences(of: ";", with: ","))
            }
            colors.append(color)
        }
        return colors
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
