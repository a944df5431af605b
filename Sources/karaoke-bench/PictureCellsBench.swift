import Foundation
import KaraokeCore
import KaraokeDriver

/// `count` CD+G pictures of random 6×12 tiles over random 12-bit colour tables, each different everywhere
/// from the one before: the worst a song can ask, where every cell changes at every redraw.
func benchPictures(_ count: Int) -> [CDGPicture] {
    var seed: UInt32 = 1_984
    func next() -> UInt32 {
        seed = seed &* 1_103_515_245 &+ 12_345
        return seed >> 16
    }
    return (0..<count).map { _ in
        let colors = (0..<16).map { _ in
            RGB(UInt8(next() % 16 * 17), UInt8(next() % 16 * 17), UInt8(next() % 16 * 17))
        }
        let tiles = (0..<(50 * 18)).map { _ in UInt8(next() % 16) }
        var indices = [UInt8](repeating: 0, count: CDGPicture.width * CDGPicture.height)
        for y in 0..<CDGPicture.height {
            for x in 0..<CDGPicture.width { indices[y * CDGPicture.width + x] = tiles[y / 12 * 50 + x / 6] }
        }
        return CDGPicture(indices: indices, colors: colors)
    }
}

/// The CPU time of the whole process (every thread, chafa's workers too), in seconds.
func processCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The picture-in-cells rows: a whole changing CD+G picture through libchafa at the size it takes in the
/// lyric area of a 100×30 terminal, in true colour and in 256 colours, `calls` calls each: the wall time and
/// the CPU time a call (DESIGN §19.7). The figure says whether a player can redraw the whole picture each
/// time it changes or must redraw only the changed area.
func pictureCellRows(calls: Int) -> [(String, String, String, String)] {
    // The 28 rows a 100×30 screen leaves between its title and status bar.
    let size = PictureCells.fit(width: CDGPicture.width, height: CDGPicture.height, columns: 100, rows: 28)
    let name = "CD+G picture in \(size.columns)×\(size.rows) cells through libchafa"
    let renderer: ChafaRenderer
    do throws(ChafaRenderer.Unavailable) {
        renderer = try ChafaRenderer()
    } catch {
        return [(name, "not run", error.message, "")]
    }
    let pictures = benchPictures(16)
    var rows: [(String, String, String, String)] = []
    for (label, depth) in [("true colour", ColorDepth.direct), ("256 colours", .indexed256)] {
        var checksum = 0
        _ = renderer.cells(for: pictures[0], columns: size.columns, rows: size.rows, depth: depth) // the canvas
        let cpuStart = processCPUSeconds()
        let times = measure(calls) {
            let picture = pictures[checksum % pictures.count]
            let cells = renderer.cells(for: picture, columns: size.columns, rows: size.rows, depth: depth)
            checksum &+= cells.cells.count &+ 1
        }
        let cpu = (processCPUSeconds() - cpuStart) / Double(calls)
        let wall = times.reduce(0, +) / Double(calls)
        rows.append(
            (
                "\(name), \(label), every cell changing", "\(fixed(wall * 1e6, 0)) µs a call (mean of \(calls))",
                "CPU \(fixed(cpu * 1e6, 0)) µs a call; \(fixed(cpu * 30 * 100)) % of a core at 30 a second",
                ""
            ))
    }
    return rows
}
