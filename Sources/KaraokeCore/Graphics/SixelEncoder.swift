/// Writes a CD+G picture, scaled to the pixels of the cells it covers, as DEC sixel graphics (DESIGN §19.9).
///
/// The picture is scaled by nearest neighbour to `width × height` pixels (the cells' size in pixels), and
/// the rectangle `columns × rows` of that is written: the whole of it, or the cells over what changed. A
/// CD+G picture has 16 colours, so each one has its own colour register, set exactly; rows go in bands of
/// six, a colour at a time, runs of one sixel as `!count`. Only the bits of the rectangle's rows are set and
/// the background of the rest is left alone (P2 = 1), so a last band shorter than six rows draws nothing
/// below the rectangle.
public enum SixelEncoder {
    /// The DCS string (`ESC P … q … ESC \`) that draws pixels `columns × rows` of `picture` scaled to
    /// `width × height`, from the cursor; empty for an empty rectangle.
    public static func encode(
        _ picture: CDGPicture, width: Int, height: Int, columns: Range<Int>, rows: Range<Int>
    ) -> [UInt8] {
        let columns = columns.clamped(to: 0..<max(0, width)), rows = rows.clamped(to: 0..<max(0, height))
        guard !columns.isEmpty, !rows.isEmpty else { return [] }
        let sourceColumns = columns.map { PixelScaling.source($0, of: width, pixels: CDGPicture.width) }
        var out: [UInt8] = []
        out.reserveCapacity(columns.count * rows.count / 2)
        // P2 = 1: pixels no sixel sets keep what is there. Pan and pad 1: square pixels.
        append("\u{1B}P0;1;0q\"1;1;\(columns.count);\(rows.count)", to: &out)
        var used = [Bool](repeating: false, count: 16)
        for y in rows {
            let row = PixelScaling.source(y, of: height, pixels: CDGPicture.height) * CDGPicture.width
            for x in sourceColumns { used[Int(picture.indices[row + x])] = true }
        }
        for color in 0..<16 where used[color] {
            let rgb = picture.colors[color]
            append("#\(color);2;\(percent(rgb.red));\(percent(rgb.green));\(percent(rgb.blue))", to: &out)
        }
        var band = [UInt8](repeating: 0, count: 6 * columns.count)
        var top = rows.lowerBound
        while top < rows.upperBound {
            let bandRows = min(6, rows.upperBound - top)
            for k in 0..<bandRows {
                let row = PixelScaling.source(top + k, of: height, pixels: CDGPicture.height) * CDGPicture.width
                for (i, x) in sourceColumns.enumerated() { band[k * columns.count + i] = picture.indices[row + x] }
            }
            var inBand = [Bool](repeating: false, count: 16)
            for index in band[0..<(bandRows * columns.count)] { inBand[Int(index)] = true }
            var first = true
            for color in 0..<16 where inBand[color] {
                // `$` goes back to the band's left edge for the next colour.
                if !first { out.append(UInt8(ascii: "$")) }
                first = false
                append("#\(color)", to: &out)
                writeRuns(of: UInt8(color), in: band, rows: bandRows, width: columns.count, to: &out)
            }
            top += 6
            if top < rows.upperBound { out.append(UInt8(ascii: "-")) }
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    /// Writes the sixels of one colour across one band: runs of one character as `!count`, trailing empty
    /// sixels left out.
    private static func writeRuns(of color: UInt8, in band: [UInt8], rows: Int, width: Int, to out: inout [UInt8]) {
        var run: (sixel: UInt8, count: Int)?
        func flush(_ run: (sixel: UInt8, count: Int)) {
            if run.count >= 4 {
                append("!\(run.count)", to: &out)
                out.append(run.sixel)
            } else {
                for _ in 0..<run.count { out.append(run.sixel) }
            }
        }
        for x in 0..<width {
            var bits: UInt8 = 0
            for k in 0..<rows where band[k * width + x] == color { bits |= 1 << k }
            let sixel = 0x3F + bits
            if let current = run, current.sixel == sixel {
                run!.count += 1
            } else {
                if let current = run { flush(current) }
                run = (sixel, 1)
            }
        }
        // Empty sixels at the end of a band change nothing: they are not sent.
        if let current = run, current.sixel != 0x3F { flush(current) }
    }

    /// A colour byte as the percentage sixel colour registers take, rounded.
    static func percent(_ value: UInt8) -> Int { (Int(value) * 100 + 127) / 255 }

    private static func append(_ text: String, to out: inout [UInt8]) { out += text.utf8 }
}
