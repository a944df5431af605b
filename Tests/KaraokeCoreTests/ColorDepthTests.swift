import Testing
@testable import KaraokeCore

/// A cell of `role` with `fill` and `color`.
private func cell(_ role: RowKind, fill: Double = 1, color: RGB = RGB(hex: 0x808080)) -> FrameCell {
    FrameCell(column: 0, grapheme: "x", glyph: "x", width: 1, role: role, fill: fill, color: color)
}

@Suite("Colour depth")
struct ColorDepthTests {
    // MARK: The 256-colour palette

    @Test(
        "pure and cube colours go to the 6×6×6 cube",
        arguments: [
            (color: RGB(hex: 0x000000), index: 16), // black is the cube's corner, not a dark gray
            (color: RGB(hex: 0xFFFFFF), index: 231), // white likewise
            (color: RGB(hex: 0xFF0000), index: 196), // red
            (color: RGB(hex: 0x00FF00), index: 46), // green
            (color: RGB(hex: 0x0000FF), index: 21), // blue
            (color: RGB(hex: 0xFFFF00), index: 226), // yellow
            (color: RGB(hex: 0x5F87AF), index: 67), // an exact cube entry (1, 2, 3)
            (color: RGB(hex: 0xFF2D55), index: 197), // pink: nearest levels 255, 0, 95
        ])
    func cube(color: RGB, index: Int) {
        #expect(ColorDepth.paletteIndex(color) == index)
    }

    @Test(
        "grays go to the gray ramp",
        arguments: [
            (color: RGB(hex: 0x080808), index: 232), // the ramp's first step
            (color: RGB(hex: 0x808080), index: 244), // the middle
            (color: RGB(hex: 0xEEEEEE), index: 255), // the last step
            (color: RGB(hex: 0x8E8E93), index: 246), // the status gray, slightly blue
            (color: RGB(hex: 0x595959), index: 240), // unsung lyrics on the dark theme (0.35 of white)
            (color: RGB(hex: 0x0C0C0C), index: 232), // rounds down to the nearest step
            (color: RGB(hex: 0x0E0E0E), index: 233), // rounds up to the nearest step
        ])
    func grayRamp(color: RGB, index: Int) {
        #expect(ColorDepth.paletteIndex(color) == index)
    }

    @Test("each entry 16…255 shown as its colour maps back to itself, as a picture's cells need (DESIGN §19.7)")
    func entriesRoundTrip() {
        for index in 16...255 {
            #expect(ColorDepth.paletteIndex(ColorDepth.paletteColor(index)) == index, "entry \(index)")
        }
    }

    @Test("every gray maps to a gray palette entry near it")
    func graysAreClose() {
        for level in 0...255 {
            let gray = RGB(UInt8(level), UInt8(level), UInt8(level))
            let shown = ColorDepth.paletteColor(ColorDepth.paletteIndex(gray))
            #expect(shown.red == shown.green && shown.green == shown.blue, "gray \(level) became a colour")
            // Half a ramp step, or half the gap between the ramp's last step (238) and white.
            #expect(abs(Int(shown.red) - level) <= 8, "gray \(level) shown as \(shown)")
        }
    }

    @Test("the palette index is the nearest entry: no other cube or ramp entry is closer")
    func nearest() {
        var seed: UInt32 = 12_345
        for _ in 0..<500 {
            seed = seed &* 1_103_515_245 &+ 12_345
            let color = RGB(hex: seed >> 8 & 0xFFFFFF)
            let chosen = ColorDepth.distance(color, ColorDepth.paletteColor(ColorDepth.paletteIndex(color)))
            for index in 16...255 {
                let other = ColorDepth.distance(color, ColorDepth.paletteColor(index))
                #expect(chosen <= other, "\(color): \(index) is closer")
            }
        }
    }

    @Test(
        "palette colours are the xterm cube and ramp",
        arguments: [
            (index: 16, color: RGB(hex: 0x000000)),
            (index: 67, color: RGB(hex: 0x5F87AF)),
            (index: 231, color: RGB(hex: 0xFFFFFF)),
            (index: 232, color: RGB(hex: 0x080808)),
            (index: 255, color: RGB(hex: 0xEEEEEE)),
        ])
    func paletteColor(index: Int, color: RGB) {
        #expect(ColorDepth.paletteColor(index) == color)
        #expect(ColorDepth.paletteIndex(color) == index)
    }

