/// A CD+G file as a player shows it: the picture at any moment in cells, and when it next changes
/// (DESIGN §19.7).
///
/// The decoder moves forward with the song and starts again on a seek back; the renderer runs only when a
/// packet changed the picture or the size changed, so a still picture costs nothing a frame.
public struct CDGTrack {
    private var decoder: CDGDecoder
    /// The packets that hold an instruction, in order: the only moments the picture can change.
    private let instructionPackets: [Int32]
    private let renderer: any PictureRenderer
    /// The terminal's colours, which the renderer fits the cells to.
    public let depth: ColorDepth
    private var shown: PictureCells?

    /// A track of the CD+G file `bytes`, drawn by `renderer` for a terminal of `depth`.
    public init(bytes: [UInt8], renderer: any PictureRenderer, depth: ColorDepth) {
        decoder = CDGDecoder(bytes: bytes)
        var packets: [Int32] = []
        for index in 0..<decoder.packetCount
        where CDGInstruction(packetAt: index * CDGTime.packetSize, of: bytes) != nil {
            packets.append(Int32(index))
        }
        instructionPackets = packets
        self.renderer = renderer
        self.depth = depth
    }

    /// The file's length in seconds: its packets at 300 a second.
    public var length: Double { Double(decoder.packetCount) / Double(CDGTime.packetsPerSecond) }

    /// The packets the picture at `time` seconds has applied: every one that started at or before it. A
    /// microsecond of slack, so that a wake computed for a packet's start shows that packet.
    static func packetsShown(at time: Double) -> Int {
        guard time >= 0 else { return 0 }
        return Int((time * Double(CDGTime.packetsPerSecond) + 0.000_3).rounded(.down)) + 1
    }

    /// The picture at `time` seconds in `columns` × `rows` cells; nil for a size of nothing.
    public mutating func cells(at time: Double, columns: Int, rows: Int) -> PictureCells? {
        guard columns > 0, rows > 0 else { return nil }
        decoder.advance(toPacketCount: Self.packetsShown(at: time))
        let changed = decoder.takeChangedArea()
        guard var cells = shown, cells.columns == columns, cells.rows == rows else {
            let cells = renderer.cells(for: decoder.picture, columns: columns, rows: rows, depth: depth)
            shown = cells
            return cells
        }
        guard let changed else { return cells }
        // Only the cells over what changed are drawn again: a few tiles a frame while a line is wiped.
        shown = nil // the cells' storage is then not shared, and is written in place
        let part = PictureCells.cells(covering: changed, columns: columns, rows: rows)
        renderer.draw(decoder.picture, into: &cells, columns: part.columns, rows: part.rows, depth: depth)
        shown = cells
        return cells
    }

    /// When the picture may next change after `time` seconds: the start of the first packet with an
    /// instruction that the picture at `time` has not applied; nil when none is left.
    public func nextChange(after time: Double) -> Double? {
        let shownCount = Self.packetsShown(at: time)
        // The first instruction packet at or after `shownCount`, by binary search.
        var low = 0, high = instructionPackets.count
        while low < high {
            let middle = (low + high) / 2
            if Int(instructionPackets[middle]) < shownCount { low = middle + 1 } else { high = middle }
        }
        guard low < instructionPackets.count else { return nil }
        return Double(instructionPackets[low]) / Double(CDGTime.packetsPerSecond)
    }
}
