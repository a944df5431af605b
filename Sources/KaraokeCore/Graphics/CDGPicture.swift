/// The CD+G picture as shown at one moment: 300×216 colour indices and the colour table (DESIGN §19.1).
///
/// The whole raster is shown: the 288×192 window at (6, 12), moved by the smooth-scroll offsets, and
/// around it the border band as the memory holds it (what the border preset, a memory preset or a tile
/// drawn there put in it). With both offsets 0 this is the memory itself, as ffmpeg shows it.
public struct CDGPicture: Sendable, Equatable {
    /// Pixels a row.
    public static let width = 300
    /// Rows.
    public static let height = 216
    /// The window inside the border band that the smooth-scroll offsets move over the memory.
    public static let window = CDGArea(x: 6, y: 12, width: 288, height: 192)

    /// Colour table indices (0…15), row by row from the top left, `width × height` of them.
    public var indices: [UInt8]
    /// The 16 entries of the colour table, each a 12-bit colour widened to 24 bits (0xF becomes 0xFF).
    public var colors: [RGB]
    /// The colour the last define-transparent-colour instruction named, if any. It is still drawn as its
    /// table entry: a terminal has no video beneath to show through.
    public var transparentColor: Int?

    /// Creates a picture from its indices and colour table.
    public init(indices: [UInt8], colors: [RGB], transparentColor: Int? = nil) {
        precondition(indices.count == Self.width * Self.height && colors.count == 16, "not a CD+G picture")
        self.indices = indices
        self.colors = colors
        self.transparentColor = transparentColor
    }

    /// The colour index of the pixel at column `x`, row `y`.
    public func index(x: Int, y: Int) -> Int { Int(indices[y * Self.width + x]) }

    /// The colour of the pixel at column `x`, row `y`.
    public func color(x: Int, y: Int) -> RGB { colors[index(x: x, y: y)] }

    /// Red, green and blue bytes of every pixel, row by row (what ffmpeg's `rgb24` holds).
    public func rgb24() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: indices.count * 3)
        var at = 0
        for index in indices {
            let color = colors[Int(index)]
            bytes[at] = color.red
            bytes[at + 1] = color.green
            bytes[at + 2] = color.blue
            at += 3
        }
        return bytes
    }

    /// The picture as a binary PPM (P6, 300×216, maximum 255).
    public func ppm() -> [UInt8] {
        Array("P6\n\(Self.width) \(Self.height)\n255\n".utf8) + rgb24()
    }
}

/// A rectangle of pixels: the part of a picture that changed.
public struct CDGArea: Sendable, Equatable {
    /// The leftmost column.
    public var x: Int
    /// The top row.
    public var y: Int
    /// Columns.
    public var width: Int
    /// Rows.
    public var height: Int

    /// Creates an area.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The whole picture.
    public static let all = CDGArea(x: 0, y: 0, width: CDGPicture.width, height: CDGPicture.height)

    /// The smallest area holding both.
    public func union(_ other: CDGArea) -> CDGArea {
        let left = min(x, other.x), top = min(y, other.y)
        let right = max(x + width, other.x + other.width), bottom = max(y + height, other.y + other.height)
        return CDGArea(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// Whether the pixel at column `x`, row `y` is inside.
    public func contains(x: Int, y: Int) -> Bool {
        x >= self.x && x < self.x + width && y >= self.y && y < self.y + height
    }
}
