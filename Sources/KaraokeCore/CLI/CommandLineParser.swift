/// Parses `karaoke`'s arguments into an `Invocation`: parse, then validate each value, then usage text
/// (in `UsageText`) — the split swift-argument-parser uses, written small.
public enum CommandLineParser {
    /// The program's version.
    public static let version = "0.1.0"

    /// The subcommands.
    static let commands = ["play", "render", "check", "convert"]

    /// Options every display command takes; each takes a value except `--reduce-motion`.
    static let displayOptions = ["--reduce-motion", "--fps", "--rest-opacity", "--offset", "--align", "--color",
                                 "--colors", "--gradient-duration", "--max-size", "--theme", "--encoding",
                                 "--no-translation"]

    /// The options of each subcommand.
    static func options(of command: String) -> [String] {
        switch command {
        case "play": return displayOptions + ["--start", "--audio", "--no-audio", "--mpv-option", "--volume",
                                              "--clock-log", "--help"]
        case "render": return displayOptions + ["--at", "--cols", "--rows", "--format", "--help"]
        case "convert": return ["--to", "--output", "--force", "--encoding", "--max-size", "--help"]
        default: return ["--strict", "--max-size", "--encoding", "--help"]
        }
    }

    static let flags: Set<String> = ["--reduce-motion", "--strict", "--help", "-h", "--no-audio", "--no-translation",
                                     "--force"]

