/// A command line that cannot be run: the message says what was wrong and how to fix it (DESIGN §1).
public struct UsageError: Error, Equatable, Sendable {
    /// What was wrong, as data.
    let problem: UsageProblem

    /// Lower case, quoting the bad input, with a suggestion where one helps.
    public var message: String { problem.message }

    /// The error of `problem`.
    init(_ problem: UsageProblem) { self.problem = problem }
}

/// What makes a command line one that cannot be run, with the input at fault.
///
/// The call sites say only which problem they found; every sentence the user reads is worded here, in
/// `message`, as swift-argument-parser's `ParserError` keeps wording out of its parser.
enum UsageProblem: Error, Equatable, Sendable {
    /// The first word is neither a command nor `--help`/`--version`.
    case unknownCommand(String)
    /// An option no command takes (`command` nil: before any command), or one `command` does not take.
    case unknownOption(String, command: CommandLineOption.Command?)
    /// A flag given a value with `=`.
    case takesNoValue(option: String)
    /// An option that takes a value came last.
    case needsValue(option: String)
    /// A value the option's rule refuses; `value` is as given (for `--mpv-option`, without its dashes).
    case badValue(String, option: String, rule: ValueRule)
    /// An empty value for an option whose rule wants a file, a folder or a word (`'--audio' needs a FILE`).
    case emptyValue(option: String, rule: ValueRule)
    /// A colour of `--colors` that is neither a name nor `#rrggbb`.
    case badColor(String)
    /// `--mic` naming a part a microphone was already given for.
    case samePartTwice(String)
    /// `--generate` without a value (nil) or with one it does not make.
    case unknownDocument(String?)
    /// The command got no FILE and needs one.
    case missingFile(CommandLineOption.Command)
    /// The command takes one FILE and got `count`.
    case tooManyFiles(CommandLineOption.Command, count: Int)
    /// The command takes no FILE and got some.
    case unexpectedFile(CommandLineOption.Command)
    /// `option` makes the command take no FILE (`sync --calibrate`), and one was given.
    case unexpectedFileWith(option: String)
    /// The command needs `option` and it was not given.
    case missingOption(CommandLineOption.Command, option: String)
    /// Two options that exclude each other were both given.
    case contradiction(String, String)
    /// `option` (`--lyrics`, `--fetch`) is for an audio FILE, and every FILE is a lyric file.
    case needsAudioFile(option: String)
    /// `fetch` with AUDIO files and `--artist`/`--title` both.
    case filesAndNames
    /// `fetch --artist` without `--title`, or the other way round.
    case needsBothNames
    /// `fetch --save` with `--artist` and `--title`, where there is no AUDIO to save beside.
    case saveWithoutFiles
    /// `fetch` with neither AUDIO files nor `--artist` and `--title`.
    case nothingToFetch
    /// `option` (`--album`, `--duration`) given with AUDIO files, which give their own.
    case goesWithNames(option: String)
    /// `fetch -o OUT` for `count` AUDIO files.
    case outputForSeveral(count: Int)
    /// `sync -o -`: sync writes a file, never stdout.
    case syncToStdout
    /// `play --audio` with a queue of FILEs.
    case audioForQueue
    /// `render --format ppm` of a file that is not CD+G.
    case ppmWithoutGraphics
    /// `mic --print` with a form other than json (`lines`, `waybar`).
    case printFormForMic(String)
    /// `play --print` with a queue of FILEs.
    case printForQueue
    /// `render` with neither `--at` nor `--from`/`--to`.
    case missingMoment
    /// `render --from` without `--to`, or the other way round.
    case spanNeedsBoth(given: String, missing: String)
    /// `render --to` not after `--from`.
    case spanBackwards(from: Double, to: Double)
    /// `render --from`/`--to` with a format that draws one frame (`format` as given).
    case spanNeedsRecording(format: String)
    /// `render --format asciicast` without a span.
    case recordingNeedsSpan

