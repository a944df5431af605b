import Foundation
import Testing
@testable import KaraokeCore

/// Inputs `make fuzz` found crashing, kept as bytes (minimised) so the crash cannot come back.
@Suite("Inputs the fuzzer found")
struct FuzzRegressionTests {
    /// Found by the `ttml` target: an XML declaration naming an unknown encoding, then a byte that is not
    /// UTF-8, crashed inside libxml2 (a read of address 0x20 in xmlParseChunk).
    static let unknownEncodingThenBadByte: [UInt8] = Array(#"<?xml version="1.0" encoding="utf08""#.utf8) + [0xFF]

    @Test("an unknown encoding in the XML declaration before a stray byte does not crash the TTML parser")
    func unknownEncoding() {
        let result = TTMLParser.parse(Self.unknownEncodingThenBadByte, file: "crash.ttml")
        #expect(result.song == nil)
        #expect(result.diagnostics.last?.severity == .error)
    }

    @Test("the same declaration before a whole document still reads the document")
    func unknownEncodingBeforeDocument() throws {
        let text =
            #"<?xml version="1.0" encoding="utf08"?>"# + "\n"
            + #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">dim lamp</p></div></body></tt>"#
        let song = try #require(TTMLParser.parse(Array(text.utf8) + [0x0A, 0xFF], file: "t.ttml").song)
        #expect(song.lines.map(\.text) == ["dim lamp"])
    }

    /// The text is UTF-8 by the time it is parsed, whatever the declaration still says.
    @Test("a TTML file that declares ISO-8859-1 is read as the UTF-8 it has become")
    func declaredLatin1() throws {
        let text =
            #"<?xml version="1.0" encoding="ISO-8859-1"?>"# + "\n"
            + #"<tt xmlns="http://www.w3.org/ns/ttml"><body><div><p begin="1s" end="2s">café crème</p></div></body></tt>"#
        let song = try #require(TTMLParser.parse(Array(text.utf8), file: "t.ttml").song)
        #expect(song.lines.map(\.text) == ["café crème"])
    }

    /// Found by the `ttml` target when TTML was read through FoundationXML, which read the missing data of
    /// `<?xm?>` as a C string (strlen of NULL).
    @Test(
        "a processing instruction without data does not crash the TTML parser",
        arguments: [
            "<?a?><tt><body><p begin=\"1s\" end=\"2s\">dim lamp</p></body></tt>",
            "<tt><body><?b?><p begin=\"1s\" end=\"2s\">dim lamp<?c?></p></body></tt>",
            "<?xm?>\n<tt><body><p begin=\"1s\" end=\"2s\">dim lamp</p></body></tt>",
        ])
    func emptyProcessingInstruction(_ text: String) throws {
        let song = try #require(TTMLParser.parse(Array(text.utf8), file: "t.ttml").song)
        #expect(song.lines.map(\.text) == ["dim lamp"])
    }

    @Test("a processing instruction inside CDATA stays text")
    func instructionInCDATA() throws {
        let text = "<tt><body><p begin=\"1s\" end=\"2s\"><![CDATA[a <?b?> c]]></p></body></tt>"
        let song = try #require(TTMLParser.parse(Array(text.utf8), file: "t.ttml").song)
        #expect(song.lines.map(\.text) == ["a <?b?> c"])
    }

    @Test("an unclosed processing instruction is an error, not a crash")
    func unclosedInstruction() {
        let result = TTMLParser.parse(Array("<tt><body><p begin=\"1s\" end=\"2s\">la</p><?x".utf8), file: "t.ttml")
        #expect(result.diagnostics.count <= DiagnosticLog.limit + 2)
    }
}
