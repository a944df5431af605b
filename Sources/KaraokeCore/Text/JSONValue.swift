/// A JSON value read from UTF-8 bytes (RFC 8259): what karaoke needs to read mpv's replies without
/// Foundation's decoder, whose library alone costs every start of the binary.
///
/// Strict where the standard is (no trailing commas, no comments, no bare control characters in
/// strings, nothing after the value), and bounded: nesting deeper than `maximumDepth` is refused
/// instead of exhausting the stack.
enum JSONValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// An object's members by name; of a name given twice, the last one counts.
    case object([String: JSONValue])

    /// Arrays and objects nested deeper than this are refused.
    static let maximumDepth = 64

    /// Why bytes are not one JSON value: what was wrong, and at which byte.
    struct Malformed: Error, Equatable, Sendable, CustomStringConvertible {
        /// The 0-based byte offset where reading stopped.
        var offset: Int
        /// What was expected or found there, lower case.
        var reason: String

        /// `reason at byte N`.
        var description: String { "\(reason) at byte \(offset)" }
    }

    /// Reads `bytes` as exactly one JSON value, white space around it allowed.
    static func parse(_ bytes: [UInt8]) throws(Malformed) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(Malformed) in
            var reader = JSONReader(bytes: buffer)
            reader.skipWhitespace()
            let value = try reader.readValue(depth: 0)
            reader.skipWhitespace()
            guard reader.index == buffer.count else { throw reader.failure("text after the value") }
            return value
        }
    }

    /// Reads `bytes` as `parse(_:)` does, throwing what `failure` makes of its `Malformed`: the callers' own
    /// error, worded their way.
    static func parse<Failure: Error>(
        _ bytes: [UInt8], else failure: (Malformed) -> Failure
    ) throws(Failure) -> JSONValue {
        do {
            return try parse(bytes)
        } catch {
            throw failure(error)
        }
    }

    /// The member `name` of an object; nil for a missing member or a value that is not an object.
    subscript(name: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members[name]
    }

    /// The string, when this is one.
    var string: String? {
        guard case .string(let text) = self else { return nil }
        return text
    }

    /// The number, when this is one.
    var number: Double? {
        guard case .number(let value) = self else { return nil }
        return value
    }

    /// The number as an `Int`, when this is a whole number that fits one.
    var integer: Int? {
        guard let value = number, value == value.rounded(), value.magnitude < 0x1p53 else { return nil }
        return Int(value)
    }
}

/// Reads one JSON value from a buffer, byte by byte; a recursive descent, one function a grammar rule.
private struct JSONReader {
    let bytes: UnsafeBufferPointer<UInt8>
    /// The next byte to read.
    var index = 0

    /// A failure at the current byte.
    func failure(_ reason: String) -> JSONValue.Malformed { JSONValue.Malformed(offset: index, reason: reason) }

    /// Moves past JSON white space: space, tab, LF and CR.
    mutating func skipWhitespace() {
        index = ByteScanner.skip(bytes, from: index, to: bytes.count, while: ByteScanner.isXMLWhitespace)
    }

