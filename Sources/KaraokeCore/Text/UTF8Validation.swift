/// Finds where UTF-8 goes wrong, so a bad byte can be reported at its column.
public enum UTF8Validation {
    /// The index of the first byte in `range` that does not start or continue a valid UTF-8 sequence, or nil.
    ///
    /// Rejects overlong forms, surrogates and values above U+10FFFF, as `String(validating:)` does.
    @inlinable
    public static func firstInvalidIndex(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        while i < end {
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
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
            default: return i
            }
            guard i + length <= end else { return i }
            let second = bytes[i + 1]
            guard second >= low && second <= high else { return i }
            var k = 2
            while k < length {
                guard bytes[i + k] & 0xC0 == 0x80 else { return i }
                k += 1
            }
            i += length
        }
        return nil
    }
}
