/// Writes CD+G files for the tests, packet by packet from instructions, as the specification lays them out
/// (command, instruction, two parity Q bytes, 16 data bytes, four parity P bytes); parity bytes stay 0.
struct CDGWriter {
    /// The file so far.
    private(set) var bytes: [UInt8] = []

    /// Packets written so far.
    var packetCount: Int { bytes.count / 24 }

    /// A packet with `command` (9: graphics), `instruction` and up to 16 data bytes (the rest 0).
    mutating func packet(command: UInt8 = 9, instruction: UInt8, data: [UInt8] = []) {
        precondition(data.count <= 16, "16 data bytes at most")
        bytes += [command, instruction, 0, 0] + data + [UInt8](repeating: 0, count: 16 - data.count) + [0, 0, 0, 0]
    }

    /// `count` packets that are not graphics (command 0), as discs carry between instructions.
    mutating func nothing(_ count: Int = 1) {
        for _ in 0..<count { packet(command: 0, instruction: 0) }
    }

    /// Memory preset (1).
    mutating func memoryPreset(color: Int, repeat number: Int = 0) {
        packet(instruction: 1, data: [UInt8(color), UInt8(number)])
    }

    /// Border preset (2).
    mutating func borderPreset(color: Int) {
        packet(instruction: 2, data: [UInt8(color)])
    }

    /// Tile block (6), or XOR (38): `rows` are 12 six-bit rows, bit 5 leftmost.
    mutating func tile(color0: Int, color1: Int, row: Int, column: Int, rows: [UInt8], xor: Bool = false) {
        precondition(rows.count == 12, "12 rows")
        packet(instruction: xor ? 38 : 6, data: [UInt8(color0), UInt8(color1), UInt8(row), UInt8(column)] + rows)
    }

    /// Scroll preset (20) or copy (24): `horizontal` 0 none, 1 right, 2 left; `vertical` 0 none, 1 down, 2 up.
    mutating func scroll(
        color: Int = 0, horizontal: Int = 0, horizontalOffset: Int = 0, vertical: Int = 0, verticalOffset: Int = 0,
        copy: Bool
    ) {
        packet(
            instruction: copy ? 24 : 20,
            data: [
                UInt8(color), UInt8(horizontal << 4 | horizontalOffset), UInt8(vertical << 4 | verticalOffset),
            ])
    }

    /// Define transparent colour (28).
    mutating func transparentColor(_ color: Int) {
        packet(instruction: 28, data: [UInt8(color)])
    }

    /// Load colour table low (30, entries 0–7) or high (31, entries 8–15): eight 4-bit (red, green, blue).
    mutating func colorTable(high: Bool, _ colors: [(Int, Int, Int)]) {
        precondition(colors.count == 8, "8 colours")
        var data: [UInt8] = []
        for (red, green, blue) in colors {
            data.append(UInt8(red << 2 | green >> 2))
            data.append(UInt8((green & 3) << 4 | blue))
        }
        packet(instruction: high ? 31 : 30, data: data)
    }
}
