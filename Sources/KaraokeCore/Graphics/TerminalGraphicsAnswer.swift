/// What a terminal said about pixels when asked (DESIGN §19.9): whether it draws kitty graphics and
/// sixel, and how large a cell is in pixels.
///
/// The questions go out in one write, `query`: the kitty graphics query, the cell size (`CSI 16 t`) and
/// last the primary device attributes (`CSI c`), which every terminal answers. Terminals answer in order,
/// so the attributes' answer ends the wait: an answer to the kitty query that comes after it is no
/// answer, and nothing more is coming. Bytes that are no answer (a key typed meanwhile, garbage) are
/// skipped.
public struct TerminalGraphicsAnswer: Sendable, Equatable {
    /// A size in pixels.
    public struct PixelSize: Sendable, Equatable {
        /// Pixels across.
        public var width: Int
        /// Pixels down.
        public var height: Int

        /// Creates a size.
        public init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }
    }

    /// Whether the terminal answered the kitty graphics query with OK before its device attributes.
    public var kitty = false
    /// Whether the device attributes name sixel graphics (parameter 4).
    public var sixel = false
    /// A cell's size in pixels, when the terminal gave it.
    public var cellSize: PixelSize?
    /// Whether the device attributes arrived: after them nothing more is awaited.
    public var isComplete = false

    /// The image id of the kitty query; its answer names it.
    static let kittyQueryID = 31

    /// The questions without the device attributes, to go before other questions that end with them
    /// (DESIGN §3.6): kitty graphics (a 1×1 RGB pixel, only queried), then the cell size.
    public static let questions: [UInt8] = Array(
        "\u{1B}_Gi=\(kittyQueryID),s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t".utf8)

    /// The bytes that ask: the questions, then the primary device attributes.
    public static let query: [UInt8] = questions + Array("\u{1B}[c".utf8)

    /// Nothing heard yet.
    public init() {}

    /// What `bytes` (everything read so far) say; a sequence cut off at the end is left for more bytes.
    public init(bytes: [UInt8]) {
        var at = 0
        while at < bytes.count, !isComplete {
            guard bytes[at] == 0x1B, at + 1 < bytes.count else {
                at += 1
                continue
            }
            switch bytes[at + 1] {
            case UInt8(ascii: "["):
                guard let end = Self.end(ofControlSequenceIn: bytes, from: at + 2) else { return }
                read(controlSequence: bytes[(at + 2)..<end], final: bytes[end])
                at = end + 1
            case UInt8(ascii: "_"):
                guard let end = Self.stringTerminator(in: bytes, from: at + 2) else { return }
                read(applicationCommand: bytes[(at + 2)..<end])
                at = end + 2
            default:
                at += 1
            }
        }
    }

    /// The index of a control sequence's final byte, scanning from its first parameter byte; nil when the
    /// bytes end first. A byte that cannot be in a control sequence ends it too (it is then no answer).
    private static func end(ofControlSequenceIn bytes: [UInt8], from start: Int) -> Int? {
        var at = start
        while at < bytes.count {
            if !(0x20...0x3F).contains(bytes[at]) { return at }
            at += 1
        }
        return nil
    }

    /// The index of the ESC of the `ESC \` that ends a string, scanning from `start`; nil when the bytes end first.
    private static func stringTerminator(in bytes: [UInt8], from start: Int) -> Int? {
        var at = start
        while at + 1 < bytes.count {
            if bytes[at] == 0x1B && bytes[at + 1] == UInt8(ascii: "\\") { return at }
            at += 1
        }
        return nil
    }

    /// Reads the primary device attributes (`CSI ? … c`) and the cell size (`CSI 6 ; h ; w t`).
    private mutating func read(controlSequence parameters: ArraySlice<UInt8>, final: UInt8) {
        switch final {
        case UInt8(ascii: "c") where parameters.first == UInt8(ascii: "?"):
            isComplete = true
            sixel = Self.numbers(parameters.dropFirst()).contains(4)
        case UInt8(ascii: "t"):
            let numbers = Self.numbers(parameters)
            if numbers.count == 3, numbers[0] == 6, let height = numbers[1], let width = numbers[2], height > 0,
                width > 0
            {
                cellSize = PixelSize(width: width, height: height)
            }
        default:
            break
        }
    }

    /// Reads a kitty graphics answer: `G`, the keys, `;`, then `OK` or an error.
    private mutating func read(applicationCommand body: ArraySlice<UInt8>) {
        guard body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) else { return }
        let keys = body[(body.startIndex + 1)..<semicolon].split(separator: UInt8(ascii: ","))
        guard keys.contains(where: { Array($0) == Array("i=\(Self.kittyQueryID)".utf8) }) else { return }
        if Array(body[(semicolon + 1)...]) == Array("OK".utf8) { kitty = true }
    }

    /// The numbers between semicolons; nil for a part that is empty, not decimal, or absurdly long.
    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int?] {
        bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).map { part in
            guard !part.isEmpty, part.count <= 6, part.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}
