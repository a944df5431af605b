import Testing

@testable import KaraokeCore

/// The sixel strings in `bytes`, each with the cursor move before it: (row, column, width, height) of each,
/// rows and columns from 1 as CUP takes them.
private func sixels(in bytes: [UInt8]) -> [(row: Int, column: Int, width: Int, height: Int)] {
    let text = String(decoding: bytes, as: UTF8.self)
    var found: [(Int, Int, Int, Int)] = []
    for part in text.split(separator: "\u{1B}P0;1;0q\"1;1;", omittingEmptySubsequences: false).dropFirst() {
        let size = part.prefix { $0 != "#" }.split(separator: ";").map { Int($0)! }
        found.append((0, 0, size[0], size[1]))
    }
    var moves: [(Int, Int)] = []
    for part in text.split(separator: "\u{1B}[", omittingEmptySubsequences: false).dropFirst() {
        guard let h = part.firstIndex(of: "H") else { continue }
        let numbers = part[..<h].split(separator: ";").compactMap { Int($0) }
        if numbers.count == 2 { moves.append((numbers[0], numbers[1])) }
    }
    return found.enumerated().map { index, size in
        (index < moves.count ? moves[index].0 : 0, index < moves.count ? moves[index].1 : 0, size.2, size.3)
    }
}

@Suite("Painting a CD+G picture in pixels beside the cells")
struct PixelPainterTests {
    /// A picture of blue, then one red tile at tile row 8, column 20 from packet 300 on.
    static func file() -> [UInt8] {
        var writer = CDGWriter()
        writer.colorTable(
            high: false, [(0, 0, 0), (15, 0, 0), (0, 0, 15), (15, 15, 15), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
        writer.memoryPreset(color: 2)
        writer.nothing(298)
        writer.tile(color0: 1, color1: 1, row: 8, column: 20, rows: [UInt8](repeating: 0x3F, count: 12))
        writer.nothing(300)
        return writer.bytes
    }

    /// A player's frames on a 50×14 screen, drawn through `painter`'s renderer.
    struct Player {
        var track: CDGTrack
        var composer = FrameComposer(
            content: .graphics(SongMetadata()), fallbackTitle: "song.cdg", columns: 50, rows: 14,
            options: FrameOptions(),
            length: 4000)

        init(renderer: PixelPictureRenderer) {
            track = CDGTrack(bytes: PixelPainterTests.file(), renderer: renderer, depth: .indexed256)
        }

        mutating func frame(at time: Double, help: Bool = false) -> Frame {
            var input = FrameInput(time: time, help: help ? PlayerAction.help : nil)
            let size = composer.pictureSize
            input.picture = track.cells(at: time, columns: size.columns, rows: size.rows)
            return composer.frame(input)
        }
    }

    @Test("sixel: the whole picture first, then only the changed cells; held under the help box, sent after it")
    func sixelPainting() {
        let renderer = PixelPictureRenderer(inner: HalfBlockRenderer())
        var painter = PixelPainter(pixelProtocol: .sixel, cellSize: .init(width: 8, height: 16), renderer: renderer)
        var player = Player(renderer: renderer)
        // 50×14 leaves 50×12 for the picture: 33×12 at its aspect, from column 9 (8 + 1) and row 2.
        #expect(player.composer.pictureSize == (33, 12))
        // The first packets (the colours, the blue preset) come at once.
        let first = painter.split(player.frame(at: 0.5))
        #expect(sixels(in: first.pixels).map { [$0.row, $0.column, $0.width, $0.height] } == [[2, 9, 264, 192]])
        #expect(
            !first.cells.rows.contains { $0.cells.contains { $0.role == .picture } }, "the writer gets no picture cells"
        )
        #expect(painter.split(player.frame(at: 0.8)).pixels.isEmpty, "nothing changed, nothing sent")
        // The tile at pixels 120…125 × 96…107 lies under cell 13, 5 of the picture alone (cells of 300/33
        // by 216/12 pixels).
        let tile = painter.split(player.frame(at: 1.01)).pixels
        let parts = sixels(in: tile)
        #expect(parts.count == 1)
        if let part = parts.first {
            #expect(part.row == 2 + 5 && part.column == 9 + 13, "at the tile's cells: \(part)")
            #expect(part.width == 8 && part.height == 16)
        }
        // The help box: nothing is sent over it, though the picture changes underneath (a seek back).
        #expect(painter.split(player.frame(at: 0.2, help: true)).pixels.isEmpty)
        #expect(painter.split(player.frame(at: 1.2, help: true)).pixels.isEmpty)
        // Closed: the cells it stood on, and what changed meanwhile, are drawn again.
        let after = sixels(in: painter.split(player.frame(at: 1.3)).pixels)
        #expect(after.count == 1)
        #expect((after.first?.width ?? 0) > 8 * 8, "the cells the help box left: \(after)")
        // After the screen is cleared, the whole again.
        #expect(painter.forgetScreen().isEmpty)
        #expect(sixels(in: painter.split(player.frame(at: 1.4)).pixels).map(\.width) == [264])
    }

    @Test("kitty: the whole picture as one image, deleted under the help box and sent again after it")
    func kittyPainting() {
        let renderer = PixelPictureRenderer(inner: HalfBlockRenderer())
        var painter = PixelPainter(pixelProtocol: .kitty, cellSize: .init(width: 8, height: 16), renderer: renderer)
        var player = Player(renderer: renderer)
        let first = String(decoding: painter.split(player.frame(at: 0.5)).pixels, as: UTF8.self)
        #expect(first.hasPrefix("\u{1B}[2;9H\u{1B}_Ga=T,f=24,s=264,v=192,i=1,q=2,C=1,m=1;"))
        let tile = String(decoding: painter.split(player.frame(at: 1.01)).pixels, as: UTF8.self)
        #expect(tile.contains("a=T,f=24,s=264,v=192,i=1"), "the same id replaces the image")
        let help = painter.split(player.frame(at: 1.1, help: true)).pixels
        #expect(help == KittyEncoder.delete(id: 1))
        #expect(painter.split(player.frame(at: 1.2, help: true)).pixels.isEmpty)
        let back = String(decoding: painter.split(player.frame(at: 1.3)).pixels, as: UTF8.self)
        #expect(back.contains("a=T,f=24,s=264,v=192,i=1"))
        #expect(painter.forgetScreen() == KittyEncoder.delete(id: 1))
    }

    @Test("a lyric frame passes through whole, with no pixels")
    func lyricFrames() throws {
        let renderer = PixelPictureRenderer(inner: HalfBlockRenderer())
        var painter = PixelPainter(pixelProtocol: .sixel, cellSize: .init(width: 8, height: 16), renderer: renderer)
        var lyrics = FrameComposer(
            song: try Fixtures.song("lantern-river.lrc"), fallbackTitle: "", columns: 50, rows: 14,
            options: FrameOptions())
        let frame = lyrics.frame(at: 10)
        let split = painter.split(frame)
        #expect(split.cells == frame)
        #expect(split.pixels.isEmpty)
    }
}
