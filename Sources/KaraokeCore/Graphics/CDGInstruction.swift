/// One CD+G graphics instruction, read from a packet (DESIGN §19.1).
///
/// Numbers follow the specification: the command byte masked with 0x3F is 9 for graphics, the instruction
/// byte masked with 0x3F says which instruction, and only the low six bits of each of the 16 data bytes
/// carry data (the top two belong to the P and Q subcode channels).
public enum CDGInstruction: Sendable, Equatable {
    /// Instruction 1: every pixel of the 300×216 memory takes `color`; `repeat` numbers the copies a disc
    /// sends of the same preset.
    case memoryPreset(color: Int, repeat: Int)
    /// Instruction 2: the border band (outside the 288×192 window at 6, 12) takes `color`.
    case borderPreset(color: Int)
    /// Instructions 6 (normal) and 38 (XOR): a 6×12 tile of two colours.
    case tile(CDGTile)
    /// Instructions 20 (preset) and 24 (copy): the memory moves by a tile, and the smooth-scroll offsets
    /// are set.
    case scroll(CDGScroll)
    /// Instruction 28: `color` is the transparent one (for overlaying video; a picture shows its colour).
    case transparentColor(Int)
    /// Instructions 30 and 31: eight colour table entries from `first` (0 or 8).
    case colorTable(first: Int, colors: [RGB])
    /// A graphics packet whose instruction the specification does not define; players ignore it.
    case unknown(instruction: Int)

    /// The instruction of the packet at byte `start` of `bytes` (24 bytes must follow), or nil when the
    /// packet is not a graphics packet.
    public init?(packetAt start: Int, of bytes: [UInt8]) {
        guard bytes[start] & 0x3F == 9 else { return nil }
        // Data byte i, with the P and Q channels' bits cleared.
        func data(_ index: Int) -> Int { Int(bytes[start + 4 + index] & 0x3F) }
        switch bytes[start + 1] & 0x3F {
        case 1: self = .memoryPreset(color: data(0) & 0x0F, repeat: data(1) & 0x0F)
        case 2: self = .borderPreset(color: data(0) & 0x0F)
        case 6, 38:
            var rows = [UInt8](repeating: 0, count: 12)
            for row in 0..<12 { rows[row] = UInt8(data(4 + row)) }
            self = .tile(
                CDGTile(
                    color0: data(0) & 0x0F, color1: data(1) & 0x0F, row: data(2) & 0x1F, column: data(3),
                    rows: rows, isXOR: bytes[start + 1] & 0x3F == 38))
        case 20, 24:
            self = .scroll(
                CDGScroll(
                    color: data(0) & 0x0F, horizontal: data(1), vertical: data(2),
                    copies: bytes[start + 1] & 0x3F == 24))
        case 28: self = .transparentColor(data(0) & 0x0F)
        case 30, 31:
            var colors: [RGB] = []
            colors.reserveCapacity(8)
            for entry in 0..<8 {
                // High byte: red in bits 5…2, green's top two bits in 1…0; low byte: green's low two bits
                // in 5…4, blue in 3…0. Four bits a channel, so 0xF becomes 0xFF (× 17).
                let high = data(2 * entry), low = data(2 * entry + 1)
                let red = high >> 2, green = (high & 0x03) << 2 | low >> 4, blue = low & 0x0F
                colors.append(RGB(UInt8(red * 17), UInt8(green * 17), UInt8(blue * 17)))
            }
            self = .colorTable(first: bytes[start + 1] & 0x3F == 30 ? 0 : 8, colors: colors)
        case let other: self = .unknown(instruction: Int(other))
        }
    }
}

/// A tile block: 6×12 pixels in two colours at a tile position (DESIGN §19.1).
public struct CDGTile: Sendable, Equatable {
    /// The colour (table index) of a 0 bit.
    public var color0: Int
    /// The colour (table index) of a 1 bit.
    public var color1: Int
    /// The tile row, 0…17 on the screen (the field holds up to 31).
    public var row: Int
    /// The tile column, 0…49 on the screen (the field holds up to 63).
    public var column: Int
    /// Twelve rows of six bits, top row first; bit 5 (0x20) is the leftmost pixel.
    public var rows: [UInt8]
    /// Whether the colours are XORed into the pixels already there (instruction 38) rather than replacing them.
    public var isXOR: Bool

    /// Creates a tile.
    public init(color0: Int, color1: Int, row: Int, column: Int, rows: [UInt8], isXOR: Bool) {
        self.color0 = color0
        self.color1 = color1
        self.row = row
        self.column = column
        self.rows = rows
        self.isXOR = isXOR
    }

    /// Whether the tile lies on the 300×216 memory (row 0…17, column 0…49); one that does not is ignored.
    public var isOnScreen: Bool { row < CDGPicture.height / 12 && column < CDGPicture.width / 6 }
}

/// A scroll preset or scroll copy (DESIGN §19.2).
public struct CDGScroll: Sendable, Equatable {
    /// The colour that fills what a scroll preset uncovers.
    public var color: Int
    /// Pixels the memory moves right (6), left (−6) or not at all (0).
    public var columnStep: Int
    /// Pixels the memory moves down (12), up (−12) or not at all (0).
    public var rowStep: Int
    /// The horizontal smooth-scroll offset, 0…5.
    public var horizontalOffset: Int
    /// The vertical smooth-scroll offset, 0…11.
    public var verticalOffset: Int
    /// Whether what leaves one edge comes back at the other (scroll copy) rather than uncovering `color`.
    public var copies: Bool

    /// Reads the two compound bytes: bits 5…4 are the move (1 right or down, 2 left or up; 0 and 3 none),
    /// bits 2…0 (horizontal) or 3…0 (vertical) the offset. An offset past the specification's range (6 or 7
    /// horizontally, 12…15 vertically) is taken as the largest it allows.
    public init(color: Int, horizontal: Int, vertical: Int, copies: Bool) {
        self.color = color
        let steps = [0, 1, -1, 0]
        columnStep = steps[horizontal >> 4 & 3] * 6
        rowStep = steps[vertical >> 4 & 3] * 12
        horizontalOffset = min(horizontal & 0x07, 5)
        verticalOffset = min(vertical & 0x0F, 11)
        self.copies = copies
    }
}
