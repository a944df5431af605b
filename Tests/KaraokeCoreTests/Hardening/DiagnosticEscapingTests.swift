import Testing
@testable import KaraokeCore

/// Diagnostics quote the bad input; a file's bad input can be a terminal escape, which `check` printed raw.
@Suite("Diagnostics show control characters as code points")
struct DiagnosticEscapingTests {
    @Test(
        "a control or bidi character in a message is written as <U+XXXX>",
        arguments: [
            ("\u{1B}]52;c;x\u{07}", "<U+001B>]52;c;x<U+0007>"), // OSC 52 with BEL
            ("a\u{9B}2J", "a<U+009B>2J"), // C1 CSI as UTF-8
            ("\u{202E}abc\u{2069}", "<U+202E>abc<U+2069>"), // bidi override and isolate end
            ("plain 'text' é", "plain 'text' é"), // nothing to change
        ])
    func visible(_ input: String, _ shown: String) {
        #expect(Diagnostic.visible(input) == shown)
        #expect(Diagnostic(.warning, file: "f", line: 1, column: 1, input).message == shown)
    }

    @Test("an LRC line whose bad tag holds an escape sequence gives a warning without the ESC")
    func lrcWarning() throws {
        let result = LRCParser.parse(Array("[00:01.00]la\n[00:0\u{1B}]0;owned\u{07}2.00]lu\n".utf8), file: "x.lrc")
        let warning = try #require(result.diagnostics.first)
        #expect(!warning.description.unicodeScalars.contains { ControlCharacters.isForbidden($0.value) })
        #expect(warning.description.contains("<U+001B>"))
    }

    @Test("a file name with an escape in it is shown escaped too")
    func fileName() {
        let diagnostic = Diagnostic(.error, file: "a\u{1B}[2Jb.lrc", line: 2, column: 3, "bad")
        #expect(diagnostic.description == "a<U+001B>[2Jb.lrc:2:3: error: bad")
    }
}
