import Testing

@testable import KaraokeCore

@Suite("CD+G moments as packets, exact from the decimal digits")
struct CDGTimeTests {
    @Test(
        "the packet playing at a time written in decimal is ⌊300 × time⌋, exactly",
        arguments: [
            ("0.41", 123), // 0.41 × 300 is 122.99999… in binary floating point
            ("0.57", 171), // 170.99999… likewise
            ("1.0", 300),
            ("12.34", 3702),
            ("0", 0),
            ("59.999", 17_999), // 17999.7: the packet that started before
            ("0.0033333333333333339", 1), // just past 1/300 s
            ("0.0033333333333333333", 0), // just short of it
            ("1.5e1", 4500), // the exponents a Double reads
            ("57E-2", 171),
            ("5e-3", 1),
            ("+2.", 600),
            (".5", 150),
            ("000360000", 108_000_000),
        ])
    func packetIndex(text: String, index: Int) throws {
        let time = try #require(CDGTime(seconds: text))
        #expect(time.packetIndex == index)
        #expect(time.packetsShown == index + 1)
    }

    @Test(
        "text that is no plain non-negative decimal is not read",
        arguments: ["", ".", "abc", "1e", "-1", "1.2.3", "1 ", "0x10", "inf", "1e+"])
    func refused(text: String) {
        #expect(CDGTime(seconds: text) == nil)
    }

    @Test("every time to the hundredth in the first 100 s lands on s × 300 + 3 × hundredths")
    func everyHundredth() throws {
        var floatingPointMisses = 0
        for hundredths in 0..<10_000 {
            let text = "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
            let time = try #require(CDGTime(seconds: text))
            #expect(time.packetIndex == hundredths * 3, "\(text)")
            if Int(Double(text)! * 300) != hundredths * 3 { floatingPointMisses += 1 }
        }
        // Why the digits are read exactly: multiplied as a double, some of these land a packet early.
        #expect(floatingPointMisses > 0)
    }

    @Test(
        "a length in packets reads as m:ss.cc, the hundredths cut",
        arguments: [
            (0, "0:00.00"), (1, "0:00.00"), (300, "0:01.00"), (3702, "0:12.34"), (18_001, "1:00.00"),
            (1_080_000, "1:00:00.00"),
        ])
    func length(packets: Int, text: String) {
        #expect(CDGTime.length(packets: packets) == text)
    }

    @Test("a packet shows from its own moment on: one at packet 300 shows at 1.0 s, not at 0.999 s")
    func inclusiveBound() throws {
        var writer = CDGWriter()
        writer.nothing(300)
        writer.memoryPreset(color: 6)
        var decoder = CDGDecoder(bytes: writer.bytes)
        decoder.advance(to: try #require(CDGTime(seconds: "0.999")))
        #expect(decoder.picture.index(x: 0, y: 0) == 0)
        decoder.advance(to: try #require(CDGTime(seconds: "1.0")))
        #expect(decoder.picture.index(x: 0, y: 0) == 6)
    }
}

@Suite("What check says about a CD+G file")
struct CDGReportTests {
    @Test("a file of whole graphics packets has no problems; its length is packets / 300")
    func clean() {
        var writer = CDGWriter()
        writer.memoryPreset(color: 1)
        writer.nothing(3701)
        let report = CDGReport(bytes: writer.bytes)
        #expect(report.packetCount == 3702)
        #expect(report.graphicsPacketCount == 1)
        #expect(report.problems.isEmpty)
        #expect(report.summary(file: "song.cdg") == "song.cdg: CD+G, 0:12.34, 3702 packets")
    }

    @Test("unknown instructions and tiles off the screen are named with their packet and moment")
    func warnings() {
        var writer = CDGWriter()
        writer.nothing(299)
        writer.packet(instruction: 17)
        writer.tile(color0: 0, color1: 1, row: 20, column: 3, rows: [UInt8](repeating: 0, count: 12))
        let report = CDGReport(bytes: writer.bytes)
        #expect(
            report.problems == [
                .unknownInstruction(packet: 299, instruction: 17), .tileOffScreen(packet: 300, row: 20, column: 3),
            ])
        let lines = report.diagnostics(file: "a.cdg").map(\.description)
        #expect(
            lines == [
                "a.cdg: warning: packet 299 (0:00.99): unknown instruction 17; ignored",
                "a.cdg: warning: packet 300 (0:01.00): tile at row 20, column 3 is off the screen (rows 0-17, columns 0-49); ignored",
            ])
        #expect(report.summary(file: "a.cdg") == "a.cdg: CD+G, 0:01.00, 301 packets, 2 warnings")
        #expect(!report.isUnusable)
    }

