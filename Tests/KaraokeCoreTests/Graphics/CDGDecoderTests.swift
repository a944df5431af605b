import Testing

@testable import KaraokeCore

/// A repeatable stream of random numbers (SplitMix64), so a failing property shows the same file again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The indices the decoder shows after every packet of `writer`'s file.
private func decoded(_ writer: CDGWriter) -> CDGPicture {
    var decoder = CDGDecoder(bytes: writer.bytes)
    decoder.advance(toPacketCount: writer.packetCount)
    return decoder.picture
}

/// The picture's indices as whole numbers, to compare with the reference screen's.
private func shown(_ picture: CDGPicture) -> [Int] { picture.indices.map(Int.init) }

/// A tile pattern with every row different, so a tile drawn a row or a column off shows.
private let pattern: [UInt8] = [0x3F, 0x21, 0x12, 0x0C, 0x1E, 0x33, 0x2D, 0x01, 0x20, 0x15, 0x2A, 0x00]

/// Paints tiles of varied colours over the whole memory, in the writer and the reference alike, so every
/// move of a scroll or an offset shows in the picture.
private func paintEverything(_ writer: inout CDGWriter, _ reference: inout CDGReferenceScreen) {
    for row in 0..<18 {
        for column in 0..<50 {
            let color0 = (row + column) % 16, color1 = (row * 3 + column * 7 + 5) % 16
            let rows = pattern.map { $0 ^ UInt8((row + column) & 0x3F) }
            writer.tile(color0: color0, color1: color1, row: row, column: column, rows: rows)
            reference.tile(color0: color0, color1: color1, row: row, column: column, rows: rows)
        }
    }
}

@Suite("The CD+G decoder against the specification")
struct CDGDecoderTests {
    @Test("before any packet every pixel is colour 0 and every colour is black")
    func blankStart() {
        let picture = CDGDecoder(bytes: []).picture
        #expect(picture.indices.count == 300 * 216)
        #expect(picture.indices.allSatisfy { $0 == 0 })
        #expect(picture.colors == [RGB](repeating: RGB(0, 0, 0), count: 16))
        #expect(picture.transparentColor == nil)
    }

    @Test("a memory preset clears the whole raster, border band included, whatever its repeat number")
    func memoryPreset() {
        var writer = CDGWriter()
        writer.memoryPreset(color: 5)
        #expect(shown(decoded(writer)).allSatisfy { $0 == 5 })
        // The specification's repeat numbers copies of the same preset; a copy alone still clears.
        writer.memoryPreset(color: 9, repeat: 3)
        #expect(shown(decoded(writer)).allSatisfy { $0 == 9 })
    }