    /// Parses `arguments` (without the program name).
    public static func parse(_ arguments: [String]) throws(UsageError) -> Invocation {
        guard let first = arguments.first else { return .help(UsageText.main) }
        switch first {
        case "--help", "-h", "help": return .help(UsageText.main)
        case "--version", "-V": return .version
        case "play", "render", "check", "convert": break
        default:
            if first.hasPrefix("-") {
                throw UsageError("unknown option '\(first)'\(suggestion(for: first, among: ["--help", "--version"]))")
            }
            // One pointer is enough: the suggestion when there is one, else the help.
            let hint = suggestion(for: first, among: commands)
            throw UsageError("unknown command '\(first)'" + (hint.isEmpty ? "; see 'karaoke --help'" : hint))
        }
        let command = first
        var positional: [String] = []
        var values: [(name: String, value: String?)] = []
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
            if name == "-h" { name = "--help" }
            if name == "-o" { name = "--output" }
            guard options(of: command).contains(name) else {
                throw UsageError("unknown option '\(name)' for '\(command)'"
                    + suggestion(for: name, among: options(of: command)))
            }
            if flags.contains(name) {
                if value != nil { throw UsageError("'\(name)' takes no value") }
            } else if value == nil {
                // The next argument is the value even when it starts with '-' (`--offset -200`).
                guard index < arguments.count else { throw UsageError("'\(name)' needs a value") }
                value = arguments[index]
                index += 1
            }
            values.append((name, value))
        }
        if values.contains(where: { $0.name == "--help" }) { return .help(UsageText.help(for: command)) }
        switch command {
        case "convert":
            guard positional.count == 1 else {
                throw UsageError(positional.isEmpty ? "'convert' needs a FILE" : "'convert' takes one FILE, got \(positional.count)")
            }
            guard let target = values.last(where: { $0.name == "--to" })?.value else {
                throw UsageError("'convert' needs '--to FORMAT' (\(ConvertRequest.targets.joined(separator: ", ")))")
            }
            guard ConvertRequest.targets.contains(target) else {
                throw UsageError("bad value '\(target)' for '--to'; expected one of "
                    + ConvertRequest.targets.joined(separator: ", ") + suggestion(for: target, among: ConvertRequest.targets))
            }
            var request = ConvertRequest(file: positional[0], target: target)
            for (name, value) in values {
                switch name {
                case "--output":
                    guard let value, !value.isEmpty else { throw UsageError("'--output' needs a FILE") }
                    request.output = value == "-" ? nil : value
                case "--force": request.force = true
                case "--encoding": request.encoding = try encodingName(value!)
                case "--max-size": request.maxSize = try megabytes(value!, option: name)
                default: break
                }
            }
            return .convert(request)
        case "check":
            guard !positional.isEmpty else { throw UsageError("'check' needs at least one FILE") }
            var request = CheckRequest(files: positional)
            for (name, value) in values {
                switch name {
                case "--strict": request.strict = true
                case "--encoding": request.encoding = try encodingName(value!)
                default: request.maxSize = try megabytes(value!, option: name)
                }
            }
            return .check(request)
        default:
            guard positional.count == 1 else {
                throw UsageError(positional.isEmpty ? "'\(command)' needs a FILE"
                                 : "'\(command)' takes one FILE, got \(positional.count)")
            }
            var display = DisplayRequest(file: positional[0])
            var time: Double? = nil, columns: Int? = nil, rows: Int? = nil
            var format = RenderRequest.Format.text
            var play = PlayRequest(display: display)
            for (name, value) in values {
                let value = value ?? ""
                switch name {
                case "--reduce-motion": display.frame.reduceMotion = true
                case "--fps": display.framesPerSecond = try integer(value, option: name, in: 1...120)
                case "--rest-opacity": display.frame.restOpacity = try number(value, option: name, in: 0...1)
                case "--offset": display.frame.userOffset = try integer(value, option: name, in: -3_600_000...3_600_000)
                case "--align": display.frame.alignment = try choice(value, option: name)
                case "--color": display.color = try choice(value, option: name)
                case "--theme": display.theme = try choice(value, option: name)
                case "--colors": display.frame.gradient.colors = try colorList(value)
                case "--gradient-duration":
                    display.frame.gradient.cycle = try number(value, option: name, in: 0.1...3600)
                case "--max-size": display.maxSize = try megabytes(value, option: name)
                case "--encoding": display.encoding = try encodingName(value)
                case "--no-translation": display.showsTranslations = false
                case "--at": time = try number(value, option: name, in: 0...360_000)
                case "--cols": columns = try integer(value, option: name, in: 1...1000)
                case "--rows": rows = try integer(value, option: name, in: 1...1000)
                case "--format": format = try choice(value, option: name)
                case "--start": play.start = try number(value, option: name, in: 0...360_000)
                case "--audio":
                    guard !value.isEmpty else { throw UsageError("'--audio' needs a FILE") }
                    play.audio = .file(value)
                case "--no-audio": play.audio = .none
                case "--mpv-option": play.mpvOptions.append(try mpvOption(value))
                case "--volume": play.volume = try integer(value, option: name, in: 0...130)
                case "--clock-log":
                    guard !value.isEmpty else { throw UsageError("'--clock-log' needs a FILE") }
                    play.clockLog = value
                default: break
                }
            }
            if command == "play" {
                if values.contains(where: { $0.name == "--audio" }), values.contains(where: { $0.name == "--no-audio" }) {
                    throw UsageError("'--audio' and '--no-audio' contradict each other")
                }
                play.display = display
                return .play(play)
            }
            guard let time else { throw UsageError("'render' needs '--at SECONDS'") }
            return .render(RenderRequest(display: display, time: time, columns: columns, rows: rows, format: format))
        }
    }

    /// An encoding name as iconv takes it (`GBK`, `SHIFT_JIS`, `cp1252`); whether iconv knows it is
    /// found when the file is read.
    static func encodingName(_ text: String) throws(UsageError) -> String {
        guard !text.isEmpty, text.count <= 40,
              text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) else {
            throw UsageError("bad value '\(text)' for '--encoding'; expected an encoding name such as GBK, "
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
            throw UsageError("bad value '\(text)' for '\(option)'; expected a whole number from "
                + "\(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    static func number(_ text: String, option: String, in range: ClosedRange<Double>) throws(UsageError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw UsageError("bad value '\(text)' for '\(option)'; expected a number from "
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
            throw UsageError("bad value '\(text)' for '\(option)'; expected "
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
                throw UsageError("bad colour '\(name)' in '--colors'; expected a name ("
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
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
