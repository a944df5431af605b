import KaraokeCore

// `make bench`: times the core's two hot paths in a release build and prints the figures.
//   karaoke-bench            prints the figures
//   karaoke-bench --print    prints the generated LRC instead, for timing whole processes on it

/// A deterministic LRC of `lines` lines, word tags on every other line, about 31 bytes a line.
func generatedLRC(lines: Int) -> [UInt8] {
    let words = ["la", "sing", "go", "we", "all", "home", "sun", "rain", "oh", "yes"]
    var text = "[ti:Benchmark]\n[ar:Generated]\n"
    text.reserveCapacity(lines * 34)
    func stamp(_ ms: Int) -> String {
        let m = ms / 60_000, s = ms / 1000 % 60, c = ms % 1000 / 10
        return "\(m < 10 ? "0" : "")\(m):\(s < 10 ? "0" : "")\(s).\(c < 10 ? "0" : "")\(c)"
    }
    for index in 0..<lines {
        let start = index * 2500
        let a = words[index % 10], b = words[(index / 10) % 10], c = words[(index / 100) % 10]
        if index % 2 == 0 {
            text += "[\(stamp(start))]\(a) \(b) \(c)\n"
        } else {
            text += "[\(stamp(start))]<\(stamp(start))>\(a) <\(stamp(start + 700))>\(b)\n"
        }
    }
    return Array(text.utf8)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

func measure(_ runs: Int, _ body: () -> Void) -> [Double] {
    let clock = ContinuousClock()
    var times: [Double] = []
    for _ in 0..<runs {
        let elapsed = clock.measure(body)
        times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }
    return times
}

func format(_ seconds: Double, _ unit: String) -> String {
    let scaled = unit == "ms" ? seconds * 1e3 : seconds * 1e6
    return "\(Double(Int(scaled * 100)) / 100) \(unit)"
}

let arguments = CommandLine.arguments
let bytes = generatedLRC(lines: 100_000)
if arguments.contains("--print") {
    print(String(decoding: bytes, as: UTF8.self), terminator: "")
} else {
    var lineCount = 0
    let parseTimes = measure(15) {
        let result = LRCParser.parse(bytes, file: "bench.lrc")
        lineCount = result.song?.lines.count ?? 0
    }
    print("parse \(bytes.count) bytes, \(lineCount) lines: median \(format(median(parseTimes), "ms")), "
        + "min \(format(parseTimes.min()!, "ms"))")

    let song = LRCParser.parse(Array(
        "[ti:Frame bench]\n".utf8) + bytes, file: "bench.lrc").song!
    var composer = FrameComposer(song: song, fallbackTitle: "bench", columns: 200, rows: 60, options: FrameOptions())
    let middle = Double(song.lines[song.lines.count / 2].start) / 1000
    _ = composer.frame(at: middle) // lays out the lines in view once, as the player's first frame does
    var checksum = 0
    var step = 0.0
    let frameTimes = measure(2000) {
        step += 0.033
        let frame = composer.frame(at: middle + step.truncatingRemainder(dividingBy: 5))
        checksum &+= frame.rows.count
    }
    print("compose one 200×60 frame mid-song: median \(format(median(frameTimes), "µs")), "
        + "min \(format(frameTimes.min()!, "µs")) (\(checksum / 2000) rows)")
}
