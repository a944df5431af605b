/// What `karaoke check` says about a CD+G file (DESIGN §19.5): its length and what a player skips in it.
public struct CDGReport: Sendable, Equatable {
    /// Something in a CD+G file that players skip, or a file that is no CD+G at all.
    public enum Problem: Sendable, Equatable {
        /// A graphics packet with an instruction the specification does not define.
        case unknownInstruction(packet: Int, instruction: Int)
        /// A tile block outside the 50×18 tiles of the screen.
        case tileOffScreen(packet: Int, row: Int, column: Int)
        /// The file ends `bytes` bytes into a packet.
        case truncatedPacket(bytes: Int)
        /// Not one packet has the graphics command (9): not a CD+G file.
        case noGraphics(packets: Int)

        /// Whether the file cannot be used at all.
        public var isError: Bool {
            if case .noGraphics = self { return true }
            return false
        }

        /// The message, lower case and without a full stop, as every check prints them.
        public var message: String {
            switch self {
            case .unknownInstruction(let packet, let instruction):
                return "packet \(packet) (\(Self.time(packet))): unknown instruction \(instruction); ignored"
            case .tileOffScreen(let packet, let row, let column):
                return "packet \(packet) (\(Self.time(packet))): tile at row \(row), column \(column) is off the "
                    + "screen (rows 0-17, columns 0-49); ignored"
            case .truncatedPacket(let bytes):
                return "the last packet is cut short (\(bytes) of 24 bytes); ignored"
            case .noGraphics(let packets):
                return packets == 0
                    ? "not a CD+G file: no whole 24-byte packet"
                    : "not a CD+G file: none of its \(packets) packets holds graphics (command 9)"
            }
        }

        /// Where packet `index` plays, for the messages.
        private static func time(_ index: Int) -> String { CDGTime.length(packets: index) }
    }

    /// Whole packets in the file.
    public var packetCount: Int
    /// The packets with the graphics command.
    public var graphicsPacketCount: Int
    /// The problems, in file order; at most `limit` of them are kept.
    public var problems: [Problem]
    /// Problems found past the `limit` kept.
    public var uncounted: Int

    /// Problems kept for one file, as for lyric files.
    public static let limit = DiagnosticLog.limit

    /// Reads every packet of `bytes`.
    public init(bytes: [UInt8]) {
        packetCount = bytes.count / CDGTime.packetSize
        graphicsPacketCount = 0
        problems = []
        uncounted = 0
        for packet in 0..<packetCount {
            guard let instruction = CDGInstruction(packetAt: packet * CDGTime.packetSize, of: bytes) else { continue }
            graphicsPacketCount += 1
            switch instruction {
            case .unknown(let number): note(.unknownInstruction(packet: packet, instruction: number))
            case .tile(let tile) where !tile.isOnScreen:
                note(.tileOffScreen(packet: packet, row: tile.row, column: tile.column))
            default: break
            }
        }
        let partial = bytes.count % CDGTime.packetSize
        if partial > 0 { note(.truncatedPacket(bytes: partial)) }
        if graphicsPacketCount == 0 {
            // Not CD+G at all: what else is wrong with it says nothing more.
            problems = [.noGraphics(packets: packetCount)]
            uncounted = 0
        }
    }

    /// The length, from the first packet to the end of the last: packets / 300 s.
    public var length: String { CDGTime.length(packets: packetCount) }

    /// Whether the file cannot be used.
    public var isUnusable: Bool { problems.contains(where: \.isError) }

    /// The problems as diagnostics about `file` (the whole file: no line or column), the count of those not
    /// kept last.
    public func diagnostics(file: String) -> [Diagnostic] {
        var diagnostics = problems.map {
            Diagnostic($0.isError ? .error : .warning, file: file, line: 0, column: 0, $0.message)
        }
        if uncounted > 0 {
            diagnostics.append(
                Diagnostic(
                    .warning, file: file, line: 0, column: 0,
                    "\(uncounted) more warning\(uncounted == 1 ? "" : "s") not shown"))
        }
        return diagnostics
    }

    /// `FILE: CD+G, 3:25.00, 61500 packets` (warnings counted when there are any).
    public func summary(file: String) -> String {
        var parts = ["CD+G", length, "\(packetCount) packet\(packetCount == 1 ? "" : "s")"]
        let warnings = problems.count { !$0.isError } + uncounted
        if warnings > 0 { parts.append("\(warnings) warning\(warnings == 1 ? "" : "s")") }
        return "\(file): " + parts.joined(separator: ", ")
    }

    /// Keeps `problem` when fewer than `limit` are kept, else counts it.
    private mutating func note(_ problem: Problem) {
        if problems.count < Self.limit { problems.append(problem) } else { uncounted += 1 }
    }

    /// Whether a file name says CD+G: the `.cdg` extension, in any case.
    public static func isCDG(_ fileName: String) -> Bool {
        let name = fileName.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        return name.count > 4 && name.utf8.suffix(4).map { $0 | 0x20 } == Array(".cdg".utf8)
    }
}
