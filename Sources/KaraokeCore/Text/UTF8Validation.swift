/// Finds where UTF-8 goes wrong, so a bad byte can be reported at its column.
public enum UTF8Validation {
    /// What starts at one byte: a valid sequence, or an invalid stretch that decodes as one U+FFFD.
    public enum ByteRun: Equatable, Sendable {
        /// A well-formed sequence of this many bytes (1 to 4).
        case valid(Int)
        /// A maximal subpart of this many bytes that does not form a character: Unicode's "maximal subpart"
        /// practice, which `String(decoding:as:)` follows, replaces it with one U+FFFD.
        case invalid(Int)
    }

    /// The valid sequence or invalid stretch that starts at `i`; `i` must be below `end`.
    ///
    /// Rejects overlong forms, surrogates and values above U+10FFFF, as `String(validating:)` does.
    @inlinable
    public static func byteRun(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int, end: Int) -> ByteRun {
        let lead = bytes[i]
        if lead < 0x80 { return .valid(1) }
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return .invalid(1)
        }
        // Only the second byte has a narrower range; the others are any continuation byte.
        var k = 1
        while k < length {
            guard i + k < end else { return .invalid(k) }
            let byte = bytes[i + k]
            let fits = k == 1 ? byte >= low && byte <= high : byte & 0xC0 == 0x80
            guard fits else { return .invalid(k) }
            k += 1
        }
        return .valid(length)
    }

    /// The index of the first byte in `range` that does not start or continue a valid UTF-8 sequence, or nil.
    @inlinable
    public static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            // Lyrics are mostly ASCII: skip eight ASCII bytes at a time.
            if i + 8 <= end {
                let word = UnsafeRawPointer(bytes.baseAddress! + i).loadUnaligned(as: UInt64.self)
                if word & 0x8080_8080_8080_8080 == 0 { i += 8; continue }
            }
            if bytes[i] < 0x80 { i += 1; continue }
            switch byteRun(bytes, at: i, end: end) {
            case .valid(let length): i += length
            case .invalid: return i
            }
        }
        return nil
    }
}
