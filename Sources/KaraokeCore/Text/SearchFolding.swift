/// Text reduced for searching: case and accents do not count, so `beyonce` finds `Beyoncé` (DESIGN §20.2).
///
/// The standard library has no public Unicode decomposition, so the accents are found two ways: a combining
/// mark (a decomposed accent) is dropped, and a precomposed Latin letter whose Unicode name reads
/// `LATIN … LETTER X WITH …` becomes its base letter `x`. That covers every accented Latin letter, Vietnamese
/// ones with two marks included; Greek and Cyrillic letters with marks keep them (lower-cased).
public enum SearchFolding {
    /// `text` lower-cased, its accents removed, `ß` as `ss`, `æ` as `ae` and `œ` as `oe`.
    public static func folded(_ text: some StringProtocol) -> String {
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = UInt8(scalar.value)
                result.append(Unicode.Scalar(ByteScanner.lowercased(value)))
                continue
            }
            let properties = scalar.properties
            switch properties.generalCategory {
            case .nonspacingMark, .enclosingMark: continue
            default: break
            }
            if let replacement = ligatures[scalar.value] {
                result.append(contentsOf: replacement.unicodeScalars)
            } else if let base = latinBase(properties.name) {
                result.append(base)
            } else {
                result.append(contentsOf: properties.lowercaseMapping.unicodeScalars)
            }
        }
        return String(result)
    }

    /// Letters that are two letters to someone typing on a phone.
    static let ligatures: [UInt32: String] = [
        0x00DF: "ss", 0x1E9E: "ss", 0x00E6: "ae", 0x00C6: "ae", 0x0153: "oe", 0x0152: "oe",
    ]

    /// The lower-case base letter of a name `LATIN SMALL LETTER X WITH …` or `LATIN CAPITAL LETTER X WITH …`.
    static func latinBase(_ name: String?) -> Unicode.Scalar? {
        guard let name else { return nil }
        let utf8 = Array(name.utf8)
        for prefix in ["LATIN SMALL LETTER ", "LATIN CAPITAL LETTER "] {
            let head = Array(prefix.utf8)
            guard utf8.count > head.count + 6, utf8.starts(with: head) else { continue }
            let letter = utf8[head.count]
            guard ByteScanner.isLetter(letter), utf8[(head.count + 1)...].starts(with: Array(" WITH ".utf8)) else {
                return nil
            }
            return Unicode.Scalar(ByteScanner.lowercased(letter))
        }
        return nil
    }
}
