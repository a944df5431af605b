extension TextDirection {
    /// The languages written right to left, by their BCP 47 primary subtag: Arabic, Hebrew (and its old `iw`),
    /// Persian, Urdu, Yiddish (and `ji`), Pashto, Sindhi, Uyghur, Dhivehi, Central Kurdish, Syriac, Aramaic,
    /// Samaritan, N'Ko, Mandaic, Balochi, Kashmiri and Punjabi's Western form, and the Arabic macrolanguage's
    /// members karaoke is likely to meet (Egyptian, Moroccan, Gulf, Levantine, Iraqi).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "iw", "fa", "ur", "yi", "ji", "ps", "sd", "ug", "dv", "ckb", "syr", "arc", "smp", "nqo", "mid",
        "bal", "ks", "pnb", "arz", "ary", "afb", "apc", "acm",
    ]

    /// The scripts written right to left, by their ISO 15924 code as a BCP 47 script subtag.
    static let rightToLeftScripts: Set<String> = [
        "arab", "hebr", "syrc", "thaa", "nkoo", "samr", "mand", "adlm", "rohg", "yezi", "aran",
    ]

    /// The direction of text in the language `tag` names (a BCP 47 tag such as `he`, `ar-EG`, `ku-Arab` or
    /// `en-US`; `_` accepted for `-`, case ignored), for a file that says its language (DESIGN §3.5): a script
    /// subtag decides when there is one, else the primary language. Nil for an empty or malformed tag.
    public static func declared(byLanguage tag: String) -> TextDirection? {
        let subtags = tag.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let primary = subtags.first, (2...8).contains(primary.count),
            primary.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        // The script subtag is the first four-letter one after the language (and its extensions).
        if let script = subtags.dropFirst().first(where: { $0.count == 4 && $0.allSatisfy(\.isLetter) }) {
            return rightToLeftScripts.contains(script) ? .rightToLeft : .leftToRight
        }
        return rightToLeftLanguages.contains(primary) ? .rightToLeft : .leftToRight
    }
}
