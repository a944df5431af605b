import Testing
@testable import KaraokeCore

/// UTF-16 code units of `text` as bytes, little- or big-endian, after a BOM.
private func utf16Bytes(_ text: String, bigEndian: Bool, bom: Bool = true) -> [UInt8] {
    var bytes: [UInt8] = bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
    for unit in text.utf16 {
        let high = UInt8(unit >> 8), low = UInt8(unit & 0xFF)
        bytes += bigEndian ? [high, low] : [low, high]
    }
    return bytes
}

@Suite("Source text")
struct SourceTextTests {
    @Test("UTF-8 without a BOM passes through unchanged")
    func plainUTF8() throws {
        let bytes = Array("[00:01.00]héllo 歌\r\n".utf8)
        #expect(try SourceText.utf8(from: bytes).get() == bytes)
    }

    @Test("a UTF-8 byte order mark is removed")
    func utf8BOM() throws {
        let text = Array("[00:01.00]la\n".utf8)
        #expect(try SourceText.utf8(from: [0xEF, 0xBB, 0xBF] + text).get() == text)
        #expect(try SourceText.utf8(from: [0xEF, 0xBB, 0xBF]).get() == [])
    }

    @Test("an empty file is empty text, not binary")
    func empty() throws {
        #expect(try SourceText.utf8(from: []).get() == [])
    }

    @Test("UTF-16 with a BOM is converted to UTF-8 without it, line ends kept", arguments: [false, true])
    func utf16(bigEndian: Bool) throws {
        let text = "[ti:Ünïcode]\r\n[00:01.00]歌 👩‍👩‍👧 ok\r\n"
        let utf8 = try SourceText.utf8(from: utf16Bytes(text, bigEndian: bigEndian)).get()
        #expect(utf8 == Array(text.utf8))
        let song = try #require(LRCParser.parse(utf8, file: "t.lrc").song)
        #expect(song.metadata.title == "Ünïcode")
        #expect(song.lines.map(\.text) == ["歌 👩‍👩‍👧 ok"])
    }

    @Test(
        "data with NUL bytes is not text",
        arguments: [
            [0x00] as [UInt8], // a lone NUL
            Array("[00:01.00]la".utf8) + [0x00, 0x01, 0x02], // text that turns binary
            [0xEF, 0xBB, 0xBF, 0x00], // a BOM, then binary
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D], // a PNG header
            utf16Bytes("[00:01.00]", bigEndian: false, bom: false), // UTF-16 without a BOM
        ])
    func binary(bytes: [UInt8]) {
        #expect(SourceText.utf8(from: bytes) == .failure(.notText))
    }

    @Test(
        "UTF-16 that cannot be decoded is not text",
        arguments: [
            [0xFF, 0xFE, 0x41] as [UInt8], // an odd number of bytes
            [0xFF, 0xFE, 0x00, 0xD8, 0x41, 0x00], // a lone high surrogate, then 'A'
            [0xFE, 0xFF, 0xDC, 0x00], // a lone low surrogate
            [0xFF, 0xFE, 0x41, 0x00, 0x00, 0x00], // a NUL character
        ])
    func badUTF16(bytes: [UInt8]) {
        #expect(SourceText.utf8(from: bytes) == .failure(.notText))
    }

    @Test("invalid UTF-8 is still text: the parser reports it and shows U+FFFD")
    func invalidUTF8IsText() throws {
        let bytes: [UInt8] = Array("[00:01.00]caf".utf8) + [0xE9]
        #expect(try SourceText.utf8(from: bytes).get() == bytes)
    }
}

@Suite("UTF-8 validation")
struct UTF8ValidationTests {
    /// Walks `bytes` with `UTF8Validation.sequence`: how many invalid stretches it finds.
    static func invalidStretches(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0, count = 0
            while i < buffer.count {
                switch UTF8Validation.byteRun(buffer, at: i, end: buffer.count) {
                case .valid(let length): i += length
                case .invalid(let length): i += length; count += 1
                }
            }
            return count
        }
    }

    @Test(
        "the first invalid byte is found at its index",
        arguments: [
            (bytes: Array("abc".utf8), index: nil as Int?),
            (bytes: Array("a歌𝄞é".utf8), index: nil),
            (bytes: [0x61, 0x80], index: 1), // a lone continuation byte
            (bytes: [0x61, 0xE6, 0xAD], index: 1), // cut short by the end
            (bytes: [0x61, 0x62, 0xE6, 0xAD, 0x41], index: 2), // cut short by ASCII
            (bytes: [0xC1, 0xBF], index: 0), // overlong two-byte form
            (bytes: [0xE0, 0x9F, 0xBF], index: 0), // overlong three-byte form
            (bytes: [0xED, 0xBF, 0xBF], index: 0), // a surrogate
            (bytes: [0xF0, 0x8F, 0xBF, 0xBF], index: 0), // overlong four-byte form
            (bytes: [0xF4, 0x90, 0x80, 0x80], index: 0), // above U+10FFFF
            (bytes: [0xEF, 0xBF, 0xBD, 0xFE], index: 3), // U+FFFD is fine, 0xFE is not
        ] as [(bytes: [UInt8], index: Int?)])
    func firstInvalidIndex(bytes: [UInt8], index: Int?) {
        #expect(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0, 0..<$0.count) } == index)
    }

    @Test("a range is checked on its own: a sequence cut by the range's end is invalid")
    func rangeEnd() {
        let bytes = Array("a歌".utf8)
        #expect(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0, 0..<3) } == 1)
        #expect(bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0, 1..<4) } == nil)
    }

    @Test("validation agrees with the standard library on random bytes, stretch for stretch")
    func agreesWithStandardLibrary() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        // Bytes drawn mostly from the interesting ranges: ASCII, continuations and every lead byte.
        let pool: [UInt8] = [
            0x41, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xED,
            0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        for _ in 0..<5_000 {
            var bytes: [UInt8] = []
            for _ in 0..<8 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes.append(pool[Int(seed >> 33) % pool.count])
            }
            let valid = String(validating: bytes, as: UTF8.self) != nil
            let found = bytes.withUnsafeBufferPointer { UTF8Validation.firstInvalidIndex($0, 0..<$0.count) }
            #expect((found == nil) == valid, "\(bytes)")
            let replacements = String(decoding: bytes, as: UTF8.self).unicodeScalars.filter { $0 == "\u{FFFD}" }.count
            #expect(Self.invalidStretches(bytes) == replacements, "\(bytes)")
        }
    }
}
