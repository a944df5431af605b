/// The CD+G screen as the tests work it out on their own, as a grid of rows, from the specification's words:
/// the expected pictures the decoder is checked against (it shares no code with `CDGDecoder`).
struct CDGReferenceScreen: Equatable {
    /// `pixels[y][x]`: 216 rows of 300 colour indices.
    var pixels = [[Int]](repeating: [Int](repeating: 0, count: 300), count: 216)
    /// The smooth-scroll offsets.
    var horizontalOffset = 0
    var verticalOffset = 0

    /// Whether (x, y) is in the border band: outside the rectangle from (6, 12) to (294, 204).
    static func inBorder(x: Int, y: Int) -> Bool { !(6..<294).contains(x) || !(12..<204).contains(y) }

    /// "The entire screen should be cleared to this color."
    mutating func memoryPreset(_ color: Int) {
        pixels = [[Int]](repeating: [Int](repeating: color, count: 300), count: 216)
    }

    /// The border band cleared to `color`.
    mutating func borderPreset(_ color: Int) {
        for y in 0..<216 {
            for x in 0..<300 where Self.inBorder(x: x, y: y) { pixels[y][x] = color }
        }
    }

    /// A tile at tile row `row`, column `column`: pixel (c, r) of the tile is bit 5 − c of `rows[r]`.
    mutating func tile(color0: Int, color1: Int, row: Int, column: Int, rows: [UInt8], xor: Bool = false) {
        for r in 0..<12 {
            for c in 0..<6 {
                let set = Int(rows[r]) & (0x20 >> c) != 0
                let color = set ? color1 : color0
                if xor {
                    pixels[row * 12 + r][column * 6 + c] ^= color
                } else {
                    pixels[row * 12 + r][column * 6 + c] = color
                }
            }
        }
    }

    /// Moves every pixel `dx` right and `dy` down; uncovered pixels take `color`, or with `copy` the pixels
    /// pushed off the opposite edge.
    mutating func scroll(dx: Int, dy: Int, color: Int, copy: Bool) {
        var moved = pixels
        for y in 0..<216 {
            for x in 0..<300 {
                let sourceX = x - dx, sourceY = y - dy
                if (0..<300).contains(sourceX) && (0..<216).contains(sourceY) {
                    moved[y][x] = pixels[sourceY][sourceX]
                } else if copy {
                    moved[y][x] = pixels[(sourceY % 216 + 216) % 216][(sourceX % 300 + 300) % 300]
                } else {
                    moved[y][x] = color
                }
            }
        }
        pixels = moved
    }

    /// What the screen shows: inside the window, the pixel the offsets point at (a growing offset moves the
    /// picture left and up); in the border band, the memory as it is.
    var shown: [Int] {
        var shown: [Int] = []
        for y in 0..<216 {
            for x in 0..<300 {
                shown.append(
                    Self.inBorder(x: x, y: y) ? pixels[y][x] : pixels[y + verticalOffset][x + horizontalOffset])
            }
        }
        return shown
    }
}
