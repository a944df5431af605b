import Foundation
import Testing
@testable import KaraokeCore

@Suite("Reading a Unifont hex font")
struct BitmapFontTests {
    @Test("an 8×16 line gives a glyph 8 pixels wide, its rows from the top, the leftmost pixel first")
    func narrowGlyph() throws {
        // "A" from a made-up font: row 0 empty, row 1 the leftmost pixel, row 2 the rightmost, row 15 all.
        let font = BitmapFont(hex: Array("0041:00800100000000000000000000000000FF\n".utf8))
        #expect(font.skippedLines == 1) // 34 digits: neither 32 nor 64
        let good = BitmapFont(hex: Array("0041:008001000000000000000000000000FF\n".utf8))
        #expect(good.skippedLines == 0)
        let glyph = try #require(good.glyph(for: "A"))
        #expect(glyph.width == 8)
        #expect(!glyph.isSet(x: 0, y: 0))
        #expect(glyph.isSet(x: 0, y: 1))
        #expect(glyph.isSet(x: 7, y: 2))
        #expect((0..<8).allSatisfy { glyph.isSet(x: $0, y: 15) })
        #expect(!glyph.isSet(x: 8, y: 15)) // outside the glyph
    }

    @Test("a 16×16 line gives a wide glyph")
    func wideGlyph() throws {
        let bitmap = String(repeating: "0000", count: 15) + "8001"
        let font = BitmapFont(hex: Array("4E2D:\(bitmap)\r\n".utf8))
        let glyph = try #require(font.glyph(for: "中"))
        #expect(glyph.width == 16)
        #expect(glyph.isSet(x: 0, y: 15) && glyph.isSet(x: 15, y: 15) && !glyph.isSet(x: 8, y: 15))
        #expect(font.skippedLines == 0)
    }

    struct BadLine: CustomTestStringConvertible, Sendable {
        var line: String
        var testDescription: String
    }

    @Test(
        "a bad line is skipped and counted, the good ones around it kept",
        arguments: [
            BadLine(line: "0042", testDescription: "no colon"),
            BadLine(line: "0042:" + String(repeating: "0", count: 31), testDescription: "31 digits"),
            BadLine(line: "0042:" + String(repeating: "0", count: 48), testDescription: "48 digits"),
            BadLine(
                line: "0042:" + String(repeating: "0", count: 31) + "G", testDescription: "a digit that is not hex"),
            BadLine(line: ":" + String(repeating: "0", count: 32), testDescription: "no code point"),
            BadLine(line: "110000:" + String(repeating: "0", count: 32), testDescription: "past U+10FFFF"),
            BadLine(line: "0000042:" + String(repeating: "0", count: 32), testDescription: "seven digits"),
            BadLine(line: "é:" + String(repeating: "0", count: 32), testDescription: "not ASCII"),
        ])
    func badLine(_ bad: BadLine) throws {
        let zeros = String(repeating: "0", count: 32)
        let text = "0041:\(zeros)\n\(bad.line)\n\n0043:\(zeros)\n"
        let font = BitmapFont(hex: Array(text.utf8))
        #expect(font.skippedLines == 1)
        #expect(font.glyphCount == 2)
        #expect(font.glyph(for: "A") != nil && font.glyph(for: "C") != nil && font.glyph(for: "B") == nil)
    }

    @Test("a code point given twice keeps its first glyph; a last line without a newline is read")
    func duplicatesAndLastLine() throws {
        let text =
            "41:" + String(repeating: "F", count: 32) + "\n0041:" + String(repeating: "0", count: 32)
            + "\n42:" + String(repeating: "0", count: 32)
        let font = BitmapFont(hex: Array(text.utf8))
        #expect(font.glyphCount == 2)
        #expect(try #require(font.glyph(for: "A")).isSet(x: 3, y: 3))
        #expect(font.glyph(for: "B") != nil)
    }

    @Test("the made-up test font reads back every glyph it writes")
    func madeUpFont() throws {
        let font = MadeUpFont.font(for: ["Hé 中"])
        #expect(font.skippedLines == 0)
        #expect(try #require(font.glyph(for: "中")).width == 16)
        #expect(try #require(font.glyph(for: "é")).width == 8)
    }

    @Test(
        "the system's Unifont, when installed, reads whole",
        .enabled(if: FileManager.default.fileExists(atPath: "/usr/share/unifont/unifont.hex")))
    func systemUnifont() throws {
        let data = try #require(FileManager.default.contents(atPath: "/usr/share/unifont/unifont.hex"))
        let font = BitmapFont(hex: [UInt8](data))
        #expect(font.skippedLines == 0)
        #expect(font.glyphCount > 50_000)
        #expect(try #require(font.glyph(for: "A")).width == 8)
        #expect(try #require(font.glyph(for: "中")).width == 16)
        #expect(try #require(font.glyph(for: "ש")).width == 8)
    }
}