    /// What `karaoke: …` says.
    var message: String {
        switch self {
        case .unknownCommand(let word):
            // One pointer is enough: the suggestion when there is one, else the help.
            let hint = CommandLineParser.suggestion(for: word, among: CommandLineParser.commands)
            return "unknown command '\(word)'" + (hint.isEmpty ? "; see 'karaoke --help'" : hint)
        case .unknownOption(let name, nil):
            return "unknown option '\(name)'" + CommandLineParser.suggestion(for: name, among: ["--help", "--version"])
        case .unknownOption(let name, let command?):
            return "unknown option '\(name)' for '\(command.rawValue)'"
                + CommandLineParser.suggestion(for: name, among: CommandLineParser.suggestionOrder(of: command))
        case .takesNoValue(let option): return "'\(option)' takes no value"
        case .needsValue(let option): return "'\(option)' needs a value"
        case .badValue(let value, let option, let rule): return Self.badValue(value, option: option, rule: rule)
        case .emptyValue(let option, let rule): return "'\(option)' needs \(rule.missingNoun)"
        case .badColor(let name):
            let names = RGB.named.map(\.name)
            return "bad colour '\(name)' in '--colors'; expected a name (" + names.joined(separator: ", ")
                + ") or #rrggbb" + Self.listSuggestion(for: name, among: names)
        case .samePartTwice(let value): return "'--mic' names the same part twice: '\(value)'"
        case .unknownDocument(let value):
            let given =
                value.map { "bad value '\($0.prefix(40))' for '--generate'; " } ?? "'--generate' needs a value; "
            return given + "expected " + Self.spoken(CommandLineParser.documents)
        case .missingFile(let command):
            // check goes through a list of files; play's first FILE is the song (more make a queue).
            return "'\(command.rawValue)' needs " + (command == .check ? "at least one FILE" : "a FILE")
        case .tooManyFiles(let command, let count): return "'\(command.rawValue)' takes one FILE, got \(count)"
        case .unexpectedFile(let command):
            let instead =
                switch command {
                case .follow: "it shows what the player plays (see '--player')"
                case .config: "it prints the settings in effect"
                default: "it listens to the microphone (see '--mic')"
                }
            return "'\(command.rawValue)' takes no FILE; " + instead
        case .unexpectedFileWith(let option): return "'\(option)' takes no FILE: it plays its own clicks"
        case .missingOption(let command, let name):
            let option = CommandLineOption.named(name, for: command)
            let choices = option?.rule.choices.map { " (" + $0.joined(separator: ", ") + ")" } ?? ""
            return "'\(command.rawValue)' needs '\(option?.label ?? name)'" + choices
        case .contradiction(let first, let second): return "'\(first)' and '\(second)' contradict each other"
        case .needsAudioFile("--lyrics"):
            return "'--lyrics' goes with an audio FILE (."
                + AudioFiles.audioExtensions.prefix(4).joined(separator: ", .")
                + ", …); a lyric FILE is read as it is"
        case .needsAudioFile(let option): return "'\(option)' goes with an audio FILE; a lyric FILE is read as it is"
        case .filesAndNames: return "'fetch' takes AUDIO files or '--artist'/'--title', not both"
        case .needsBothNames: return "'fetch' needs both '--artist A' and '--title T'"
        case .saveWithoutFiles: return "'--save' writes beside AUDIO files; use '-o OUT' with '--artist'"
        case .nothingToFetch: return "'fetch' needs AUDIO files, or '--artist A --title T'"
        case .goesWithNames(let option):
            return "'\(option)' goes with '--artist' and '--title'; AUDIO files give their own"
        case .outputForSeveral(let count): return "'--output' takes the lyrics of one song, got \(count) AUDIO files"
        case .syncToStdout: return "'sync' writes a file; '-o -' (stdout) is not one"
        case .audioForQueue: return "'--audio' goes with one FILE; in a queue each song's audio is found beside it"
        case .printFormForMic(let form):
            return
                "'mic --print' prints JSON lines only ('--print' or '--print json'); '\(form)' is for follow and play"
        case .printForQueue: return "'--print' goes with one FILE; print a queue's songs one at a time"
        case .ppmWithoutGraphics: return "'--format ppm' draws a CD+G picture; give a .cdg FILE or an MP3+G .zip"
        case .missingMoment:
            return "'render' needs '--at SECONDS', or '--from SECONDS --to SECONDS' with '--format asciicast' or svg"
        case .spanNeedsBoth(let given, let missing): return "'\(given)' needs '\(missing) SECONDS': a span has two ends"
        case .spanBackwards(let from, let to):
            return "'--to \(ValueRule.written(to))' must be after '--from \(ValueRule.written(from))'"
        case .spanNeedsRecording(let format):
            return "'--from'/'--to' record a span, which '--format \(format)' cannot hold; "
                + "use '--format asciicast' or '--format svg' (or '--at' for one frame)"
        case .recordingNeedsSpan: return "'--format asciicast' records a span; give '--from SECONDS --to SECONDS'"
        }
    }

    /// `bad value 'V' for 'OPTION'; expected …`, the expectation read from the option's rule.
    private static func badValue(_ value: String, option: String, rule: ValueRule) -> String {
        // How much of the bad value is quoted: in full for the short syntaxes, clipped for the free-form
        // ones, and without control characters for an address (it may come from the environment).
        let shown =
            switch rule {
            case .player, .microphone, .name: String(value.prefix(40))
            case .serverURL: ControlCharacters.strip(String(value.prefix(80)))
            case .ipv4Address, .roomCode: ControlCharacters.strip(String(value.prefix(40)))
            default: value
            }
        let expected =
            switch rule {
            case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
            case .integerOrWord(let range, let words):
                "a whole number from \(range.lowerBound) to \(range.upperBound), "
                    + spoken(ValueRule.ordered(words)) + listSuggestion(for: value, among: ValueRule.ordered(words))
            case .decimal(let range):
                "a number from \(ValueRule.written(range.lowerBound)) to \(ValueRule.written(range.upperBound))"
            case .choice(let words): spoken(words) + listSuggestion(for: value, among: words)
            case .namedChoice(let words):
                "one of " + words.joined(separator: ", ") + CommandLineParser.suggestion(for: value, among: words)
            case .player: "auto, mpris, mpris:NAME, mpd, mpd:HOST or mpd:HOST:PORT"
            case .microphone: "SOURCE or P1=SOURCE … P9=SOURCE"
            case .mpvOption: "KEY=VALUE, such as 'ao=null'"
            case .encoding: "an encoding name such as GBK, SHIFT_JIS or CP1252 ('iconv -l' lists them)"
            case .serverURL: "an address such as https://lrclib.net"
            case .name: "a name"
            case .ipv4Address: "an IPv4 address such as 192.168.1.20 (four numbers from 0 to 255, no leading zeros)"
            case .roomCode: "1 to 12 letters or digits (A-Z, a-z, 0-9)"
            // Refused as empty (`emptyValue`) or colour by colour (`badColor`), never as a whole.
            case .flag, .file, .folder, .word, .colorList: "a value"
            }
        return "bad value '\(shown)' for '\(option)'; expected \(expected)"
    }

    /// `a, b or c`.
    static func spoken(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + words[words.count - 1]
    }

    /// `, did you mean 'x'?` after a list that `spoken` ends with `… or c`, else "".
    private static func listSuggestion(for word: String, among words: [String]) -> String {
        CommandLineParser.suggestion(for: word, among: words).replacingOccurrences(of: ";", with: ",")
    }
}
