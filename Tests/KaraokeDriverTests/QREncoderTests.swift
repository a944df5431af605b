import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Whether libqrencode loads here, as karaoke loads it (`make deps` installs libqrencode4).
private let qrencodeLoads = (try? QREncoder.load()) != nil

/// Where zbarimg is, when zbar-tools is installed (`make deps-test`).
private let zbarimg = ["/usr/bin/zbarimg", "/bin/zbarimg"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The party's address as the card will show it: a LAN address, the default port and a room code.
private let partyAddress = "http://192.168.1.23:8737/?code=1234"

/// Pixels a module takes each way in the pictures zbarimg reads.
private let modulePixels = 4

/// A grey picture of `rows` as a terminal of `depth` shows them, `modulePixels` a module: each cell is a module
/// wide and two tall, its glyph says which halves are ink, and the ink and the ground are the cell's colours,
/// or, without colour, the terminal's own (`foreground` on `background`).
private func picture(
    of rows: [FrameRow], columns: Int, depth: ColorDepth, foreground: UInt8 = 229, background: UInt8 = 30
) throws -> (width: Int, height: Int, pixels: [UInt8]) {
    let width = columns * modulePixels, height = rows.count * 2 * modulePixels
    var pixels = [UInt8](repeating: 0, count: width * height)
    func gray(_ color: RGB?, or terminal: UInt8) -> UInt8 {
        guard let color else { return terminal }
        let red = 3 * Int(color.red), green = 4 * Int(color.green), blue = 2 * Int(color.blue)
        return UInt8((red + green + blue) / 9)
    }
    for (y, row) in rows.enumerated() {
        for (x, column) in ScreenRow(row, width: columns, depth: depth).columns.enumerated() {
            guard case .glyph(let glyph, 1, let style) = column else {
                Issue.record("row \(y) column \(x) is \(column)")
                continue
            }
            let ink = gray(style.rgb ?? style.paletteIndex.map(color), or: foreground)
            let ground = gray(style.backgroundRGB ?? style.backgroundIndex.map(color), or: background)
            let halves: (top: Bool, bottom: Bool) =
                switch glyph {
                case "\u{2588}": (true, true)
                case "\u{2580}": (true, false)
                case "\u{2584}": (false, true)
                case " ": (false, false)
                default: try #require(nil as (Bool, Bool)?, "glyph \(glyph)")
                }
            for half in 0..<2 {
                let value = (half == 0 ? halves.top : halves.bottom) ? ink : ground
                for py in 0..<modulePixels {
                    let line = ((2 * y + half) * modulePixels + py) * width
                    for px in 0..<modulePixels { pixels[line + x * modulePixels + px] = value }
                }
            }
        }
    }
    return (width, height, pixels)
}

/// The colour of palette entry `index` as xterm shows it: its 16 system colours are the theme's, and the tests'
/// theme is xterm's (only black, 0, and white, 7, are used).
private func color(_ index: Int) -> RGB {
    switch index {
    case 0: RGB(hex: 0x000000)
    case 7: RGB(hex: 0xE5E5E5)
    default: ColorDepth.paletteColor(index)
    }
}

/// What `zbarimg --raw -q` reads in the picture, written to a temporary PGM file; with `inverted`, also a code
/// of light modules on a dark ground.
///
/// `-Sbinary` gives the bytes as encoded: without it zbar takes 8-bit bytes that are not ASCII for Shift JIS.
private func decoded(_ picture: (width: Int, height: Int, pixels: [UInt8]), inverted: Bool = false) throws -> String {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-qr-\(UUID().uuidString).pgm")
    defer { try? FileManager.default.removeItem(at: file) }
    try (Data("P5\n\(picture.width) \(picture.height)\n255\n".utf8) + Data(picture.pixels)).write(to: file)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try #require(zbarimg))
    process.arguments = ["--nodbus", "--raw", "-q", "-Sbinary"] + (inverted ? ["-Stest-inverted"] : []) + [file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let bytes = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var text = String(decoding: bytes, as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    return text
}

@Suite("libqrencode encodes the party's address", .enabled(if: qrencodeLoads, "needs libqrencode4 (make deps)"))
struct QREncoderTests {
    @Test(
        "the party's addresses need version 3 at level M: 37 × 19 cells with the standard quiet zone",
        arguments: [
            // the card's address
            "http://192.168.1.23:8737/?code=1234",
            // the longest IPv4 address, the highest port and a six-digit code: 41 bytes, the most version 3 takes
            // beside a 42nd
            "http://192.168.100.123:65535/?code=123456",
        ])
    func sizes(address: String) throws {
        let modules = try QREncoder.encode(address)
        #expect(modules.version == 3)
        #expect(modules.width == 29)
        let cells = try #require(QRCodeCells.fitting(modules, columns: 80, rows: 23))
        #expect(cells.quietZone == 4)
        #expect(cells.columns == 37 && cells.rowCount == 19)
    }

    @Test("a longer text takes a larger version, and one over version 40's bytes is refused")
    func versions() throws {
        #expect(try QREncoder.encode("http://10.0.0.5:8737/").version == 2)
        #expect(try QREncoder.encode(String(repeating: "a", count: 100)).version == 6)
        // Version 40 at level M holds 2331 bytes in 8-bit mode.
        #expect(try QREncoder.encode(String(repeating: "a", count: 2331)).version == 40)
        #expect(throws: QREncoder.Failure.refused("the text is too long for a QR code")) {
            try QREncoder.encode(String(repeating: "a", count: 2332))
        }
        #expect(throws: QREncoder.Failure.refused("a QR code's text cannot hold a NUL character")) {
            try QREncoder.encode("a\u{0}b")
        }
    }

    @Test(
        "the cells read back to the address through zbarimg, in colour and without, standard and narrow quiet zone",
        .enabled(if: zbarimg != nil, "needs zbar-tools (make deps-test)"),
        arguments: [ColorDepth.direct, .indexed256, .basic, .none], [4, 2])
    func readBack(depth: ColorDepth, quietZone: Int) throws {
        let cells = QRCodeCells(try QREncoder.encode(partyAddress), quietZone: quietZone)
        let rows = cells.rows(from: 0)
        #expect(try decoded(picture(of: rows, columns: cells.columns, depth: depth)) == partyAddress)
    }

    @Test(
        "a UTF-8 address reads back whole", .enabled(if: zbarimg != nil, "needs zbar-tools (make deps-test)"))
    func utf8() throws {
        let address = "http://karaoke.local:8737/?room=Café-Ünïcode"
        let cells = QRCodeCells(try QREncoder.encode(address))
        #expect(try decoded(picture(of: cells.rows(from: 0), columns: cells.columns, depth: .direct)) == address)
    }

    @Test(
        "without colour on a light theme the code shows inverted, which zbarimg reads only when told to look for it",
        .enabled(if: zbarimg != nil, "needs zbar-tools (make deps-test)"))
    func lightTheme() throws {
        let cells = QRCodeCells(try QREncoder.encode(partyAddress))
        let shown = try picture(
            of: cells.rows(from: 0), columns: cells.columns, depth: .none, foreground: 30, background: 229)
        #expect(try decoded(shown) == "")
        #expect(try decoded(shown, inverted: true) == partyAddress)
    }
}
