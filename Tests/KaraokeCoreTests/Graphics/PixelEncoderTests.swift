import Testing

@testable import KaraokeCore

/// A picture whose pixels take their colour index from `index(x, y)`, with 16 different colours.
private func picture(_ index: (Int, Int) -> UInt8) -> CDGPicture {
    var indices: [UInt8] = []
    for y in 0..<CDGPicture.height { for x in 0..<CDGPicture.width { indices.append(index(x, y)) } }
    // CD+G colours are 12-bit ones widened: each channel a multiple of 17.
    let colors = (0..<16).map { (level: Int) -> RGB in
        let red = UInt8(level * 17), green = UInt8((15 - level) * 17), blue = UInt8(level * 7 % 16 * 17)
        return RGB(red, green, blue)
    }
    return CDGPicture(indices: indices, colors: colors)
}

/// Tiles of 6×12 in varied colours, with a diagonal through them, so a row or column off shows.
private let tiled = picture { x, y in UInt8((x / 6 + y / 12 * 3 + (x == y ? 5 : 0)) % 16) }

/// A small sixel decoder, written here from the DEC description, to read back what the encoder wrote.
private struct SixelImage {
    /// The colour register of each pixel set, by (x, y) from the image's top left.
    var pixels: [Int: Int] = [:]
    /// The registers defined, in percent.
    var registers: [Int: (Int, Int, Int)] = [:]
    var width = 0, height = 0
    /// Whether P2 is 1 (unset pixels keep the background).
    var keepsBackground = false

    init(_ bytes: [UInt8]) throws {
        #expect(bytes.starts(with: [0x1B, UInt8(ascii: "P")]))
        #expect(bytes.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        let q = try #require(bytes.firstIndex(of: UInt8(ascii: "q")))
        let parameters = String(decoding: bytes[2..<q], as: UTF8.self).split(
            separator: ";", omittingEmptySubsequences: false)
        keepsBackground = parameters.count > 1 && parameters[1] == "1"
        var at = q + 1
        let end = bytes.count - 2
        func number() -> Int {
            var value = 0
            while at < end, (0x30...0x39).contains(bytes[at]) {
                value = value * 10 + Int(bytes[at] - 0x30)
                at += 1
            }
            return value
        }
        func numbers() -> [Int] {
            var values = [number()]
            while at < end, bytes[at] == UInt8(ascii: ";") {
                at += 1
                values.append(number())
            }
            return values
        }
        var x = 0, band = 0, register = 0
        while at < end {
            let byte = bytes[at]
            at += 1
            switch byte {
            case UInt8(ascii: "\""):
                let values = numbers()
                width = values[2]
                height = values[3]
            case UInt8(ascii: "#"):
                let values = numbers()
                register = values[0]
                if values.count == 5 {
                    #expect(values[1] == 2, "RGB colour space")
                    registers[register] = (values[2], values[3], values[4])
                }
            case UInt8(ascii: "!"):
                let count = number()
                let sixel = bytes[at]
                at += 1
                for _ in 0..<count { put(sixel, x: &x, band: band, register: register) }
            case UInt8(ascii: "$"): x = 0
            case UInt8(ascii: "-"):
                x = 0
                band += 1
            case 0x3F...0x7E: put(byte, x: &x, band: band, register: register)
            default: Issue.record("unexpected byte \(byte) in the sixel data")
            }
        }
    }

    mutating func put(_ sixel: UInt8, x: inout Int, band: Int, register: Int) {
        let bits = sixel - 0x3F
        for k in 0..<6 where bits & (1 << k) != 0 {
            let key = (band * 6 + k) * 100_000 + x
            #expect(pixels[key] == nil, "a pixel set twice")
            pixels[key] = register
        }
        x += 1
    }

    func register(x: Int, y: Int) -> Int? { pixels[y * 100_000 + x] }
}

/// The colour shown at pixel (`x`, `y`) of `picture` scaled to `width × height`, by nearest neighbour.
private func scaled(_ picture: CDGPicture, x: Int, y: Int, width: Int, height: Int) -> RGB {
    picture.color(
        x: PixelScaling.source(x, of: width, pixels: CDGPicture.width),
        y: PixelScaling.source(y, of: height, pixels: CDGPicture.height))
}

