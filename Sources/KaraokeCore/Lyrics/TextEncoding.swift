import Glibc

/// Legacy encodings: converting with iconv (glibc's, so every name `iconv -l` lists works) and, for a
/// file that is not UTF-8 and names no encoding, a guess among the encodings lyric files are found in.
public enum TextEncoding {
    /// Why text could not be converted.
    public enum Failure: Error, Equatable, Sendable {
        /// iconv does not know the name.
        case unknownEncoding(String)
        /// The bytes are not valid in the encoding; the byte offset of the first bad one.
        case invalidBytes(encoding: String, offset: Int)
    }

    /// What `guess` concluded.
    public struct Guess: Equatable, Sendable {
        /// The encoding's name, as iconv spells it.
        public var encoding: String
        /// The text converted to UTF-8.
        public var utf8: [UInt8]
    }

    /// The encodings tried, in the order that breaks ties: the East Asian double-byte encodings first
    /// (LRC files from Chinese, Japanese and Korean players), then Windows' Western code page.
    static let candidates = ["GB18030", "SHIFT_JIS", "BIG5", "EUC-KR", "CP1251", "KOI8-R"]

    /// `bytes` in `encoding`, converted to `target` (UTF-8 unless said).
    public static func convert(_ bytes: [UInt8], from encoding: String, to target: String = "UTF-8")
        -> Result<[UInt8], Failure>
    {
        let descriptor = iconv_open(target, encoding)
        guard descriptor != iconv_t(bitPattern: -1) else { return .failure(.unknownEncoding(encoding)) }
        defer { iconv_close(descriptor) }
        let (output, consumed, complete) = run(descriptor, bytes)
        guard complete else { return .failure(.invalidBytes(encoding: encoding, offset: consumed)) }
        return .success(output)
    }

    /// Converts as much of `bytes` as iconv can: the output, how many bytes it consumed, whether all.
    private static func run(_ descriptor: iconv_t?, _ bytes: [UInt8]) -> (
        output: [UInt8], consumed: Int, complete: Bool
    ) {
        var output = [UInt8](repeating: 0, count: bytes.count * 4 + 16)
        var input = bytes
        if input.isEmpty { return ([], 0, true) }
        let (produced, consumed, complete) = input.withUnsafeMutableBufferPointer { inBuffer in
            output.withUnsafeMutableBufferPointer { outBuffer -> (Int, Int, Bool) in
                var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(inBuffer.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var inLeft = inBuffer.count
                var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outBuffer.baseAddress!)
                    .assumingMemoryBound(to: CChar.self)
                var outLeft = outBuffer.count
                let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                let complete = result != -1 && inLeft == 0
                // Flush any shift state (stateful encodings such as ISO-2022-JP).
                if complete { _ = iconv(descriptor, nil, nil, &outPointer, &outLeft) }
                return (outBuffer.count - outLeft, inBuffer.count - inLeft, complete)
            }
        }
        output.removeSubrange(produced...)
        return (output, consumed, complete)
    }

