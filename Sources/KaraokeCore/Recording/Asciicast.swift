/// An asciinema recording (asciicast v2) of the frames `play` shows over a span (DESIGN §26): a header line,
/// then one output event line for each frame that changes what the terminal shows.
///
/// The bytes of the events are exactly what `play` writes to that terminal: its set-up (`TerminalCodes.setUp`)
/// and then, frame by frame, what `ScreenWriter` sends to turn the last frame into the next. A frame that
/// changes nothing writes nothing and gives no event. Nothing is written at the end: the picture stays as
/// the last frame left it. The recorder holds one screen's state, never the recording, so a long span is
/// written as it is composed.
public struct Asciicast {
    /// The header line's fields.
    public struct Header: Sendable, Equatable {
        /// The terminal's width in cells.
        public var width: Int
        /// The terminal's height in rows.
        public var height: Int
        /// When it was recorded, in seconds since 1970 (`SOURCE_DATE_EPOCH` when set, for a reproducible file).
        public var timestamp: Int
        /// The song's title, else the file's name.
        public var title: String
        /// The terminal type whose codes the events use (`env.TERM`).
        public var terminalType: String

        /// A header of these fields.
        public init(width: Int, height: Int, timestamp: Int, title: String, terminalType: String) {
            self.width = width
            self.height = height
            self.timestamp = timestamp
            self.title = title
            self.terminalType = terminalType
        }

        /// The header as one line of JSON, its newline included.
        public var line: String {
            var text = "{\"version\": 2, \"width\": \(width), \"height\": \(height), \"timestamp\": \(timestamp)"
            text += ", \"title\": "
            appendJSONString(title, to: &text)
            text += ", \"env\": {\"TERM\": "
            appendJSONString(terminalType, to: &text)
            return text + "}}\n"
        }
    }

    /// What turns frames into the terminal's bytes.
    private var writer: ScreenWriter
    /// Bytes written before the first frame's: the set-up.
    private var pending: [UInt8]
    /// One frame's bytes, kept to reuse its storage.
    private var bytes: [UInt8] = []
    /// Whether the terminal was last asked not to reorder right-to-left rows, as `play` asks it.
    private var bidiExplicit = false

    /// A recording of a `columns` × `rows` terminal with `codes` at `depth`, starting with the set-up `play`
    /// writes there.
    public init(codes: TerminalCodes, depth: ColorDepth, columns: Int, rows: Int) {
        writer = ScreenWriter(codes: codes, depth: depth, columns: columns, rows: rows)
        pending = codes.setUp
    }

    /// The event line of `frame` shown `seconds` into the recording (its newline included), or nil when
    /// the frame changes nothing the terminal shows.
    public mutating func event(for frame: Frame, at seconds: Double) -> String? {
        bytes.removeAll(keepingCapacity: true)
        bytes += pending
        pending = []
        if frame.hasRightToLeftRows != bidiExplicit {
            // ECMA-48 BDSM, as play's screen sends it: the rows are in visual order already.
            bidiExplicit = frame.hasRightToLeftRows
            bytes += (bidiExplicit ? "\u{1B}[8h" : "\u{1B}[8l").utf8
        }
        writer.write(frame, into: &bytes)
        guard !bytes.isEmpty else { return nil }
        return Asciicast.eventLine(seconds: seconds, bytes: bytes)
    }

    /// `[seconds, "o", "bytes"]` and a newline: the time to the microsecond, the bytes as a JSON string
    /// (control bytes as `\u00XX`; bytes that are not UTF-8 as U+FFFD, which no terminfo entry we read has).
    static func eventLine(seconds: Double, bytes: [UInt8]) -> String {
        var line = "[" + Asciicast.secondsText(seconds) + ", \"o\", "
        appendJSONString(String(decoding: bytes, as: UTF8.self), to: &line)
        return line + "]\n"
    }

    /// `seconds` as a JSON number with six decimals (`1.033333`): the precision asciinema writes.
    static func secondsText(_ seconds: Double) -> String {
        let micros = Int((max(0, seconds) * 1_000_000).rounded())
        let fraction = String(micros % 1_000_000)
        return "\(micros / 1_000_000)." + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