    @Test("a border preset colours the band outside (6, 12)–(294, 204) and nothing inside")
    func borderPreset() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        writer.memoryPreset(color: 2)
        reference.memoryPreset(2)
        writer.borderPreset(color: 11)
        reference.borderPreset(11)
        let picture = decoded(writer)
        #expect(shown(picture) == reference.shown)
        #expect(picture.index(x: 5, y: 100) == 11 && picture.index(x: 6, y: 100) == 2)
        #expect(picture.index(x: 293, y: 100) == 2 && picture.index(x: 294, y: 100) == 11)
        #expect(picture.index(x: 150, y: 11) == 11 && picture.index(x: 150, y: 12) == 2)
        #expect(picture.index(x: 150, y: 203) == 2 && picture.index(x: 150, y: 204) == 11)
    }

    @Test("a border preset applies whatever its filler bytes hold (ffmpeg skips one whose second byte is not 0)")
    func borderPresetFiller() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        writer.packet(instruction: 2, data: [6, 3, 0x3F])
        reference.borderPreset(6)
        #expect(shown(decoded(writer)) == reference.shown)
    }

    @Test(
        "a tile lands at row × 12, column × 6, bit 5 leftmost, in its two colours",
        arguments: [
            (0, 0), // the top left corner, in the border band
            (1, 1), // the window's first tile
            (7, 23), // somewhere inside
            (17, 49), // the bottom right corner
        ])
    func tile(row: Int, column: Int) {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        writer.memoryPreset(color: 1)
        reference.memoryPreset(1)
        writer.tile(color0: 3, color1: 14, row: row, column: column, rows: pattern)
        reference.tile(color0: 3, color1: 14, row: row, column: column, rows: pattern)
        let picture = decoded(writer)
        #expect(shown(picture) == reference.shown)
        // The first row of the pattern is all ones, the eighth has only the rightmost pixel set.
        #expect(picture.index(x: column * 6, y: row * 12) == 14)
        #expect(picture.index(x: column * 6 + 4, y: row * 12 + 7) == 3)
        #expect(picture.index(x: column * 6 + 5, y: row * 12 + 7) == 14)
    }

    @Test("a tile off the screen (row 18 and up, column 50 and up) is ignored")
    func tileOffScreen() {
        var writer = CDGWriter()
        writer.tile(color0: 7, color1: 7, row: 18, column: 0, rows: pattern)
        writer.tile(color0: 7, color1: 7, row: 0, column: 50, rows: pattern)
        writer.tile(color0: 7, color1: 7, row: 31, column: 63, rows: pattern)
        #expect(shown(decoded(writer)).allSatisfy { $0 == 0 })
    }

    @Test("an XOR tile combines the colour indices (not the colours) with those already there")
    func xorTile() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        writer.tile(color0: 5, color1: 10, row: 4, column: 9, rows: pattern)
        reference.tile(color0: 5, color1: 10, row: 4, column: 9, rows: pattern)
        let second = pattern.map { ~$0 & 0x3F }
        writer.tile(color0: 3, color1: 6, row: 4, column: 9, rows: second, xor: true)
        reference.tile(color0: 3, color1: 6, row: 4, column: 9, rows: second, xor: true)
        let picture = decoded(writer)
        #expect(shown(picture) == reference.shown)
        // Top row: all ones first (10), all zeros second (3): 10 ^ 3.
        #expect(picture.index(x: 54, y: 48) == 10 ^ 3)
        // XOR twice with the same tile gives back what was there.
        writer.tile(color0: 3, color1: 6, row: 4, column: 9, rows: second, xor: true)
        writer.tile(color0: 5, color1: 10, row: 4, column: 9, rows: pattern, xor: true)
        #expect(shown(decoded(writer)).allSatisfy { $0 == 0 })
    }

    /// One scroll case: the move's codes, the pixels it moves by, and whether it copies.
    struct ScrollCase: Sendable, CustomTestStringConvertible {
        var horizontal: Int
        var vertical: Int
        var dx: Int
        var dy: Int
        var copy: Bool
        var testDescription: String {
            let across = dx > 0 ? "right" : dx < 0 ? "left" : ""
            let down = dy > 0 ? "down" : dy < 0 ? "up" : ""
            return [across, down].filter { !$0.isEmpty }.joined(separator: " and ") + (copy ? ", copy" : ", preset")
        }
    }

    @Test(
        "a scroll moves the whole memory by a tile; a preset fills what it uncovers, a copy wraps it around",
        arguments: [false, true].flatMap { copy in
            [
                ScrollCase(horizontal: 1, vertical: 0, dx: 6, dy: 0, copy: copy),
                ScrollCase(horizontal: 2, vertical: 0, dx: -6, dy: 0, copy: copy),
                ScrollCase(horizontal: 0, vertical: 1, dx: 0, dy: 12, copy: copy),
                ScrollCase(horizontal: 0, vertical: 2, dx: 0, dy: -12, copy: copy),
                ScrollCase(horizontal: 2, vertical: 1, dx: -6, dy: 12, copy: copy),
            ]
        })
    func scroll(_ move: ScrollCase) {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        paintEverything(&writer, &reference)
        writer.scroll(color: 13, horizontal: move.horizontal, vertical: move.vertical, copy: move.copy)
        reference.scroll(dx: move.dx, dy: move.dy, color: 13, copy: move.copy)
        let picture = decoded(writer)
        #expect(shown(picture) == reference.shown)
        if !move.copy {
            // The uncovered strip is the preset's colour.
            let x = move.dx > 0 ? 0 : 299, y = move.dy > 0 ? 0 : 215
            #expect(picture.index(x: move.dx == 0 ? 100 : x, y: move.dy == 0 ? 100 : y) == 13)
        }
    }

    @Test(
        "the smooth-scroll offsets show the window moved left by the horizontal one and up by the vertical one",
        arguments: [(0, 0), (1, 0), (5, 0), (0, 1), (0, 11), (3, 7), (5, 11)])
    func offsets(horizontal: Int, vertical: Int) {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        paintEverything(&writer, &reference)
        writer.scroll(horizontalOffset: horizontal, verticalOffset: vertical, copy: true)
        reference.horizontalOffset = horizontal
        reference.verticalOffset = vertical
        let picture = decoded(writer)
        #expect(shown(picture) == reference.shown)
        // The window's top left pixel is the memory's pixel that many right and down.
        #expect(picture.index(x: 6, y: 12) == reference.pixels[12 + vertical][6 + horizontal])
    }

    @Test("a scroll that moves nothing and keeps the offsets changes nothing (ffmpeg blanks its picture)")
    func scrollWithoutMove() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        paintEverything(&writer, &reference)
        writer.scroll(color: 9, copy: false)
        writer.scroll(color: 9, copy: true)
        #expect(shown(decoded(writer)) == reference.shown)
    }

    @Test("offsets past the specification's range (6, 7 across; 12–15 down) count as the largest it allows")
    func offsetsClamped() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        paintEverything(&writer, &reference)
        writer.scroll(horizontalOffset: 7, verticalOffset: 15, copy: false)
        reference.horizontalOffset = 5
        reference.verticalOffset = 11
        #expect(shown(decoded(writer)) == reference.shown)
    }

    @Test("a scroll with offsets, then a scroll by a tile with offsets 0, continues the same smooth scroll left")
    func smoothScrollLeft() {
        var writer = CDGWriter(), reference = CDGReferenceScreen()
        paintEverything(&writer, &reference)
        // Offsets 1…5 move the picture 1…5 pixels left; the copy left by 6 with offset 0 is the sixth pixel.
        var pictures: [CDGPicture] = []
        for offset in 1...5 { writer.scroll(horizontalOffset: offset, copy: true) }
        writer.scroll(horizontal: 2, copy: true)
        var decoder = CDGDecoder(bytes: writer.bytes)
        let painted = 18 * 50
        for count in painted...(painted + 6) {
            decoder.advance(toPacketCount: count)
            pictures.append(decoder.picture)
        }
        for step in 1...6 {
            // A pixel inside the window shows what was `step` pixels to its right before the scroll began.
            for (x, y) in [(6, 12), (100, 50), (287, 203)] {
                #expect(pictures[step].index(x: x, y: y) == pictures[0].index(x: x + step, y: y))
            }
        }
    }

    @Test("the colour tables load 12-bit colours into entries 0–7 and 8–15, each channel × 17")
    func colorTables() {
        var writer = CDGWriter()
        let low = [(0, 0, 0), (15, 0, 0), (0, 15, 0), (0, 0, 15), (15, 15, 15), (1, 2, 3), (8, 4, 12), (7, 9, 10)]
        let high = [(3, 14, 5), (10, 1, 0), (0, 6, 15), (12, 12, 1), (2, 8, 9), (11, 3, 13), (4, 5, 6), (15, 10, 5)]
        writer.colorTable(high: false, low)
        writer.colorTable(high: true, high)
        let picture = decoded(writer)
        let expected = (low + high).map { RGB(UInt8($0.0 * 17), UInt8($0.1 * 17), UInt8($0.2 * 17)) }
        #expect(picture.colors == expected)
        // Green straddles the two bytes: its top two bits end the first, its low two start the second.
        #expect(picture.colors[6] == RGB(136, 68, 204))
    }

    @Test("a transparent colour is remembered and still drawn as its table entry")
    func transparentColor() {
        var writer = CDGWriter()
        writer.colorTable(
            high: false, [(0, 0, 0), (15, 8, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
        writer.memoryPreset(color: 1)
        writer.transparentColor(1)
        let picture = decoded(writer)
        #expect(picture.transparentColor == 1)
        #expect(picture.color(x: 150, y: 100) == RGB(255, 136, 0))
        #expect(Array(picture.rgb24().prefix(3)) == [255, 136, 0])
    }

    @Test("the P and Q bits (the top two of every byte) are ignored, in the command, the instruction and the data")
    func subcodeBitsMasked() {
        var masked = CDGWriter(), plain = CDGWriter()
        masked.packet(command: 0xC9, instruction: 0x46, data: [0xC3, 0x4E, 0x82, 0x45] + pattern.map { $0 | 0xC0 })
        plain.tile(color0: 3, color1: 14, row: 2, column: 5, rows: pattern)
        #expect(decoded(masked) == decoded(plain))
    }

    @Test("packets that are not graphics and unknown instructions change nothing")
    func ignoredPackets() {
        var writer = CDGWriter()
        writer.memoryPreset(color: 4)
        writer.nothing(3)
        writer.packet(command: 8, instruction: 1, data: [9])
        writer.packet(instruction: 17, data: [9, 9, 9])
        writer.packet(instruction: 0)
        #expect(shown(decoded(writer)).allSatisfy { $0 == 4 })
    }

    @Test("going on from a position equals decoding from the start, at many positions in any order")
    func incrementalEqualsFromScratch() {
        var generator = SeededGenerator(state: 21)
        let writer = CDGRandomFile.make(packets: 600, using: &generator)
        var incremental = CDGDecoder(bytes: writer.bytes)
        var counts = (0...60).map { _ in Int.random(in: 0...writer.packetCount, using: &generator) }
        counts += [0, 1, writer.packetCount, writer.packetCount + 10]
        for count in counts {
            incremental.advance(toPacketCount: count)
            var fresh = CDGDecoder(bytes: writer.bytes)
            fresh.advance(toPacketCount: count)
            #expect(incremental.position == min(count, writer.packetCount))
            #expect(incremental.picture == fresh.picture, "after \(count) packets")
        }
    }

    @Test("every pixel that changes between two pictures lies in the changed area the decoder names")
    func changedArea() {
        var generator = SeededGenerator(state: 7)
        let writer = CDGRandomFile.make(packets: 400, using: &generator)
        var decoder = CDGDecoder(bytes: writer.bytes)
        #expect(decoder.takeChangedArea() == .all)
        #expect(decoder.takeChangedArea() == nil)
        var before = decoder.picture
        var count = 0
        while count < writer.packetCount {
            count += Int.random(in: 1...8, using: &generator)
            decoder.advance(toPacketCount: count)
            let after = decoder.picture
            let area = decoder.takeChangedArea()
            for y in 0..<216 {
                for x in 0..<300 where before.color(x: x, y: y) != after.color(x: x, y: y) {
                    #expect(
                        area?.contains(x: x, y: y) == true, "(\(x), \(y)) changed outside \(String(describing: area))")
                }
            }
            before = after
        }
    }

    @Test("a tile alone marks only its own 6×12 pixels as changed")
    func tileArea() {
        var writer = CDGWriter()
        writer.tile(color0: 1, color1: 2, row: 3, column: 4, rows: pattern)
        var decoder = CDGDecoder(bytes: writer.bytes)
        _ = decoder.takeChangedArea()
        decoder.advance(toPacketCount: 1)
        #expect(decoder.takeChangedArea() == CDGArea(x: 24, y: 36, width: 6, height: 12))
    }

    @Test("going back starts again from the first packet")
    func seekBack() {
        var writer = CDGWriter()
        writer.memoryPreset(color: 3)
        writer.tile(color0: 1, color1: 2, row: 3, column: 4, rows: pattern, xor: true)
        var decoder = CDGDecoder(bytes: writer.bytes)
        decoder.advance(toPacketCount: 2)
        decoder.advance(toPacketCount: 1)
        #expect(decoder.position == 1)
        #expect(shown(decoder.picture).allSatisfy { $0 == 3 })
        #expect(decoder.takeChangedArea() == .all)
    }
}

/// Random but valid CD+G files: every instruction, in random order, with random fields (offsets included).
enum CDGRandomFile {
    static func make(packets: Int, using generator: inout SeededGenerator) -> CDGWriter {
        var writer = CDGWriter()
        func any(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &generator) }
        while writer.packetCount < packets {
            switch any(0...11) {
            case 0: writer.memoryPreset(color: any(0...15), repeat: any(0...15))
            case 1: writer.borderPreset(color: any(0...15))
            case 2, 3, 4:
                let rows = (0..<12).map { _ in UInt8(any(0...63)) }
                writer.tile(
                    color0: any(0...15), color1: any(0...15), row: any(0...19), column: any(0...51), rows: rows,
                    xor: any(0...1) == 1)
            case 5:
                writer.scroll(
                    color: any(0...15), horizontal: any(0...3), horizontalOffset: any(0...7), vertical: any(0...3),
                    verticalOffset: any(0...15), copy: any(0...1) == 1)
            case 6: writer.transparentColor(any(0...15))
            case 7:
                writer.colorTable(high: any(0...1) == 1, (0..<8).map { _ in (any(0...15), any(0...15), any(0...15)) })
            case 8: writer.nothing(any(1...3))
            case 9: writer.packet(instruction: UInt8(any(0...63)), data: (0..<16).map { _ in UInt8(any(0...255)) })
            default:
                writer.tile(
                    color0: any(0...15), color1: any(0...15), row: any(1...16), column: any(1...48), rows: pattern)
            }
        }
        return writer
    }
}
