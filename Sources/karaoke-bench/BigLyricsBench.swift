import Foundation
import KaraokeCore

/// Big lyrics (DESIGN §23.6): reading Unifont; composing one 200×60 frame mid-line at sizes 2 and 3; and
/// `play --no-audio --size N` of the song in a 100×30 pseudo-terminal in xterm-direct at sizes 1, 2 and 3,
/// bytes a second beside the floor of the same frames (`byteFloor` with the same options), and CPU.
func bigLyricsRows(
    karaoke: String, ttymeasure: String, data: String, songPath: String, seconds: Int, runs: Int
) -> [(String, String, String, String)] {
    guard let songBytes = FileManager.default.contents(atPath: songPath).map({ [UInt8]($0) }),
        let song = LyricsReader.parse(
            songBytes, file: songPath, format: LyricFormat.detect(utf8: songBytes, fileName: songPath)
        ).song
    else { return [("big lyrics", "not run", "cannot read \(songPath)", "")] }
    guard let hex = FileManager.default.contents(atPath: "/usr/share/unifont/unifont.hex").map({ [UInt8]($0) }) else {
        return [("big lyrics", "not run", "needs Debian unifont", "")]
    }
    var rows: [(String, String, String, String)] = []
    var font: BitmapFont? = nil
    let reads = measure(3) { font = BitmapFont(hex: hex) }
    rows.append(
        (
            "read unifont.hex (\(hex.count / 1024) KB, \(font!.glyphCount) glyphs)",
            "\(fixed(median(reads) * 1000, 1)) ms median", "once, on first use of a size ≥ 2", "under 100 ms"
        ))
    let source = BigFontSource(font: font)
    let middle = Double(song.lines[song.lines.count / 2].start) / 1000 + 1
    for size in [2, 3] {
        var options = FrameOptions()
        options.size = .fixed(size)
        options.bigFont = source
        var composer = FrameComposer(song: song, fallbackTitle: "", columns: 200, rows: 60, options: options)
        _ = composer.frame(at: middle)
        var step = 0.0
        let times = measure(1000) {
            step += 0.033
            _ = composer.frame(at: middle + step.truncatingRemainder(dividingBy: 2))
        }
        rows.append(
            (
                "compose one 200×60 frame mid-line at size \(size)",
                "\(fixed(median(times) * 1e6, 1)) µs median", "\(count(1 / median(times))) frames/s", "under 1 ms"
            ))
    }
    guard FileManager.default.fileExists(atPath: ttymeasure) else {
        return rows + [("play --size in a pseudo-terminal", "not run", "needs python3 and \(ttymeasure)", "")]
    }
    for size in [1, 2, 3] {
        let name = "play --no-audio --size \(size), 100×30, 30 fps, xterm-direct"
        var bytesPerSecond: [Double] = [], cpu: [Double] = []
        for attempt in 0..<runs {
            guard
                let measured = measureInPTY(
                    [karaoke, "play", "--no-audio", "--fps", "30", "--size", "\(size)", songPath],
                    ttymeasure: ttymeasure, term: "xterm-direct", seconds: seconds,
                    report: "\(data)/bench-big-\(size)-\(attempt).json")
            else { continue }
            if let value = measured.cpu { cpu.append(value) }
            if let value = measured.bytesPerSecond { bytesPerSecond.append(value) }
        }
        var options = FrameOptions()
        options.size = .fixed(size)
        options.bigFont = source
        let floor = terminalCodes("xterm-direct").map {
            byteFloor(
                song: song, codes: $0, depth: .direct, columns: 100, rows: 30, fps: 30,
                window: 1..<Double(seconds), options: options)
        }
        let written = bytesPerSecond.isEmpty ? nil : median(bytesPerSecond)
        rows.append(writtenRow(name, measured: written, floor: floor))
        rows.append(
            (
                name + ": CPU", cpu.isEmpty ? "?" : "\(fixed(median(cpu), 2)) % of one core",
                "runs " + cpu.map { fixed($0, 2) }.joined(separator: ", "), ""
            ))
    }
    return rows
}
