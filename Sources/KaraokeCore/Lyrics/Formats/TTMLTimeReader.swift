/// Reads TTML time expressions: clock times and offset times, with the file's frame and tick rates.
struct TTMLTimeReader {
    /// Frames a second (`ttp:frameRate` × `ttp:frameRateMultiplier`), 30 when the file does not say.
    var frameRate = 30.0
    /// Ticks a second (`ttp:tickRate`), 1 when the file does not say.
    var tickRate = 1.0

    /// The time in milliseconds of an attribute value's UTF-8 bytes: `hh:mm:ss.fff`, `mm:ss.fff`, `ss.fff`,
    /// `hh:mm:ss:ff`, or a number with a unit (`1.5s`, `150ms`, `2m`, `1h`, `12f`, `10t`), XML whitespace
    /// around it allowed; nil when it is neither.
    func milliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        Self.plainClockMilliseconds(bytes) ?? fullMilliseconds(bytes)
    }

    /// `milliseconds` without its shortcut for plain clock times: every form, read through floating point.
    func fullMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let value = ByteScanner.trimmed(bytes, 0..<bytes.count, where: ByteScanner.isXMLWhitespace)
        guard !value.isEmpty, value.count <= 64 else { return nil }
        let start = value.lowerBound, end = value.upperBound
        // An offset time ends in its unit.
        var unitStart = end
        while unitStart > start, ByteScanner.isLetter(bytes[unitStart - 1]) { unitStart -= 1 }
        if unitStart < end {
            guard let number = Self.decimal(bytes, start..<unitStart) else { return nil }
            let units: [(name: StaticString, milliseconds: Double)] = [
                ("h", 3_600_000), ("m", 60_000), ("s", 1000), ("ms", 1), ("f", 1000 / frameRate),
                ("t", 1000 / tickRate),
            ]
            guard
                let scale = units.first(where: {
                    ByteScanner.equals($0.name, in: bytes, unitStart..<end, ignoringCase: false)
                })?.milliseconds
            else { return nil }
            return Self.rounded(number * scale)
        }
        // A clock time: up to four fields split by colons.
        var fieldCount = 1
        for index in value where bytes[index] == UInt8(ascii: ":") { fieldCount += 1 }
        guard fieldCount <= 4 else { return nil }
        // The fields in place, without an array: three attributes of most elements are times.
        var values = (0.0, 0.0, 0.0, 0.0)
        var fieldStart = start
        for index in 0..<fieldCount {
            let fieldEnd = ByteScanner.index(of: UInt8(ascii: ":"), in: bytes, from: fieldStart, to: end)
            // Only the seconds (or the frames) may have a fraction.
            let mayHaveFraction = index == min(fieldCount - 1, 2) || index == 3
            guard let number = Self.decimal(bytes, fieldStart..<fieldEnd),
                mayHaveFraction
                    || ByteScanner.index(of: UInt8(ascii: "."), in: bytes, from: fieldStart, to: fieldEnd) == fieldEnd
            else { return nil }
            switch index {
            case 0: values.0 = number
            case 1: values.1 = number
            case 2: values.2 = number
            default: values.3 = number
            }
            fieldStart = fieldEnd + 1
        }
        var seconds = 0.0
        switch fieldCount {
        case 1: seconds = values.0
        case 2: seconds = values.0 * 60 + values.1
        default: seconds = values.0 * 3600 + values.1 * 60 + values.2
        }
        if fieldCount == 4 { seconds += values.3 / frameRate }
        return Self.rounded(seconds * 1000)
    }

    /// `hh:mm:ss.fff`, `mm:ss.fff` or `ss.fff` with at most three decimals, read in whole numbers: nearly
    /// every time in a file, two or three in each of its elements. Nil sends anything else (frames, units,
    /// white space, long fractions) to the full reading, which gives the same milliseconds for these.
    static func plainClockMilliseconds(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        // `hh:mm:ss.fff`, as Apple Music and most tools write every time, read by position.
        if bytes.count == 12, bytes[2] == UInt8(ascii: ":"), bytes[5] == UInt8(ascii: ":"),
            bytes[8] == UInt8(ascii: ".")
        {
            var isNumber = true
            func digit(_ index: Int) -> Int {
                let value = bytes[index] &- 0x30
                isNumber = isNumber && value < 10
                return Int(value)
            }
            let hours = digit(0) &* 10 &+ digit(1), minutes = digit(3) &* 10 &+ digit(4)
            let seconds = digit(6) &* 10 &+ digit(7)
            let milliseconds = digit(9) &* 100 &+ digit(10) &* 10 &+ digit(11)
            guard isNumber else { return nil }
            return min(((hours &* 60 &+ minutes) &* 60 &+ seconds) &* 1000 &+ milliseconds, ByteScanner.timeLimit)
        }
        var total = 0, field = 0, digits = 0, fields = 1
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if byte &- 0x30 < 10 {
                field = field * 10 + Int(byte &- 0x30)
                digits += 1
                guard digits <= 9 else { return nil }
            } else if byte == UInt8(ascii: ":") {
                guard digits > 0, fields < 3 else { return nil }
                total = total * 60 + field
                field = 0
                digits = 0
                fields += 1
            } else if byte == UInt8(ascii: "."), digits > 0 {
                // The fraction ends the value: one to three digits, as milliseconds.
                let fractionDigits = bytes.count - index
                guard (1...3).contains(fractionDigits) else { return nil }
                var fraction = 0
                while index < bytes.count {
                    let digit = bytes[index] &- 0x30
                    guard digit < 10 else { return nil }
                    fraction = fraction * 10 + Int(digit)
                    index += 1
                }
                for _ in fractionDigits..<3 { fraction *= 10 }
                return min((total * 60 + field) * 1000 + fraction, ByteScanner.timeLimit)
            } else {
                return nil
            }
        }
        guard digits > 0 else { return nil }
        return min((total * 60 + field) * 1000, ByteScanner.timeLimit)
    }

    /// The number that is all of `bytes[range]`: digits with an optional fraction, at most 15 of them (a
    /// longer one is malformed, not clamped); nil for anything else (signs included: TTML times are not
    /// negative).
    private static func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        guard let number = ByteScanner.readDecimal(bytes, &i, range.upperBound, maximumDigits: 15),
            i == range.upperBound
        else { return nil }
        return number
    }

    /// Whole milliseconds, within 0…100 hours; nil for a value that is not a number.
    private static func rounded(_ milliseconds: Double) -> Int? {
        guard milliseconds.isFinite else { return nil }
        return Int(min(max(milliseconds, 0), Double(ByteScanner.timeLimit)).rounded())
    }

    /// Reads `ttp:frameRate`, `ttp:frameRateMultiplier` and `ttp:tickRate` from the attributes of `<tt>`,
    /// by local name. `ttp:timeBase` is not read: every time is media time.
    mutating func readParameters(_ attribute: TTMLAttributes) {
        if let rate = attribute.frameRate.flatMap(Self.number), rate > 0, rate < 1000 {
            frameRate = rate
        }
        if let multiplier = attribute.frameRateMultiplier {
            let parts = multiplier.split(whereSeparator: { $0 == " " || $0 == ":" }).compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { frameRate *= parts[0] / parts[1] }
        }
        if let rate = attribute.tickRate.flatMap(Self.number), rate > 0 {
            tickRate = rate
        }
    }

    /// A number with spaces around it allowed.
    private static func number(_ text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        return words.count == 1 ? Double(words[0]) : nil
    }
}
