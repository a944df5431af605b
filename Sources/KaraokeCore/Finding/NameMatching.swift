/// How the finder compares names: file names, tags and `[ar:]`/`[ti:]` lines (DESIGN §10.3).
///
/// Two names match when they have the same letters and digits in the same order, whatever their case,
/// spacing and punctuation: `AC/DC - Thunderstruck`, `ac dc-thunderstruck` and `ACDC_Thunderstruck` are one
/// song. The separator between artist and title is punctuation too, so `artist - title` keys are the artist's
/// letters followed by the title's.
public enum NameMatching {
    /// `name` reduced to its letters and digits, lower case: the key names are compared by.
    ///
    /// Letters are any script's (`Character.isLetter`), so `Björk` keeps its `ö` and `坂本龍一` stays whole;
    /// a name with no letter or digit gives "", which matches nothing.
    public static func key(_ name: some StringProtocol) -> String {
        // Most names are ASCII: those are done byte by byte, without a String per Character.
        var ascii: [UInt8] = []
        ascii.reserveCapacity(name.utf8.count)
        for byte in name.utf8 {
            guard byte < 0x80 else { return unicodeKey(name) }
            if ByteScanner.isLetter(byte) || ByteScanner.isDigit(byte) { ascii.append(ByteScanner.lowercased(byte)) }
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// `key` for a name with letters beyond ASCII.
    static func unicodeKey(_ name: some StringProtocol) -> String {
        var key = ""
        for character in name where character.isLetter || character.isNumber {
            key += character.lowercased()
        }
        return key
    }

    /// The key of a song by `artist` and `title`, or nil when either gives no key.
    public static func key(artist: String, title: String) -> String? {
        let artistKey = key(artist), titleKey = key(title)
        guard !artistKey.isEmpty, !titleKey.isEmpty else { return nil }
        return artistKey + titleKey
    }

    /// The artist and title a file name spells as `Artist - Title.ext` (the last path component, its
    /// extension dropped, split at the first ` - `), or nil when it does not read that way.
    public static func artistAndTitle(fromFileName path: String) -> (artist: String, title: String)? {
        let name = baseName(of: path)
        guard let dash = name.firstRange(matching: " - ") else { return nil }
        let artist = name[..<dash.lowerBound].trimmedOfSpaces()
        let title = name[dash.upperBound...].trimmedOfSpaces()
        guard !key(artist).isEmpty, !key(title).isEmpty else { return nil }
        return (artist, title)
    }

    /// The last path component of `path` without its extension.
    public static func baseName(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
        return AudioFiles.baseName(of: name)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces.
    fileprivate func trimmedOfSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
