/// What a terminal said when asked about grapheme-cluster mode, DEC private mode 2027 (DESIGN §3.6).
///
/// The question is DECRQM, `CSI ? 2027 $ p`, sent with the primary device attributes (`CSI c`) after it,
/// which every terminal answers: terminals answer in order, so the attributes' answer ends the wait and a
/// terminal that does not know DECRQM is heard from at once. The answer is DECRPM, `CSI ? 2027 ; Ps $ y`.
/// Bytes that are no answer (a key typed meanwhile, another query's answer, garbage) are skipped.
public struct GraphemeModeAnswer: Sendable, Equatable {
    /// The mode's state as DECRPM reports it.
    public enum State: Int, Sendable, Equatable, CaseIterable {
        /// Ps 0: the terminal does not know the mode.
        case unrecognised = 0
        /// Ps 1: on.
        case set = 1
        /// Ps 2: off, and it may be turned on.
        case reset = 2
        /// Ps 3: on for good.
        case permanentlySet = 3
        /// Ps 4: off for good.
        case permanentlyReset = 4
    }

    /// The state reported; nil when no report came (yet).
    public var state: State?
    /// Whether the device attributes arrived: after them nothing more is awaited.
    public var isComplete = false

    /// The mode's number.
    static let mode = 2027

    /// The DECRQM question alone, to go before the device attributes (with other questions, say).
    public static let question: [UInt8] = Array("\u{1B}[?\(mode)$p".utf8)
    /// The bytes that ask: DECRQM, then the primary device attributes.
    public static let query: [UInt8] = question + Array("\u{1B}[c".utf8)
    /// The bytes that turn the mode on.
    public static let setMode = "\u{1B}[?\(mode)h"
    /// The bytes that turn the mode off again.
    public static let resetMode = "\u{1B}[?\(mode)l"

    /// Nothing heard yet.
    public init() {}

    /// What `bytes` (everything read so far) say; a sequence cut off at the end is left for more bytes.
    public init(bytes: [UInt8]) {
        var at = 0
        while at + 1 < bytes.count, !isComplete {
            guard bytes[at] == 0x1B, bytes[at + 1] == UInt8(ascii: "[") else {
                at += 1
                continue
            }
            // Parameter and intermediate bytes run up to the final byte (0x40…0x7E).
            var end = at + 2
            while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
            guard end < bytes.count else { return }
            read(bytes[(at + 2)..<end], final: bytes[end])
            at = end + 1
        }
    }

    /// Reads DECRPM (`? 2027 ; Ps $` before `y`) and the primary device attributes (`? … c`).
    private mutating func read(_ body: ArraySlice<UInt8>, final: UInt8) {
        guard body.first == UInt8(ascii: "?") else { return }
        switch final {
        case UInt8(ascii: "c"):
            isComplete = true
        case UInt8(ascii: "y"):
            guard body.last == UInt8(ascii: "$") else { return }
            let numbers = body.dropFirst().dropLast().split(
                separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
            guard numbers.count == 2, Self.decimal(numbers[0]) == Self.mode, let ps = Self.decimal(numbers[1]) else {
                return
            }
            // A value the standard does not define says nothing the terminal can be held to.
            state = State(rawValue: ps) ?? .unrecognised
        default:
            break
        }
    }

    /// A short run of decimal digits as a number; nil for anything else.
    private static func decimal(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count <= 6, digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// How to paint for `choice` given this answer, and whether karaoke must turn the mode on first.
    ///
    /// `whole` paints whole without asking or setting anything; `reduced` never paints whole; `auto` paints
    /// whole when the mode is on (Ps 1 or 3), turns it on and paints whole when it may be turned on (Ps 2),
    /// and keeps the reduced form otherwise (Ps 0 or 4, no answer). `paintsCells` false (a terminal painted
    /// through ncurses, whose cells hold one spacing character each) keeps the reduced form.
    public func form(for choice: GraphemesChoice, paintsCells: Bool = true) -> (form: GraphemeForm, setsMode: Bool) {
        guard paintsCells else { return (.reduced, false) }
        switch choice {
        case .whole: return (.whole, false)
        case .reduced: return (.reduced, false)
        case .auto:
            switch state {
            case .set, .permanentlySet: return (.whole, false)
            case .reset: return (.whole, true)
            case .unrecognised, .permanentlyReset, nil: return (.reduced, false)
            }
        }
    }
}

/// How an emoji sequence is painted (DESIGN §3.1, §3.6): reduced to what every terminal shows at the
/// layout's width, or whole, for a terminal in grapheme-cluster mode.
public enum GraphemeForm: String, Sendable, Equatable, CaseIterable {
    /// The first emoji of the sequence (padded to its width): every terminal agrees on it.
    case reduced
    /// The sequence's own scalars, which a terminal in grapheme-cluster mode draws as one glyph.
    case whole
}

/// `--graphemes`: how emoji sequences are painted.
public enum GraphemesChoice: String, Sendable, Equatable, CaseIterable {
    /// Ask the terminal (DECRQM 2027): whole where it is or can be put in grapheme-cluster mode.
    case auto
    /// Whole, without asking and without setting the mode.
    case whole
    /// Always reduced.
    case reduced
}
