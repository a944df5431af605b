/// Finding text within text without the standard library's `_StringProcessing` module, which the package
/// leaves out of every file so the binary does not load the regex libraries at start-up (Package.swift).
extension StringProtocol {
    /// Whether `needle` occurs in this text, character by character; an empty needle always does.
    func includes(_ needle: some StringProtocol) -> Bool { needle.isEmpty || firstRange(matching: needle) != nil }

    /// The first place `needle` occurs, compared character by character; nil for an empty needle.
    func firstRange(matching needle: some StringProtocol, from start: Index? = nil) -> Range<Index>? {
        guard let first = needle.first else { return nil }
        var index = start ?? startIndex
        while let candidate = self[index...].firstIndex(of: first) {
            var here = candidate, there = needle.startIndex
            while here < endIndex, there < needle.endIndex, self[here] == needle[there] {
                formIndex(after: &here)
                needle.formIndex(after: &there)
            }
            if there == needle.endIndex { return candidate..<here }
            index = self.index(after: candidate)
        }
        return nil
    }

    /// The text with every occurrence of `target` (left to right, not overlapping) replaced; unchanged for an
    /// empty target.
    func replacingEvery(_ target: some StringProtocol, with replacement: some StringProtocol) -> String {
        var result = ""
        var index = startIndex
        while let found = firstRange(matching: target, from: index) {
            result += self[index..<found.lowerBound]
            result += replacement
            index = found.upperBound
        }
        result += self[index...]
        return result
    }

    /// The text with each character that `replacements` has a key for replaced by its value: the one loop
    /// behind every escaping of single characters (man page text, the folder index's fields).
    func replacingCharacters(_ replacements: [Character: String]) -> String {
        var result = ""
        for character in self {
            if let replacement = replacements[character] {
                result += replacement
            } else {
                result.append(character)
            }
        }
        return result
    }
}
