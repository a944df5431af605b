/// Writes a CD+G picture, scaled to the pixels of the cells it covers, in the kitty graphics protocol
/// (DESIGN §19.9).
///
/// The picture goes as 24-bit RGB (`f=24`), base64 in chunks of at most 4096 bytes (`m=1` on all but the
/// last), transmitted and placed at the cursor at once (`a=T`). It carries an image id, so sending the
/// picture again replaces the one shown; `q=2` silences the terminal's replies (they would arrive as
/// keys) and `C=1` leaves the cursor where it was.
public enum KittyEncoder {
    /// Largest base64 payload of one escape sequence, as the protocol requires.
    public static let chunkSize = 4096

    /// The escape sequences that show `picture` scaled to `width × height` pixels, as image `id`, from
    /// the cursor; empty for a size of nothing.
    public static func encode(_ picture: CDGPicture, width: Int, height: Int, id: Int) -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        let sourceColumns = (0..<width).map { PixelScaling.source($0, of: width, pixels: CDGPicture.width) }
        var at = 0
        for y in 0..<height {
            let row = PixelScaling.source(y, of: height, pixels: CDGPicture.height) * CDGPicture.width
            for x in sourceColumns {
                let color = picture.colors[Int(picture.indices[row + x])]
                rgb[at] = color.red
                rgb[at + 1] = color.green
                rgb[at + 2] = color.blue
                at += 3
            }
        }
        let payload = Base64.encode(rgb)
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + payload.count / chunkSize * 16 + 64)
        var start = 0
        repeat {
            let end = min(payload.count, start + chunkSize)
            let more = end < payload.count ? 1 : 0
            out += [0x1B, UInt8(ascii: "_"), UInt8(ascii: "G")]
            // The keys go with the first chunk; the others carry only whether more follow.
            if start == 0 {
                out += "a=T,f=24,s=\(width),v=\(height),i=\(id),q=2,C=1,m=\(more);".utf8
            } else {
                out += "m=\(more);".utf8
            }
            out += payload[start..<end]
            out += [0x1B, UInt8(ascii: "\\")]
            start = end
        } while start < payload.count
        return out
    }

    /// The sequence that deletes image `id` and its placements (before drawing cells where it was).
    public static func delete(id: Int) -> [UInt8] {
        Array("\u{1B}_Ga=d,d=I,i=\(id),q=2\u{1B}\\".utf8)
    }
}
