/// What an option's value may be, declared once in the option table (DESIGN §1): the parser checks a value
/// against it, the help, the man page and `karaoke config` show its range or choices, and the completions
/// offer its choices, files or folders.
enum ValueRule: Sendable, Equatable {
    /// No value: the option is a flag.
    case flag
    /// A whole number within the range.
    case integer(ClosedRange<Int>)
    /// A whole number within the range, or one of the words, each standing for a number (`--vocals 50`,
    /// `--vocals reduced`).
    case integerOrWord(ClosedRange<Int>, words: [String: Int])
    /// A number within the range.
    case decimal(ClosedRange<Double>)
    /// One of these words, which the placeholder lists (`left|center|right`).
    case choice([String])
    /// One of these words, named by the placeholder (`FORMAT`) and listed in the help sentence.
    case namedChoice([String])
    /// A file's path, not empty.
    case file
    /// A folder's path, not empty; `called` is how a refusal names it.
    case folder(called: String)
    /// Any text but an empty one, named by the placeholder (`--singer NAME`).
    case word
    /// A name to look up: not blank, at most 1,000 characters.
    case name
    /// `auto`, `mpris`, `mpris:NAME`, `mpd`, `mpd:HOST` or `mpd:HOST:PORT` (`PlayerChoice`).
    case player
    /// `SOURCE` or `Pn=SOURCE` (`ScoringOptions.Microphone`).
    case microphone
    /// `KEY=VALUE` for mpv, the key as mpv spells it.
    case mpvOption
    /// Colour names or `#rrggbb`, comma separated.
    case colorList
    /// An encoding name as iconv takes it.
    case encoding
    /// An LRCLIB server's `http://` or `https://` address.
    case serverURL
    /// An IPv4 address as four dotted numbers 0…255, without leading zeros (`192.168.1.20`).
    case ipv4Address
    /// A party's room code: 1 to 12 ASCII letters or digits.
    case roomCode

    /// The rule of a choice among an enumeration's cases, in their order.
    static func choice<Choice: RawRepresentable & CaseIterable>(of _: Choice.Type) -> ValueRule
    where Choice.RawValue == String {
        .choice(Choice.allCases.map(\.rawValue))
    }

    /// The words the value is one of, for the completions and the messages; nil when it is not a choice.
    var choices: [String]? {
        switch self {
        case .choice(let words), .namedChoice(let words): words
        default: nil
        }
    }

    /// The words a shell completes the value from: the choices, the plain words of `--player`'s, or the
    /// words a number may be given as.
    var candidates: [String]? {
        switch self {
        case .player: ["auto", "mpris", "mpd"]
        case .integerOrWord(_, let words): ValueRule.ordered(words)
        default: choices
        }
    }

    /// The words of an `integerOrWord` rule, the one for the largest number first (`normal`, `reduced`).
    static func ordered(_ words: [String: Int]) -> [String] {
        words.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map(\.key)
    }

    /// The placeholder the rule itself implies (a choice's words, a syntax's shape); nil when the option
    /// names its value (`N`, `FILE`, `SECONDS`).
    var impliedPlaceholder: String? {
        switch self {
        case .choice(let words): words.joined(separator: "|")
        case .player: "auto|mpris|mpris:NAME|mpd|mpd:HOST[:PORT]"
        case .microphone: "[P1=]SOURCE"
        case .mpvOption: "KEY=VALUE"
        case .colorList: "LIST"
        case .serverURL: "URL"
        case .encoding: "NAME"
        case .ipv4Address: "ADDR"
        case .roomCode: "CODE"
        default: nil
        }
    }

    /// The range as the help writes it (`1…120`, `0.5…1.5`); nil for a rule without one, or for a whole
    /// number whose only bound worth saying is "not negative" (`--seed`).
    var writtenRange: String? {
        switch self {
        case .integer(let range) where range.upperBound < Int.max, .integerOrWord(let range, _):
            "\(range.lowerBound)…\(range.upperBound)"
        case .decimal(let range): ValueRule.written(range.lowerBound) + "…" + ValueRule.written(range.upperBound)
        default: nil
        }
    }

    /// What a refusal of an empty value says the option needs: `a FILE`, `a DIR`, `a NAME`.
    var missingNoun: String {
        switch self {
        case .folder(let called): "a " + called
        case .word: "a NAME"
        default: "a FILE"
        }
    }

