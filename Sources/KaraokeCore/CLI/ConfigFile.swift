/// The settings of `$XDG_CONFIG_HOME/karaoke/config`, read from its text (DESIGN §14.4): `key = value` a line,
/// a key for each long option of `CommandLineOption.all` (its name without `--`), `#` starting a comment line
/// (and ` # ` a comment after a value).
///
/// Reading never fails: an unknown key or a bad value is a warning at its line, and the line is left out.
/// Each value is checked by the option's own `apply`, so the file accepts exactly what the command line does.
public struct ConfigFile: Sendable, Equatable {
    /// One accepted `key = value` line.
    public struct Setting: Sendable, Equatable {
        /// The option's long name, with its `--`.
        public var option: String
        /// The value as written (`true` or `false` for a flag).
        public var value: String
        /// The 1-based line it is on.
        public var line: Int
    }

    /// The options that name one song, one moment or one output, or one run's choice: they belong on the
    /// command line, and setting them for every run would be a trap (`output = x` would overwrite x each time,
    /// `calibrate = true` would never time a song, `code = x` would give every party the same room code).
    static let commandLineOnly: Set<String> = [
        "--help", "--at", "--from", "--to", "--output", "--force", "--artist", "--title", "--album", "--duration",
        "--lyrics", "--audio", "--start", "--save", "--pick", "--print", "--calibrate", "--resume", "--no-resume",
        "--clock-log", "--score-out", "--melody-channel", "--code",
    ]

    /// The options a config file may set, in the help's order.
    public static var keys: [String] {
        settable.map { String($0.name.dropFirst(2)) }
    }

    /// The keys in the order suggestions try them: those more commands share first, as the command line's
    /// suggestions do (`colr` is `color`, not render's `cols`).
    static var suggestionOrder: [String] {
        settable.enumerated().sorted { ($1.element.commands.count, $0.offset) < ($0.element.commands.count, $1.offset) }
            .map { String($0.element.name.dropFirst(2)) }
    }

    /// The options a config file may set.
    static var settable: [CommandLineOption] {
        CommandLineOption.all.filter { !commandLineOnly.contains($0.name) }
    }

    /// The file's path as shown in warnings and in `karaoke config`.
    public let path: String
    /// The accepted settings, in the file's order.
    public private(set) var settings: [Setting] = []
    /// One warning per line left out.
    public private(set) var warnings: [Diagnostic] = []

    /// Reads the settings of `text`, the content of the file at `path`.
    public init(path: String, text: String) {
        self.path = path
        var number = 0
        // "\r\n" is one Character in Swift, so a file saved on Windows is split on it too.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            let line = ConfigFile.trimmed(rawLine)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let equals = line.firstIndex(of: "=") else {
                warn(number, "expected 'key = value', got '\(line.prefix(60))'")
                continue
            }
            var key = ConfigFile.trimmed(line[..<equals])
            let value = ConfigFile.unquoted(
                ConfigFile.withoutComment(ConfigFile.trimmed(line[line.index(after: equals)...])))
            // A key written as on the command line is understood, and said so.
            if key.hasPrefix("--") { key = String(key.dropFirst(2)) }
            guard let option = ConfigFile.settable.first(where: { $0.name == "--" + key }) else {
                let reason =
                    ConfigFile.commandLineOnly.contains("--" + key)
                    ? "'\(key)' is given on the command line only"
                    : "unknown key '\(key.prefix(60))'"
                        + CommandLineParser.suggestion(for: key, among: ConfigFile.suggestionOrder)
                warn(number, reason)
                continue
            }
            if !option.takesValue {
                guard value == "true" || value == "false" else {
                    warn(number, "bad value '\(value.prefix(60))' for '\(key)'; expected true or false")
                    continue
                }
            } else if option.bareValue != nil, value == "true" || value == "false" {
                // An optional value may be left out as on the command line: `monitor = true` is bare `--monitor`.
            } else {
                // The option's own check, on values that are thrown away: the file is only read here.
                var scratch = OptionValues()
                do throws(UsageProblem) {
                    try option.set(value, into: &scratch)
                } catch {
                    warn(number, error.message)
                    continue
                }
            }
            settings.append(Setting(option: option.name, value: value, line: number))
        }
    }

    /// Sets what the file says into `values` for `command`, except the options in `overridden` (those the
    /// command line gives, which win; a repeatable one given there replaces the file's list).
    func apply(to values: inout OptionValues, for command: CommandLineOption.Command, except overridden: Set<String>) {
        for setting in settings where !overridden.contains(setting.option) {
            guard let option = CommandLineOption.named(setting.option, for: command) else { continue }
            if !option.takesValue {
                if setting.value == "true" { try? option.set("", into: &values) }
            } else if let bare = option.bareValue, setting.value == "true" || setting.value == "false" {
                if setting.value == "true" { try? option.set(bare, into: &values) }
            } else {
                try? option.set(setting.value, into: &values)
            }
        }
    }

    /// Records a warning at `line`.
    private mutating func warn(_ line: Int, _ message: String) {
        warnings.append(Diagnostic(.warning, file: path, line: line, column: 0, message))
    }

    /// `text` without spaces, tabs and a carriage return at either end.
    static func trimmed(_ text: Substring) -> String {
        var text = text
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" || last == "\r" { text.removeLast() }
        return String(text)
    }

    /// `value` without a trailing comment: ` # ` with a space on both sides, outside double quotes, so a
    /// colour such as `#ff0000` is not one. `karaoke config` writes each setting's source so.
    static func withoutComment(_ value: String) -> String {
        var inQuotes = false
        var previous: Character = " "
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "\"" { inQuotes.toggle() }
            let next = value.index(after: index)
            if !inQuotes, character == "#", previous == " " || previous == "\t",
                next == value.endIndex || value[next] == " " || value[next] == "\t", index != value.startIndex
            {
                return trimmed(value[..<index])
            }
            previous = character
            index = next
        }
        return value
    }

    /// `text` without one pair of double quotes around it, so a value may keep its outer spaces.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return text }
        return String(text.dropFirst().dropLast())
    }

    /// `$XDG_CONFIG_HOME/karaoke/config` (XDG_CONFIG_HOME defaulting to `~/.config`), or nil without either.
    public static func standardPath(environment: (String) -> String?) -> String? {
        LyricsSearch.xdgFolder("XDG_CONFIG_HOME", orBelowHome: ".config", environment: environment)
            .map { $0 + "/karaoke/config" }
    }
}
