import Testing
@testable import KaraokeCore

@Suite("Text search without the regex module")
struct TextSearchTests {
    @Test(
        "includes finds text where it occurs, also after a false start, and not where it does not",
        arguments: [
            ("a --> b", "-->", true), ("a -- > b", "-->", false), ("--->", "-->", true),
            ("ab", "abc", false), ("", "x", false), ("x", "", true), ("café au lait", "é a", true),
            ("cafe\u{301}", "cafe", false),
        ])
    func includes(text: String, needle: String, expected: Bool) {
        #expect(text.includes(needle) == expected)
    }

    @Test(
        "replacingEvery replaces each occurrence left to right without overlap",
        arguments: [
            ("a;b;;c", ";", ",", "a,b,,c"), ("aaa", "aa", "b", "ba"), ("x --> y --> z", "-->", "->", "x -> y -> z"),
            ("none", "-->", "!", "none"), (";", ";", "", ""), ("abc", "", "!", "abc"),
        ])
    func replacingEvery(text: String, target: String, replacement: String, expected: String) {
        #expect(text.replacingEvery(target, with: replacement) == expected)
    }
}
