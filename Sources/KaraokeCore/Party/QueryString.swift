/// The query of a guest's request, `q=queen&limit=5`, read into names and values (DESIGN §20.2).
///
/// Percent-decoding is ours, and strict: a `%` not followed by two hexadecimal digits, or bytes that are not
/// UTF-8 once decoded, make the whole query bad (a 400), instead of being passed on half read.
public struct QueryString: Sendable, Equatable {
    /// The values by name; of a name given twice, the first counts.
    public var values: [String: String]

    /// The query `text` (after `?`, without it), or nil when it holds a bad escape or bytes that are not UTF-8.
    public init?(_ text: String) {
        values = [:]
        for pair in text.utf8.split(separator: UInt8(ascii: "&")) {
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let nameBytes = pair[..<(equals ?? pair.endIndex)]
            let valueBytes = equals.map { pair[pair.index(after: $0)...] } ?? pair[pair.endIndex...]
            guard let name = Self.decoded(nameBytes), let value = Self.decoded(valueBytes) else { return nil }
            if values[name] == nil { values[name] = value }
        }
    }

    /// The value of `name`, or nil when the query has none.
    public subscript(name: String) -> String? { values[name] }

    /// `bytes` with `%XX` escapes decoded and `+` as a space (as forms send it); nil for a bad escape or a
    /// result that is not UTF-8.
    public static func decoded(_ bytes: some Collection<UInt8>) -> String? {
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+"): result.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                    return nil
                }
                result.append(high << 4 | low)
            default: result.append(byte)
            }
        }
        return String(validating: result, as: UTF8.self)
    }

    /// The value of a hexadecimal digit, either case.
    static func hexValue(_ byte: UInt8) -> UInt8? {
        if ByteScanner.isDigit(byte) { return byte - UInt8(ascii: "0") }
        let lower = ByteScanner.lowercased(byte)
        guard lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "f") else { return nil }
        return lower - UInt8(ascii: "a") + 10
    }
}