    /// Whether `bytes` should be read as UTF-8 (possibly with a few broken bytes repaired), rather than
    /// guessed: true when it is valid, or when its valid multi-byte sequences far outnumber its bad bytes.
    public static func isMostlyUTF8(_ bytes: [UInt8]) -> Bool {
        var valid = 0, invalid = 0
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            while i < buffer.count {
                if buffer[i] < 0x80 { i += 1; continue }
                switch UTF8Validation.byteRun(buffer, at: i, end: buffer.count) {
                case .valid(let length): valid += 1; i += length
                case .invalid(let length): invalid += 1; i += length
                }
            }
        }
        return invalid == 0 || valid >= 4 * invalid
    }

    /// The encoding a file names for itself in its head: UltraStar's `#ENCODING:NAME` (any case), or nil.
    /// `AUTO` (UltraStar's default) names none.
    public static func declared(in bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        for line in head.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.uppercased().hasPrefix("#ENCODING") else { continue }
            guard let colon = trimmed.firstIndex(of: ":") else { return nil }
            let name = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: " \t")
            guard !name.isEmpty, name.uppercased() != "AUTO",
                name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) })
            else { return nil }
            return name
        }
        return nil
    }

    /// The likeliest legacy encoding of `bytes` (which are not UTF-8), converted, or nil when none fits.
    ///
    /// Each candidate that converts without error is scored by how much of what it produces is the
    /// script it is meant for (hanzi for GB18030 and Big5, kana and kanji for Shift_JIS, hangul for
    /// EUC-KR); text whose high bytes stand alone between ASCII letters is Western (CP1252) instead, as
    /// double-byte encodings always pair them.
    public static func guess(_ bytes: [UInt8]) -> Guess? {
        if highBytesStandAlone(bytes), case .success(let text) = convert(bytes, from: "CP1252") {
            return Guess(encoding: "CP1252", utf8: text)
        }
        var best: (score: Double, guess: Guess)?
        for encoding in candidates {
            guard case .success(let text) = convert(bytes, from: encoding) else { continue }
            let score = self.score(String(decoding: text, as: UTF8.self), encoding: encoding)
            if score > (best?.score ?? 0.5) { best = (score, Guess(encoding: encoding, utf8: text)) }
        }
        if let best { return best.guess }
        if case .success(let text) = convert(bytes, from: "CP1252") { return Guess(encoding: "CP1252", utf8: text) }
        if case .success(let text) = convert(bytes, from: "ISO-8859-1") {
            return Guess(encoding: "ISO-8859-1", utf8: text)
        }
        return nil
    }

    /// The share of the non-ASCII characters of `text` that belong to the script `encoding` is for.
    static func score(_ text: String, encoding: String) -> Double {
        var expected = 0.0, total = 0.0
        for scalar in text.unicodeScalars where scalar.value >= 0x80 {
            total += 1
            let v = scalar.value
            let ideograph = (0x4E00...0x9FFF).contains(v)
            let punctuation = (0x3000...0x303F).contains(v) || (0xFF01...0xFF5E).contains(v)
            switch encoding {
            case "SHIFT_JIS":
                if (0x3040...0x30FF).contains(v) {
                    expected += 1.2
                } // kana: only Japanese has them
                else if ideograph || punctuation {
                    expected += 1
                } else if (0xFF61...0xFF9F).contains(v) {
                    expected -= 0.5
                } // half-width kana: rare in lyrics
            case "CP1251", "KOI8-R":
                // Both give Cyrillic for every high byte, with the cases swapped: running text is mostly
                // lower case, so the right one is the one that reads so.
                if (0x0430...0x044F).contains(v) || v == 0x0451 {
                    expected += 0.95
                } else if (0x0410...0x042F).contains(v) || v == 0x0401 {
                    expected += 0.3
                } else if v == 0x2014 || v == 0x2013 || v == 0x00AB || v == 0x00BB {
                    expected += 0.9
                } else {
                    expected -= 1
                }
            case "EUC-KR":
                if (0xAC00...0xD7A3).contains(v) { expected += 1.1 } else if punctuation { expected += 1 }
            default:
                if ideograph || punctuation {
                    expected += 1
                }
                // GB18030's four-byte forms and rare areas: what mis-decoded bytes look like.
                else if v > 0xFFFF || (0xE000...0xF8FF).contains(v) || (0x3400...0x4DBF).contains(v) {
                    expected -= 1
                }
            }
        }
        return total == 0 ? 0 : expected / total
    }

    /// Whether most bytes above 0x7F sit alone between ASCII bytes (Western text in a single-byte code page).
    static func highBytesStandAlone(_ bytes: [UInt8]) -> Bool {
        var alone = 0, paired = 0
        var i = 0
        while i < bytes.count {
            if bytes[i] < 0x80 { i += 1; continue }
            var run = 0
            while i < bytes.count, bytes[i] >= 0x80 { run += 1; i += 1 }
            if run == 1 { alone += 1 } else { paired += 1 }
        }
        return alone > 2 * paired
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        var result = self
        while let first = result.first, set.contains(first) { result.removeFirst() }
        while let last = result.last, set.contains(last) { result.removeLast() }
        return String(result)
    }
}