    @Test(
        "the basic hues are the nearest of the six ANSI colours or white",
        arguments: [
            (color: RGB(hex: 0xFF3B30), index: 1), // red
            (color: RGB(hex: 0x34C759), index: 2), // green
            (color: RGB(hex: 0xFFCC00), index: 3), // yellow
            (color: RGB(hex: 0x5856D6), index: 4), // indigo
            (color: RGB(hex: 0xAF52DE), index: 5), // purple
            (color: RGB(hex: 0x00C7BE), index: 6), // mint
            (color: RGB(hex: 0xFFFFFF), index: 7), // white
        ])
    func basicIndex(color: RGB, index: Int) {
        #expect(ColorDepth.basicIndex(color) == index)
    }

    // MARK: Styles

    @Test("direct colour keeps the exact colour; the title is bold")
    func directStyle() {
        let pink = RGB(hex: 0xFF2D55)
        #expect(
            TerminalStyle.of(cell(.lyric, fill: 0.4, color: pink), depth: .direct)
                == TerminalStyle(rgb: pink, paletteIndex: nil, weight: .normal))
        #expect(
            TerminalStyle.of(cell(.title, color: pink), depth: .direct)
                == TerminalStyle(rgb: pink, paletteIndex: nil, weight: .bold))
    }

    @Test("256 colours use the palette index of the colour")
    func indexedStyle() {
        let style = TerminalStyle.of(cell(.lyric, color: RGB(hex: 0x808080)), depth: .indexed256)
        #expect(style == TerminalStyle(rgb: nil, paletteIndex: 244, weight: .normal))
    }

    @Test(
        "without colours lyrics are bold when sung and normal when not",
        arguments: [
            (fill: 0.0, weight: TerminalStyle.Weight.normal), // unsung
            (fill: 0.3, weight: .normal), // mostly unsung
            (fill: 0.5, weight: .bold), // half
            (fill: 1.0, weight: .bold), // sung
        ])
    func noColourLyrics(fill: Double, weight: TerminalStyle.Weight) {
        let style = TerminalStyle.of(cell(.lyric, fill: fill), depth: .none)
        #expect(style == TerminalStyle(rgb: nil, paletteIndex: nil, weight: weight))
    }

    @Test(
        "without colours the rest of the screen is never dim and never coloured",
        arguments: [
            (role: RowKind.title, weight: TerminalStyle.Weight.bold),
            (role: .notice, weight: .bold),
            (role: .status, weight: .normal),
            (role: .translation, weight: .normal),
            (role: .blank, weight: .normal),
        ])
    func noColourOthers(role: RowKind, weight: TerminalStyle.Weight) {
        let style = TerminalStyle.of(cell(role, fill: 0), depth: .none)
        #expect(style == TerminalStyle(rgb: nil, paletteIndex: nil, weight: weight))
    }

    @Test(
        "on 8–16 colours lyrics are dim, normal or bold by fill",
        arguments: [
            (fill: 0.0, weight: TerminalStyle.Weight.dim), // unsung
            (fill: 0.4, weight: .normal), // the boundary grapheme
            (fill: 1.0, weight: .bold), // sung
        ])
    func basicLyrics(fill: Double, weight: TerminalStyle.Weight) {
        let style = TerminalStyle.of(cell(.lyric, fill: fill), depth: .basic)
        #expect(style == TerminalStyle(rgb: nil, paletteIndex: nil, weight: weight))
    }

    @Test("on 8–16 colours the title takes the nearest hue, bold; status and translations are dim")
    func basicOthers() {
        let title = TerminalStyle.of(cell(.title, color: RGB(hex: 0xFF3B30)), depth: .basic)
        #expect(title == TerminalStyle(rgb: nil, paletteIndex: 1, weight: .bold))
        #expect(TerminalStyle.of(cell(.status), depth: .basic).weight == .dim)
        #expect(TerminalStyle.of(cell(.translation), depth: .basic).weight == .dim)
    }
}
