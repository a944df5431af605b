/// Decodes a CD+G file packet by packet (DESIGN §19): pure, fed the file's bytes, advanced to a packet count.
///
/// The state after packets [0, N) is kept, so going on to M > N applies only the packets between; going back
/// starts again from the first packet. A player at 30 frames a second applies about ten packets a frame.
/// Whatever the bytes, decoding never traps: packets that are not graphics, unknown instructions, tiles off
/// the screen and a partial last packet are skipped, as players skip them (`CDGReport` names them).
public struct CDGDecoder: Sendable {
    /// The file's bytes.
    public let bytes: [UInt8]
    /// Whole packets in the file (a partial last one is not counted).
    public var packetCount: Int { bytes.count / CDGTime.packetSize }
    /// Packets applied so far: the state is the one after packets [0, position).
    public private(set) var position = 0

    /// Colour indices of the 300×216 memory, row by row.
    private var memory = [UInt8](repeating: 0, count: CDGPicture.width * CDGPicture.height)
    /// The colour table; black until a load-colour-table instruction.
    private var colors = [RGB](repeating: RGB(0, 0, 0), count: 16)
    /// The last transparent colour defined.
    private var transparentColor: Int?
    /// The smooth-scroll offsets the last scroll set.
    private var horizontalOffset = 0
    private var verticalOffset = 0
    /// What changed in the picture since the last `takeChangedArea()`; everything at first.
    private var changed: CDGArea? = .all

    /// A decoder of `bytes` before its first packet: every pixel colour 0, every colour black.
    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Moves to the state after packets [0, count) (clamped to the file's packets), applying only the
    /// packets after the current position, or starting again when `count` is behind it.
    public mutating func advance(toPacketCount count: Int) {
        let target = min(max(count, 0), packetCount)
        if target < position { self = CDGDecoder(bytes: bytes) }
        while position < target {
            if let instruction = CDGInstruction(packetAt: position * CDGTime.packetSize, of: bytes) {
                apply(instruction)
            }
            position += 1
        }
    }

    /// Moves to the picture shown at `time`: every packet at or before it applied.
    public mutating func advance(to time: CDGTime) {
        advance(toPacketCount: time.packetsShown)
    }

    /// The picture as it is shown now: the window moved by the smooth-scroll offsets, the border band as is.
    public var picture: CDGPicture {
        if horizontalOffset == 0 && verticalOffset == 0 {
            return CDGPicture(indices: memory, colors: colors, transparentColor: transparentColor)
        }
        var shown = memory
        let window = CDGPicture.window
        for y in window.y..<(window.y + window.height) {
            let from = (y + verticalOffset) * CDGPicture.width + horizontalOffset
            let to = y * CDGPicture.width
            for x in window.x..<(window.x + window.width) { shown[to + x] = memory[from + x] }
        }
        return CDGPicture(indices: shown, colors: colors, transparentColor: transparentColor)
    }

    /// The smallest area of the picture that may have changed since the last call (everything at first,
    /// after a restart, or when the colours or the offsets changed), or nil when nothing did.
    public mutating func takeChangedArea() -> CDGArea? {
        defer { changed = nil }
        return changed
    }

    /// Carries out one instruction.
    mutating func apply(_ instruction: CDGInstruction) {
        switch instruction {
        case .memoryPreset(let color, _):
            // Every copy of a preset does the same, so the repeat number needs no look (DESIGN §19.3).
            for index in memory.indices { memory[index] = UInt8(color) }
            markChanged(.all)
        case .borderPreset(let color):
            let window = CDGPicture.window
            for y in 0..<CDGPicture.height {
                let inside = y >= window.y && y < window.y + window.height
                for x in 0..<CDGPicture.width where !inside || x < window.x || x >= window.x + window.width {
                    memory[y * CDGPicture.width + x] = UInt8(color)
                }
            }
            markChanged(.all)
        case .tile(let tile):
            draw(tile)
        case .scroll(let scroll):
            move(by: scroll)
            horizontalOffset = scroll.horizontalOffset
            verticalOffset = scroll.verticalOffset
            markChanged(.all)
        case .transparentColor(let color):
            transparentColor = color
        case .colorTable(let first, let entries):
            for (offset, color) in entries.enumerated() { colors[first + offset] = color }
            markChanged(.all)
        case .unknown:
            break
        }
    }

    /// Draws a tile into the memory; one off the screen is ignored.
    private mutating func draw(_ tile: CDGTile) {
        guard tile.isOnScreen else { return }
        let left = tile.column * 6, top = tile.row * 12
        let colors = (UInt8(tile.color0), UInt8(tile.color1))
        for (row, bits) in tile.rows.enumerated() {
            let start = (top + row) * CDGPicture.width + left
            for column in 0..<6 {
                let color = bits >> (5 - column) & 1 == 0 ? colors.0 : colors.1
                if tile.isXOR {
                    memory[start + column] ^= color
                } else {
                    memory[start + column] = color
                }
            }
        }
        let area = CDGArea(x: left, y: top, width: 6, height: 12)
        markChanged(area)
        // Inside the window the same pixels show moved by the offsets.
        let shifted = CDGArea(x: left - horizontalOffset, y: top - verticalOffset, width: 6, height: 12)
        markChanged(CDGArea(x: max(0, shifted.x), y: max(0, shifted.y), width: 6, height: 12))
    }

    /// Moves the whole memory by a scroll's steps: what a preset uncovers takes its colour, what a copy moves
    /// off one edge comes back at the other (each axis wraps on its own, so a move both ways turns the memory
    /// round like a torus).
    private mutating func move(by scroll: CDGScroll) {
        guard scroll.columnStep != 0 || scroll.rowStep != 0 else { return }
        let width = CDGPicture.width, height = CDGPicture.height
        let old = memory
        let fill = UInt8(scroll.color)
        old.withUnsafeBufferPointer { source in
            memory.withUnsafeMutableBufferPointer { target in
                for y in 0..<height {
                    var fromY = y - scroll.rowStep
                    let to = y * width
                    if fromY < 0 || fromY >= height {
                        guard scroll.copies else {
                            for x in 0..<width { target[to + x] = fill }
                            continue
                        }
                        fromY = (fromY + height) % height
                    }
                    let from = fromY * width
                    for x in 0..<width {
                        var fromX = x - scroll.columnStep
                        if fromX < 0 || fromX >= width {
                            guard scroll.copies else {
                                target[to + x] = fill
                                continue
                            }
                            fromX = (fromX + width) % width
                        }
                        target[to + x] = source[from + fromX]
                    }
                }
            }
        }
    }

    /// Adds `area` to what changed.
    private mutating func markChanged(_ area: CDGArea) {
        changed = changed.map { $0.union(area) } ?? area
    }
}
