import Foundation
import KaraokeCore
import KaraokeDriver

/// A CD+G song of `seconds` shaped like a disc's: per page a memory preset, four lines of two tile rows drawn
/// (the text), then each line wiped left to right over three seconds by XOR tiles, a tile column every 22
/// packets. Tiles' patterns come from a fixed seed, so every run plays the same graphics.
func benchCDGSong(seconds: Int) -> [UInt8] {
    var seed: UInt32 = 2_026
    func next() -> UInt32 {
        seed = seed &* 1_103_515_245 &+ 12_345
        return seed >> 16
    }
    var bytes: [UInt8] = []
    func packet(_ instruction: UInt8, _ data: [UInt8]) {
        bytes += [9, instruction, 0, 0] + data + [UInt8](repeating: 0, count: 16 - data.count) + [0, 0, 0, 0]
    }
    func nothing() { bytes += [UInt8](repeating: 0, count: 24) }
    // Dark blue ground, white text, a gold wipe.
    let table: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 4), (15, 15, 15), (15, 12, 0), (0, 12, 15), (15, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0),
    ]
    packet(30, table.flatMap { [$0.0 << 2 | $0.1 >> 2, ($0.1 & 3) << 4 | $0.2] })
    var patterns: [Int: [UInt8]] = [:]
    func tile(_ color0: UInt8, _ color1: UInt8, row: Int, column: Int, xor: Bool) {
        let pattern = patterns[row * 64 + column] ?? (0..<12).map { _ in UInt8(next() % 64) }
        patterns[row * 64 + column] = pattern
        packet(xor ? 38 : 6, [color0, color1, UInt8(row), UInt8(column)] + pattern)
    }
    let total = seconds * CDGTime.packetsPerSecond * CDGTime.packetSize
    while bytes.count < total {
        packet(1, [0, 0])
        let lines = [4, 7, 10, 13]
        for row in lines {
            for column in 5..<45 {
                tile(0, 1, row: row, column: column, xor: false)
                tile(0, 1, row: row + 1, column: column, xor: false)
            }
        }
        for row in lines {
            for column in 5..<45 {
                tile(0, 3, row: row, column: column, xor: true)
                tile(0, 3, row: row + 1, column: column, xor: true)
                for _ in 0..<20 { nothing() }
            }
        }
    }
    return Array(bytes.prefix(total))
}

/// The bytes a second that `play` must write at least to show `bytes`' CD+G song at 30 frames a second on a
/// 100×30 terminal of `codes` and `depth`, its cells drawn by `renderer`: the painter's bytes for the player's
/// frames, as for lyrics (`byteFloor`).
func cdgByteFloor(
    _ bytes: [UInt8], renderer: any PictureRenderer, codes: TerminalCodes, depth: ColorDepth, window: Range<Double>
) -> Double {
    var metadata = SongMetadata()
    metadata.length = bytes.count / CDGTime.packetSize * 1000 / CDGTime.packetsPerSecond
    var composer = FrameComposer(
        content: .graphics(metadata), fallbackTitle: "bench", columns: 100, rows: 30, options: FrameOptions())
    var track = CDGTrack(bytes: bytes, renderer: renderer, depth: depth)
    var writer = ScreenWriter(codes: codes, depth: depth, columns: 100, rows: 30)
    var written = 0
    var k = 0
    while Double(k) / 30 < window.upperBound {
        let time = Double(k) / 30
        var input = FrameInput(time: time, titleTime: (time * 10).rounded(.down) / 10)
        let size = composer.pictureSize
        input.picture = track.cells(at: time, columns: size.columns, rows: size.rows)
        let count = writer.write(composer.frame(input)).count
        if window.contains(time) { written += count }
        k += 1
    }
    return Double(written) / (window.upperBound - window.lowerBound)
}

/// The CD+G rows: `play --no-audio` of the generated song in a pseudo-terminal at 100×30 in 256 colours, its CPU
/// (the budget is 2 % of one core, issue 21) and bytes beside the floor of the same pictures.
func cdgPlayRows(karaoke: String, ttymeasure: String, data: String, seconds: Int, runs: Int) -> [(
    String, String, String, String
)] {
    let name = "play of a CD+G song, 100×30, 30 fps, xterm-256color"
    guard FileManager.default.fileExists(atPath: ttymeasure) else {
        return [(name, "not run", "needs \(ttymeasure)", "")]
    }
    let song = benchCDGSong(seconds: seconds + 5)
    let path = "\(data)/bench-song.cdg"
    guard FileManager.default.createFile(atPath: path, contents: Data(song)) else {
        return [(name, "not run", "cannot write \(path)", "")]
    }
    defer { try? FileManager.default.removeItem(atPath: path) }
    var cpu: [Double] = [], written: [Double] = []
    for attempt in 0..<runs {
        guard
            let measured = measureInPTY(
                [karaoke, "play", "--no-audio", "--fps", "30", path], ttymeasure: ttymeasure, term: "xterm-256color",
                seconds: seconds, report: "\(data)/bench-cdg-\(attempt).json")
        else { continue }
        if let value = measured.cpu { cpu.append(value) }
        if let value = measured.bytesPerSecond { written.append(value) }
    }
    // The floor with the renderer `play` uses: libchafa when it loads, else the half blocks.
    let renderer: any PictureRenderer = (try? ChafaRenderer()) ?? HalfBlockRenderer()
    let floor = terminalCodes("xterm-256color").map {
        cdgByteFloor(song, renderer: renderer, codes: $0, depth: .indexed256, window: 1..<Double(seconds))
    }
    let measured = written.isEmpty ? nil : median(written)
    return [
        (
            name + ": CPU", cpu.isEmpty ? "?" : "\(fixed(median(cpu), 2)) % of one core",
            "runs " + cpu.map { fixed($0, 2) }.joined(separator: ", ") + " (in clock ticks)", "2 % of one core"
        ),
        writtenRow(name, measured: measured, floor: floor),
    ]
}