    @Test("a cut last packet is a warning, and is not counted")
    func truncated() {
        var writer = CDGWriter()
        writer.memoryPreset(color: 1)
        let report = CDGReport(bytes: writer.bytes + [9, 1, 0, 0, 5])
        #expect(report.packetCount == 1)
        #expect(report.problems == [.truncatedPacket(bytes: 5)])
        #expect(
            report.diagnostics(file: "t.cdg").map(\.description) == [
                "t.cdg: warning: the last packet is cut short (5 of 24 bytes); ignored"
            ])
    }

    @Test("a file without a graphics packet, or without a whole packet, is not CD+G: an error")
    func notCDG() {
        let empty = CDGReport(bytes: [])
        #expect(empty.isUnusable)
        #expect(
            empty.diagnostics(file: "e.cdg").map(\.description) == [
                "e.cdg: error: not a CD+G file: no whole 24-byte packet"
            ])
        let text = CDGReport(bytes: Array(String(repeating: "not graphics at all ", count: 13).utf8))
        #expect(text.isUnusable)
        // Its cut last packet is not worth a word: the file is no CD+G at all.
        #expect(text.problems == [.noGraphics(packets: 10)])
        #expect(text.problems.first?.message == "not a CD+G file: none of its 10 packets holds graphics (command 9)")
    }

    @Test("at most 100 problems are kept; the rest are counted in a closing warning")
    func limit() {
        var writer = CDGWriter()
        for _ in 0..<250 { writer.packet(instruction: 50) }
        let report = CDGReport(bytes: writer.bytes)
        #expect(report.problems.count == 100)
        #expect(report.uncounted == 150)
        #expect(report.diagnostics(file: "x.cdg").last?.message == "150 more warnings not shown")
        #expect(report.summary(file: "x.cdg").hasSuffix("250 packets, 250 warnings"))
    }

    @Test(
        "a file is CD+G by its .cdg extension, in any case",
        arguments: [
            ("song.cdg", true), ("SONG.CDG", true), ("dir.cdg/song.Cdg", true), ("song.cdg.lrc", false),
            ("dir.cdg/song", false), (".cdg", false), ("song.mp3", false), ("songcdg", false),
        ])
    func isCDG(name: String, expected: Bool) {
        #expect(CDGReport.isCDG(name) == expected)
    }
}

@Suite("Bad CD+G files never crash the decoder")
struct CDGBadInputTests {
    /// Decodes `bytes` to the end and back, and reports on them.
    private func exercise(_ bytes: [UInt8]) {
        var decoder = CDGDecoder(bytes: bytes)
        decoder.advance(toPacketCount: Int.max)
        _ = decoder.picture.ppm()
        decoder.advance(toPacketCount: decoder.packetCount / 2)
        _ = decoder.takeChangedArea()
        _ = CDGReport(bytes: bytes).diagnostics(file: "bad.cdg")
    }

    @Test("empty, a single byte, a cut packet")
    func tiny() {
        exercise([])
        exercise([9])
        exercise([9, 6, 0, 0, 1, 2, 3])
        var writer = CDGWriter()
        writer.tile(color0: 1, color1: 2, row: 1, column: 1, rows: [UInt8](repeating: 0x3F, count: 12))
        for cut in 0..<writer.bytes.count { exercise(Array(writer.bytes.prefix(cut))) }
    }

    @Test("random bytes, and random bytes with every packet's command made graphics")
    func random() {
        var generator = SeededGenerator(state: 2026)
        for round in 0..<40 {
            var bytes = (0..<Int.random(in: 0...4000, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            if round % 2 == 0 {
                for start in stride(from: 0, to: bytes.count, by: 24) { bytes[start] = 0x09 | bytes[start] & 0xC0 }
            }
            exercise(bytes)
        }
    }

    @Test("every instruction with every field at its largest")
    func extremes() {
        var writer = CDGWriter()
        for instruction in 0...255 {
            writer.packet(instruction: UInt8(instruction), data: [UInt8](repeating: 0xFF, count: 16))
        }
        exercise(writer.bytes)
    }
}