    /// A number as the help and the messages write it: `4`, not `4.0`.
    static func written(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value))" : "\(value)"
    }

    /// Checks `text`, the value given to `option`, and reads it.
    func read(_ text: String, for option: String) throws(UsageProblem) -> OptionValue {
        let refusal = UsageProblem.badValue(text, option: option, rule: self)
        switch self {
        case .flag:
            return .text(text)
        case .integer(let range):
            guard let value = Int(text), range.contains(value) else { throw refusal }
            return .integer(value)
        case .integerOrWord(let range, let words):
            guard let value = words[text] ?? Int(text), range.contains(value) else { throw refusal }
            return .integer(value)
        case .decimal(let range):
            guard let value = Double(text), value.isFinite, range.contains(value) else { throw refusal }
            return .decimal(value, text: text)
        case .choice(let words), .namedChoice(let words):
            guard words.contains(text) else { throw refusal }
            return .text(text)
        case .file, .folder, .word:
            guard !text.isEmpty else { throw UsageProblem.emptyValue(option: option, rule: self) }
            return .text(text)
        case .name:
            guard !text.trimmingSpaces().isEmpty, text.count <= 1000 else { throw refusal }
            return .text(text)
        case .player:
            guard let player = PlayerChoice(parsing: text) else { throw refusal }
            return .player(player)
        case .microphone:
            guard !text.isEmpty, text.count <= 1000,
                !text.unicodeScalars.contains(where: { ControlCharacters.isForbidden($0.value) }),
                let microphone = ScoringOptions.Microphone(argument: text)
            else { throw refusal }
            return .microphone(microphone, argument: text)
        case .mpvOption:
            var text = Substring(text)
            while text.hasPrefix("-") { text = text.dropFirst() }
            let key = text.prefix { $0 != "=" }
            guard !key.isEmpty,
                key.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { throw UsageProblem.badValue(String(text), option: option, rule: self) }
            return .text(String(text))
        case .colorList:
            var colors: [RGB] = []
            for part in text.split(separator: ",", omittingEmptySubsequences: false) {
                let name = String(part).trimmingSpaces()
                guard let color = RGB(parsing: name) else { throw UsageProblem.badColor(name) }
                colors.append(color)
            }
            return .colors(colors)
        case .encoding:
            guard !text.isEmpty, text.count <= 40,
                text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
            else { throw refusal }
            return .text(text)
        case .serverURL:
            let lower = text.lowercased()
            let scheme = lower.hasPrefix("https://") ? 8 : lower.hasPrefix("http://") ? 7 : 0
            guard scheme > 0, text.count > scheme, text.count <= 2000,
                !text.unicodeScalars.contains(where: { $0 == " " || ControlCharacters.isForbidden($0.value) })
            else { throw refusal }
            return .text(text)
        case .ipv4Address:
            guard ValueRule.isIPv4Address(text) else { throw refusal }
            return .text(text)
        case .roomCode:
            guard (1...12).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { throw refusal }
            return .text(text)
        }
    }

    /// Whether `text` is an IPv4 address as `--bind` takes it: four parts between dots, each 0…255 in decimal
    /// digits with no leading zero but "0" itself (so `01.2.3.4`, which some readers take as octal, is refused).
    static func isIPv4Address(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                (1...3).contains(part.count) && part.allSatisfy { $0.isASCII && $0.isNumber }
                    && (part.count == 1 || part.first != "0") && Int(part).map { $0 <= 255 } == true
            }
    }
}

/// An option's value once its rule has read it: the option's `apply` takes the form its rule gives.
enum OptionValue: Sendable, Equatable {
    /// A flag's (empty) or a text value.
    case text(String)
    /// A `ValueRule.integer` value.
    case integer(Int)
    /// A `ValueRule.decimal` value, and its text as written.
    case decimal(Double, text: String)
    /// `--colors`.
    case colors([RGB])
    /// `--player`.
    case player(PlayerChoice)
    /// `--mic`, with the argument as given (for the message when it names a part twice).
    case microphone(ScoringOptions.Microphone, argument: String)

    /// The text; an option whose rule gives another form asking for it is a mistake in the table.
    var text: String {
        guard case .text(let text) = self else { preconditionFailure("not a text value: \(self)") }
        return text
    }

    /// The whole number of a `.integer` rule.
    var integer: Int {
        guard case .integer(let value) = self else { preconditionFailure("not a whole number: \(self)") }
        return value
    }

    /// The number of a `.decimal` rule.
    var decimal: Double {
        guard case .decimal(let value, _) = self else { preconditionFailure("not a number: \(self)") }
        return value
    }

    /// The text of a `.decimal` rule's number as written (`0.57`), for what must be exact to the digit.
    var decimalText: String {
        guard case .decimal(_, let text) = self else { preconditionFailure("not a number: \(self)") }
        return text
    }

    /// The colours of `.colorList`.
    var colors: [RGB] {
        guard case .colors(let colors) = self else { preconditionFailure("not colours: \(self)") }
        return colors
    }

    /// The player of `.player`.
    var player: PlayerChoice {
        guard case .player(let player) = self else { preconditionFailure("not a player: \(self)") }
        return player
    }

    /// The microphone of `.microphone`, and the argument that named it.
    var microphone: (microphone: ScoringOptions.Microphone, argument: String) {
        guard case .microphone(let microphone, let argument) = self else {
            preconditionFailure("not a microphone: \(self)")
        }
        return (microphone, argument)
    }

    /// The case of `Choice` a `.choice(of:)` rule's word names.
    func choice<Choice: RawRepresentable>() -> Choice where Choice.RawValue == String {
        guard let choice = Choice(rawValue: text) else { preconditionFailure("not a \(Choice.self): \(text)") }
        return choice
    }
}
