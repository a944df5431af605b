import Testing
@testable import KaraokeCore

extension ControlCharactersTests {
    /// Text as a file may hold it, and what of it may reach the terminal.
    struct Example: CustomTestStringConvertible, Sendable {
        var label: String
        var input: String
        var output: String
        var testDescription: String { label }
    }
}

/// `text` through the byte-level filter the parser uses.
private func appendStripped(_ text: String) -> String {
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    bytes.withUnsafeBufferPointer { ControlCharacters.appendStripped($0, 0..<$0.count, to: &output) }
    return String(decoding: output, as: UTF8.self)
}

@Suite("Keeping control characters from the terminal")
struct ControlCharactersTests {
    static let examples: [Example] = [
        // DESIGN §3.1: an OSC 52 clipboard write becomes harmless text.
        Example(label: "OSC 52", input: "\u{1B}]52;c;aGVsbG8=\u{7}la", output: "]52;c;aGVsbG8=la"),
        // A colour sequence loses its ESC and shows as text.
        Example(label: "CSI colour", input: "\u{1B}[31mred\u{1B}[0m", output: "[31mred[0m"),
        // A tab becomes a space.
        Example(label: "tab", input: "la\tla", output: "la la"),
        // CR and LF are dropped.
        Example(label: "CR LF", input: "la\r\nla", output: "lala"),
        // Every C0 control but the tab is dropped.
        Example(label: "C0 controls", input: "a\u{0}\u{1}\u{8}\u{B}\u{C}\u{1F}b", output: "ab"),
        // DEL is dropped.
        Example(label: "DEL", input: "a\u{7F}b", output: "ab"),
        // C1: NEL, CSI and the string terminator.
        Example(label: "C1 controls", input: "a\u{80}\u{85}\u{9B}31m\u{9C}\u{9F}b", output: "a31mb"),
        // Embeddings and overrides would reorder the terminal's line.
        Example(
            label: "bidi embeddings and overrides", input: "\u{202A}a\u{202B}b\u{202C}c\u{202D}d\u{202E}e",
            output: "abcde"),
        // Isolates likewise.
        Example(label: "bidi isolates", input: "\u{2066}a\u{2067}b\u{2068}c\u{2069}", output: "abc"),
        // The neighbours of the forbidden ranges stay: no-break space, ZWJ in an emoji, LRM, word joiner.
        Example(
            label: "neighbours of the ranges", input: "\u{A0}👨\u{200D}👩\u{200E}\u{2029}\u{202F}\u{2060}\u{206A}",
            output: "\u{A0}👨\u{200D}👩\u{200E}\u{2029}\u{202F}\u{2060}\u{206A}"),
        // Text without controls is untouched.
        Example(label: "clean text", input: "さくらの駅で 🌸 שלום é", output: "さくらの駅で 🌸 שלום é"),
        // Nothing but controls leaves nothing.
        Example(label: "only controls", input: "\u{1B}\u{85}\u{202E}", output: ""),
    ]

    @Test("drops them and keeps the text around them", arguments: examples)
    func stripKeepsTheText(_ example: Example) {
        #expect(ControlCharacters.strip(example.input) == example.output)
    }

    @Test("does the same on bytes as on strings", arguments: examples)
    func bytesAgreeWithStrings(_ example: Example) {
        #expect(appendStripped(example.input) == example.output)
    }

    @Test(
        "forbids exactly C0, DEL, C1 and the bidi controls",
        arguments: [
            // The first and last C0 controls.
            (0x00 as UInt32, true), (0x1F, true),
            // Space and tilde are text.
            (0x20, false), (0x7E, false),
            // DEL and the C1 range.
            (0x7F, true), (0x80, true), (0x9F, true),
            // No-break space, just after C1.
            (0xA0, false),
            // Around the embeddings and overrides.
            (0x2029, false), (0x202A, true), (0x202E, true), (0x202F, false),
            // Around the isolates.
            (0x2065, false), (0x2066, true), (0x2069, true), (0x206A, false),
            // ZWJ and the marks LRM/RLM are not in DESIGN §3.1's list.
            (0x200D, false), (0x200E, false),
        ])
    func forbiddenScalars(_ value: UInt32, _ forbidden: Bool) {
        #expect(ControlCharacters.isForbidden(value) == forbidden)
    }

    @Test("agrees on bytes and strings for every scalar up to U+2FFF")
    func bytesAgreeEverywhere() {
        var text = ""
        for value in 0...0x2FFF as ClosedRange<UInt32> {
            if let scalar = Unicode.Scalar(value) { text.unicodeScalars.append(scalar); text.append("x") }
        }
        let stripped = ControlCharacters.strip(text)
        #expect(appendStripped(text) == stripped)
        #expect(!stripped.unicodeScalars.contains { ControlCharacters.isForbidden($0.value) })
    }

    @Test("filters only the range it is given")
    func filtersOnlyTheRange() {
        let bytes = Array("ab\u{1B}cd\u{1B}ef".utf8)
        var output: [UInt8] = Array(">".utf8)
        bytes.withUnsafeBufferPointer { ControlCharacters.appendStripped($0, 1..<6, to: &output) }
        #expect(String(decoding: output, as: UTF8.self) == ">bcd")
    }
}