    /// Reads the value at `index`, nested `depth` arrays or objects deep.
    mutating func readValue(depth: Int) throws(JSONValue.Malformed) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value, found the end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try readObject(depth: depth + 1)
        case UInt8(ascii: "["): return try readArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try readString())
        case UInt8(ascii: "t"): try readWord("true"); return .bool(true)
        case UInt8(ascii: "f"): try readWord("false"); return .bool(false)
        case UInt8(ascii: "n"): try readWord("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try readNumber())
        default: throw failure("expected a value")
        }
    }

    /// Reads `true`, `false` or `null`.
    mutating func readWord(_ word: StaticString) throws(JSONValue.Malformed) {
        guard ByteScanner.hasPrefix(word, in: bytes, at: index, end: bytes.count, ignoringCase: false) else {
            throw failure("expected '\(word)'")
        }
        index += word.utf8CodeUnitCount
    }

    /// Reads `{ "name": value, … }`.
    mutating func readObject(depth: Int) throws(JSONValue.Malformed) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw failure("nested deeper than \(JSONValue.maximumDepth)") }
        index += 1
        var members: [String: JSONValue] = [:]
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .object(members) }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a member name")
            }
            let name = try readString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw failure("expected ':'") }
            index += 1
            skipWhitespace()
            members[name] = try readValue(depth: depth)
            if try readSeparator(closing: "}") { return .object(members) }
        }
    }

    /// Reads `[ value, … ]`.
    mutating func readArray(depth: Int) throws(JSONValue.Malformed) -> JSONValue {
        guard depth <= JSONValue.maximumDepth else { throw failure("nested deeper than \(JSONValue.maximumDepth)") }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(elements) }
        while true {
            skipWhitespace()
            elements.append(try readValue(depth: depth))
            if try readSeparator(closing: "]") { return .array(elements) }
        }
    }

    /// Reads what follows a member or an element: `,` (false: another follows) or `closer` (true: the
    /// object or array ends here); anything else fails at that byte.
    mutating func readSeparator(closing closer: Unicode.Scalar) throws(JSONValue.Malformed) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw failure("expected ',' or '\(closer)', found the end") }
        let byte = bytes[index]
        guard byte == UInt8(ascii: ",") || byte == UInt8(ascii: closer) else {
            throw failure("expected ',' or '\(closer)'")
        }
        index += 1
        return byte != UInt8(ascii: ",")
    }

    /// Reads `-?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?` and converts it with the standard library.
    mutating func readNumber() throws(JSONValue.Malformed) -> Double {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, ByteScanner.isDigit(bytes[index]) else { throw failure("expected a digit") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            index = ByteScanner.skip(bytes, from: index, to: bytes.count, while: ByteScanner.isDigit)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            try readDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            try readDigits()
        }
        // The grammar is checked above; the standard library does the correctly rounded conversion.
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            index = start
            throw failure("number out of range")
        }
        return value
    }

    /// Moves past one or more digits.
    mutating func readDigits() throws(JSONValue.Malformed) {
        guard index < bytes.count, ByteScanner.isDigit(bytes[index]) else { throw failure("expected a digit") }
        index = ByteScanner.skip(bytes, from: index, to: bytes.count, while: ByteScanner.isDigit)
    }

    /// Reads a string from its opening quote to its closing one, escapes decoded; bytes that are not
    /// UTF-8 become U+FFFD, as `String(decoding:)` makes them.
    mutating func readString() throws(JSONValue.Malformed) -> String {
        index += 1
        var decoded: [UInt8] = []
        var runStart = index
        while true {
            guard index < bytes.count else { throw failure("unterminated string") }
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            }
            if byte < 0x20 { throw failure("control character in a string") }
            guard byte == UInt8(ascii: "\\") else { index += 1; continue }
            decoded.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
            index += 1
            guard index < bytes.count else { throw failure("unterminated string") }
            let escaped = bytes[index]
            index += 1
            switch escaped {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escaped)
            case UInt8(ascii: "b"): decoded.append(0x08)
            case UInt8(ascii: "f"): decoded.append(0x0C)
            case UInt8(ascii: "n"): decoded.append(0x0A)
            case UInt8(ascii: "r"): decoded.append(0x0D)
            case UInt8(ascii: "t"): decoded.append(0x09)
            case UInt8(ascii: "u"): UTF8.encode(try readUnicodeEscape()) { decoded.append($0) }
            default:
                index -= 1
                throw failure("unknown escape '\\\(Character(Unicode.Scalar(escaped)))'")
            }
            runStart = index
        }
    }

    /// Reads the `XXXX` after `\u`, and for a high surrogate the `\uXXXX` of its low half.
    mutating func readUnicodeEscape() throws(JSONValue.Malformed) -> Unicode.Scalar {
        let first = try readHex4()
        if (0xDC00...0xDFFF).contains(first) { throw failure("lone low surrogate") }
        guard (0xD800...0xDBFF).contains(first) else { return Unicode.Scalar(first)! }
        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
            throw failure("high surrogate without its low half")
        }
        index += 2
        let second = try readHex4()
        guard (0xDC00...0xDFFF).contains(second) else { throw failure("high surrogate without its low half") }
        return Unicode.Scalar(0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00))!
    }

    /// Reads four hexadecimal digits.
    mutating func readHex4() throws(JSONValue.Malformed) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("expected four hexadecimal digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            if ByteScanner.isDigit(byte) {
                digit = UInt32(byte - 0x30)
            } else if ByteScanner.lowercased(byte) &- 0x61 < 6 {
                digit = UInt32(ByteScanner.lowercased(byte) - 0x61 + 10)
            } else {
                throw failure("expected four hexadecimal digits")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }
}