@Suite("Writing a CD+G picture as sixel")
struct SixelEncoderTests {
    /// One size and rectangle to encode.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let width: Int, height: Int
        let columns: Range<Int>, rows: Range<Int>
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        // The picture at its own size.
        Case(label: "native", width: 300, height: 216, columns: 0..<300, rows: 0..<216),
        // 100×27 cells of 8×16: scaled up, 432 rows (72 bands).
        Case(label: "scaled up", width: 800, height: 432, columns: 0..<800, rows: 0..<432),
        // Scaled down, rows not a multiple of six.
        Case(label: "scaled down", width: 97, height: 67, columns: 0..<97, rows: 0..<67),
        // The cells over a changed tile: a rectangle inside, starting mid band.
        Case(label: "one tile", width: 800, height: 432, columns: 48..<64, rows: 32..<64),
        // A rectangle one pixel wide and high.
        Case(label: "one pixel", width: 800, height: 432, columns: 799..<800, rows: 431..<432),
    ]

    @Test("decodes back to the scaled pixels, in exact colours", arguments: cases)
    func roundTrip(_ item: Case) throws {
        let bytes = SixelEncoder.encode(
            tiled, width: item.width, height: item.height, columns: item.columns, rows: item.rows)
        let image = try SixelImage(bytes)
        #expect(image.keepsBackground)
        #expect(image.width == item.columns.count && image.height == item.rows.count)
        for (dy, y) in item.rows.enumerated() {
            for (dx, x) in item.columns.enumerated() {
                let register = try #require(image.register(x: dx, y: dy), "pixel \(x), \(y) not set")
                let color = scaled(tiled, x: x, y: y, width: item.width, height: item.height)
                let percent = try #require(image.registers[register])
                #expect(
                    percent.0 == SixelEncoder.percent(color.red) && percent.1 == SixelEncoder.percent(color.green)
                        && percent.2 == SixelEncoder.percent(color.blue), "pixel \(x), \(y)")
            }
        }
        // Nothing is set below or beside the rectangle, even in a last band shorter than six rows.
        #expect(image.pixels.count == item.columns.count * item.rows.count)
    }

    @Test("a percentage comes back to the same 4-bit CD+G colour")
    func percents() {
        for level in 0..<16 {
            let percent = SixelEncoder.percent(UInt8(level * 17))
            // A terminal turns the percentage back into a byte; the nearest 4-bit level is the one sent.
            let back = (percent * 255 + 50) / 100
            #expect((back + 8) / 17 == level, "level \(level): \(percent) % is \(back)")
        }
        #expect(SixelEncoder.percent(255) == 100 && SixelEncoder.percent(0) == 0)
    }

    @Test("runs of one colour are written as a repeat")
    func runs() {
        let solid = picture { _, _ in 3 }
        let bytes = SixelEncoder.encode(solid, width: 300, height: 6, columns: 0..<300, rows: 0..<6)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasSuffix("#3!300~\u{1B}\\"))
        #expect(bytes.count < 60)
    }

    @Test("an empty rectangle writes nothing")
    func empty() {
        #expect(SixelEncoder.encode(tiled, width: 800, height: 432, columns: 10..<10, rows: 0..<6).isEmpty)
        #expect(SixelEncoder.encode(tiled, width: 0, height: 0, columns: 0..<1, rows: 0..<1).isEmpty)
    }
}

/// The bytes base64 `text` stands for.
private func base64Decoded(_ text: [UInt8]) -> [UInt8] {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var out: [UInt8] = [], value = 0, bits = 0
    for byte in text where byte != UInt8(ascii: "=") {
        value = value << 6 | alphabet.firstIndex(of: byte)!
        bits += 6
        if bits >= 8 {
            bits -= 8
            out.append(UInt8(value >> bits & 0xFF))
        }
    }
    return out
}

@Suite("Writing a CD+G picture in the kitty graphics protocol")
struct KittyEncoderTests {
    /// The escape sequences' keys and payloads, in order.
    static func chunks(_ bytes: [UInt8]) -> [(keys: String, payload: [UInt8])] {
        var chunks: [(String, [UInt8])] = []
        var at = 0
        while at < bytes.count {
            #expect(Array(bytes[at..<(at + 3)]) == [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")])
            let semicolon = bytes[at...].firstIndex(of: UInt8(ascii: ";"))!
            var end = semicolon
            while !(bytes[end] == 0x1B && bytes[end + 1] == UInt8(ascii: "\\")) { end += 1 }
            chunks.append(
                (String(decoding: bytes[(at + 3)..<semicolon], as: UTF8.self), Array(bytes[(semicolon + 1)..<end])))
            at = end + 2
        }
        return chunks
    }

    @Test("the chunks decode back to the scaled picture's RGB", arguments: [(300, 216), (800, 432), (97, 67), (1, 1)])
    func roundTrip(width: Int, height: Int) {
        let bytes = KittyEncoder.encode(tiled, width: width, height: height, id: 7)
        let chunks = Self.chunks(bytes)
        #expect(chunks.first?.keys == "a=T,f=24,s=\(width),v=\(height),i=7,q=2,C=1,m=\(chunks.count > 1 ? 1 : 0)")
        for (index, chunk) in chunks.enumerated() {
            #expect(chunk.payload.count <= KittyEncoder.chunkSize)
            #expect(chunk.payload.count % 4 == 0)
            let more = index < chunks.count - 1 ? "m=1" : "m=0"
            #expect(index == 0 ? chunk.keys.hasSuffix(more) : chunk.keys == more)
        }
        let rgb = base64Decoded(chunks.flatMap(\.payload))
        var expected: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let color = scaled(tiled, x: x, y: y, width: width, height: height)
                expected += [color.red, color.green, color.blue]
            }
        }
        #expect(rgb == expected)
    }

    @Test("base64 of every length's tail matches the RFC's examples")
    func base64() {
        let cases = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (plain, encoded) in cases {
            #expect(String(decoding: Base64.encode(Array(plain.utf8)), as: UTF8.self) == encoded)
        }
    }

    @Test("a size of nothing writes nothing; delete names the image")
    func edges() {
        #expect(KittyEncoder.encode(tiled, width: 0, height: 5, id: 1).isEmpty)
        #expect(String(decoding: KittyEncoder.delete(id: 9), as: UTF8.self) == "\u{1B}_Ga=d,d=I,i=9,q=2\u{1B}\\")
    }
}
