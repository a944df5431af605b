/// Reads TTML time expressions: clock times and offset times, with the file's frame and tick rates.
struct TTMLTimeReader {
    /// Frames a second (`ttp:frameRate` × `ttp:frameRateMultiplier`), 30 when the file does not say.
    var frameRate = 30.0
    /// Ticks a second (`ttp:tickRate`), 1 when the file does not say.
    var tickRate = 1.0

    /// The time in milliseconds of `hh:mm:ss.fff`, `mm:ss.fff`, `ss.fff`, `hh:mm:ss:ff`, or a number
    /// with a unit (`1.5s`, `150ms`, `2m`, `1h`, `12f`, `10t`); nil when it is neither.
    func milliseconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D {
            end -= 1
        }
        guard end > 0, end <= 64 else { return nil }
        let trimmed = bytes[0..<end]
        // An offset time ends in its unit.
        var unitStart = end
        while unitStart > 0, (trimmed[unitStart - 1] | 0x20) >= 97, (trimmed[unitStart - 1] | 0x20) <= 122 { unitStart -= 1 }
        if unitStart < end {
            guard let value = Self.decimal(trimmed[0..<unitStart]) else { return nil }
            let scale: Double
            switch String(decoding: trimmed[unitStart..<end], as: UTF8.self) {
            case "h": scale = 3_600_000
            case "m": scale = 60_000
            case "s": scale = 1000
            case "ms": scale = 1
            case "f": scale = 1000 / frameRate
            case "t": scale = 1000 / tickRate
            default: return nil
            }
            return Self.rounded(value * scale)
        }
        // A clock time: up to four fields split by colons.
        let fields = trimmed.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count <= 4 else { return nil }
        var values: [Double] = []
        for (index, field) in fields.enumerated() {
            // Only the seconds (or the frames) may have a fraction.
            let mayHaveFraction = index == min(fields.count - 1, 2) || index == 3
            guard let value = Self.decimal(field), mayHaveFraction || !field.contains(UInt8(ascii: ".")) else { return nil }
            values.append(value)
        }
        var seconds = 0.0
        switch values.count {
        case 1: seconds = values[0]
        case 2: seconds = values[0] * 60 + values[1]
        default: seconds = values[0] * 3600 + values[1] * 60 + values[2]
        }
        if values.count == 4 { seconds += values[3] / frameRate }
        return Self.rounded(seconds * 1000)
    }

    /// Digits with an optional fraction; nil for anything else (signs included: TTML times are not negative).
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        var value = 0.0, scale = 1.0, digits = 0, inFraction = false
        for byte in bytes {
            if byte >= 48 && byte <= 57 {
                guard digits < 15 else { return nil }
                value = value * 10 + Double(byte - 48)
                if inFraction { scale *= 10 }
                digits += 1
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                return nil
            }
        }
        return digits > 0 ? value / scale : nil
    }

    /// Whole milliseconds, within 0…100 hours; nil for a value that is not a number.
    private static func rounded(_ milliseconds: Double) -> Int? {
        guard milliseconds.isFinite else { return nil }
        return Int(min(max(milliseconds, 0), Double(ttmlTimeLimit)).rounded())
    }

    /// Reads `ttp:frameRate`, `ttp:frameRateMultiplier` and `ttp:tickRate` from the attributes of `<tt>`,
    /// by local name. `ttp:timeBase` is not read: every time is media time.
    mutating func readParameters(_ attribute: [Substring: String]) {
        if let rate = attribute["frameRate"].flatMap(Self.number), rate > 0, rate < 1000 {
            frameRate = rate
        }
        if let multiplier = attribute["frameRateMultiplier"] {
            let parts = multiplier.split(whereSeparator: { $0 == " " || $0 == ":" }).compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { frameRate *= parts[0] / parts[1] }
        }
        if let rate = attribute["tickRate"].flatMap(Self.number), rate > 0 {
            tickRate = rate
        }
    }

    /// A number with spaces around it allowed.
    private static func number(_ text: String) -> Double? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
        return words.count == 1 ? Double(words[0]) : nil
    }
}
