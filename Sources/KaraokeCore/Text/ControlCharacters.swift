/// Control characters never reach the terminal (DESIGN §3.1): C0, DEL, C1 and the bidi embedding,
/// override and isolate controls are dropped, a tab becomes a space, the text around them stays.
public enum ControlCharacters {
    /// Whether a scalar is one of the characters that must never be shown.
    @inlinable
    public static func isForbidden(_ value: UInt32) -> Bool {
        switch value {
        case 0x00...0x1F, 0x7F...0x9F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// `text` without forbidden characters, tabs turned into spaces.
    public static func strip(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isForbidden($0.value) }) else { return text }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar == "\t" {
                scalars.append(" ")
            } else if !isForbidden(scalar.value) {
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }

    /// Appends the UTF-8 bytes `source[range]` to `output` without forbidden characters, tabs as spaces.
    ///
    /// Works on bytes because the parser's hot loop does: the forbidden characters are all ASCII or
    /// have two- and three-byte forms that can be matched without decoding (C1 is `C2 80…9F`, the bidi
    /// controls are `E2 80 AA…AE` and `E2 81 A6…A9`).
    @inlinable
    public static func appendStripped(
        _ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
        to output: inout [UInt8]
    ) {
        var i = range.lowerBound
        let end = range.upperBound
        var runStart = i
        while i < end {
            let byte = source[i]
            // Plain bytes are copied a run at a time; only C0, DEL and the leads C2 and E2 need a look.
            if (byte >= 0x20 && byte < 0x7F) || (byte >= 0x80 && byte != 0xC2 && byte != 0xE2) {
                i += 1
                continue
            }
            var skip = 0
            var replacement: UInt8? = nil
            if byte < 0x20 || byte == 0x7F {
                skip = 1
                if byte == 0x09 { replacement = 0x20 }
            } else if byte == 0xC2, i + 1 < end, source[i + 1] >= 0x80, source[i + 1] <= 0x9F {
                skip = 2
            } else if byte == 0xE2, i + 2 < end,
                (source[i + 1] == 0x80 && source[i + 2] >= 0xAA && source[i + 2] <= 0xAE)
                    || (source[i + 1] == 0x81 && source[i + 2] >= 0xA6 && source[i + 2] <= 0xA9)
            {
                skip = 3
            }
            guard skip > 0 else { i += 1; continue }
            if runStart < i { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<i])) }
            if let replacement { output.append(replacement) }
            i += skip
            runStart = i
        }
        if runStart < end { output.append(contentsOf: UnsafeBufferPointer(rebasing: source[runStart..<end])) }
    }
}
