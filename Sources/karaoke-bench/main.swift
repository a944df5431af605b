import CNcursesw
import Foundation
import KaraokeCore

// `make bench`: one table of what karaoke costs, measured in a release build.
//   karaoke-bench [--karaoke PATH] [--tools DIR] [--data DIR] [--song FILE] [--quick]
// Parses a generated file of each format (our own words, about 6 MB each, written to DIR), composes frames,
// then measures whole processes: `karaoke check` beside ffmpeg's LRC reader on the same LRC, and
// `karaoke play --no-audio` in a pseudo-terminal at 100×30 for 10 s at 30 fps (../shared/tools/ttymeasure.py)
// in xterm-256color and xterm-direct, beside the byte floor of the same frames (see `byteFloor`).

/// The words the generated songs are made of.
let words = ["la", "sing", "go", "we", "all", "home", "sun", "rain", "oh", "yes", "lantern", "river"]

/// The three words of line `index`, different from line to line.
func lineWords(_ index: Int) -> (String, String, String) {
    (words[index % 12], words[(index / 12) % 12], words[(index / 144) % 12])
}

/// `value` as at least `width` digits.
func padded(_ value: Int, _ width: Int) -> String {
    let digits = String(value)
    return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// `ms` as `h:mm:ss` and a fraction of `fractionDigits` (2: centiseconds, 3: milliseconds) after `separator`.
func clock(_ ms: Int, hourWidth: Int = 2, separator: String = ".", fractionDigits: Int = 3) -> String {
    let fraction = fractionDigits == 3 ? padded(ms % 1000, 3) : padded(ms % 1000 / 10, 2)
    return "\(padded(ms / 3_600_000, hourWidth)):\(padded(ms / 60_000 % 60, 2)):\(padded(ms / 1000 % 60, 2))"
        + separator + fraction
}

/// `ms` as LRC's `mm:ss.xx` (minutes past 99 keep growing).
func lrcStamp(_ ms: Int) -> String {
    "\(padded(ms / 60_000, 2)):\(padded(ms / 1000 % 60, 2)).\(padded(ms % 1000 / 10, 2))"
}

/// A generated file: what it is and its bytes.
struct Sample {
    /// The row's name: "LRC", "ELRC", ….
    var name: String
    /// The parser it goes to.
    var format: LyricFormat
    /// The file's bytes.
    var bytes: [UInt8]
    /// The file's extension.
    var fileExtension: String
}

/// Builds a file of at least `size` bytes: `header`, then `line(i)` for i = 0, 1, … , then `footer`.
func build(size: Int, header: String, footer: String = "", _ line: (Int) -> String) -> [UInt8] {
    var bytes = Array(header.utf8)
    bytes.reserveCapacity(size + 4096)
    var index = 0
    while bytes.count < size {
        bytes += line(index).utf8
        index += 1
    }
    return bytes + Array(footer.utf8)
}

/// One generated file per format, each about `size` bytes; half the lines of each are word-timed where
/// the format has word times.
func samples(size: Int) -> [Sample] {
    let lrc = build(size: size, header: "[ti:Benchmark]\n[ar:Generated]\n") { index in
        let (a, b, c) = lineWords(index)
        return "[\(lrcStamp(index * 2000))]\(a) \(b) \(c) \(a)\n"
    }
    let elrc = build(size: size, header: "[ti:Benchmark]\n[ar:Generated]\n") { index in
        let (a, b, c) = lineWords(index), t = index * 2000
        return "[\(lrcStamp(t))]<\(lrcStamp(t))>\(a) <\(lrcStamp(t + 500))>\(b) <\(lrcStamp(t + 1000))>\(c)"
            + "<\(lrcStamp(t + 1800))>\n"
    }
    let srt = build(size: size, header: "") { index in
        let (a, b, c) = lineWords(index), t = index * 2000
        return "\(index + 1)\n\(clock(t, separator: ",")) --> \(clock(t + 1800, separator: ","))\n"
            + (index % 2 == 0 ? "\(a) \(b) \(c)\n\n" : "<i>\(a) \(b)</i>\n\(c) \(a)\n\n")
    }
    let vtt = build(size: size, header: "WEBVTT\n\n") { index in
        let (a, b, c) = lineWords(index), t = index * 2000
        let text = index % 2 == 0 ? "\(a) \(b) \(c)" : "\(a) <\(clock(t + 600))>\(b) <\(clock(t + 1200))>\(c)"
        return "\(clock(t)) --> \(clock(t + 1800))\n\(text)\n\n"
    }
    let ass = build(
        size: size,
        header: "[Script Info]\nTitle: Benchmark\nScriptType: v4.00+\n\n[Events]\n"
            + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
    ) { index in
        let (a, b, c) = lineWords(index), t = index * 2000
        let text = index % 2 == 0 ? "\(a) \(b) \(c)" : "{\\k60}\(a) {\\k60}\(b) {\\k60}\(c)"
        return
            "Dialogue: 0,\(clock(t, hourWidth: 1, fractionDigits: 2)),\(clock(t + 1800, hourWidth: 1, fractionDigits: 2)),"
            + "Default,,0,0,0,,\(text)\n"
    }
    let ultrastar = build(
        size: size, header: "#TITLE:Benchmark\n#ARTIST:Generated\n#BPM:300\n#GAP:0\n",
        footer: "E\n"
    ) { index in
        // 300 BPM is 20 beats a second (UltraStar beats are quarter notes: 4 × BPM a minute).
        let (a, b, c) = lineWords(index), beat = index * 40
        return ": \(beat) 8 5 \(a)\n: \(beat + 10) 8 7  \(b)\n* \(beat + 20) 10 9  \(c)\n- \(beat + 36)\n"
    }
    let ttml = build(
        size: size,
        header: "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:ttm=\"http://www.w3.org/ns/ttml#metadata\">"
            + "<head><metadata><ttm:title>Benchmark</ttm:title></metadata></head><body><div>\n",
        footer: "</div></body></tt>\n"
    ) { index in
        let (a, b, c) = lineWords(index), t = index * 2000
        if index % 2 == 0 {
            return "<p begin=\"\(clock(t))\" end=\"\(clock(t + 1800))\">\(a) \(b) \(c)</p>\n"
        }
        return
            "<p begin=\"\(clock(t))\" end=\"\(clock(t + 1800))\"><span begin=\"\(clock(t))\" end=\"\(clock(t + 600))\">"
            + "\(a) </span><span begin=\"\(clock(t + 600))\" end=\"\(clock(t + 1200))\">\(b) </span>"
            + "<span begin=\"\(clock(t + 1200))\" end=\"\(clock(t + 1800))\">\(c)</span></p>\n"
    }
    return [
        Sample(name: "LRC", format: .lrc, bytes: lrc, fileExtension: "lrc"),
        Sample(name: "ELRC", format: .lrc, bytes: elrc, fileExtension: "lrc"),
        Sample(name: "SRT", format: .srt, bytes: srt, fileExtension: "srt"),
        Sample(name: "WebVTT", format: .webvtt, bytes: vtt, fileExtension: "vtt"),
        Sample(name: "ASS", format: .ass, bytes: ass, fileExtension: "ass"),
        Sample(name: "UltraStar", format: .ultrastar, bytes: ultrastar, fileExtension: "txt"),
        Sample(name: "TTML", format: .ttml, bytes: ttml, fileExtension: "ttml"),
    ]
}

/// The seconds each of `runs` runs of `body` took.
func measure(_ runs: Int, _ body: () -> Void) -> [Double] {
    let clock = ContinuousClock()
    return (0..<runs).map { _ in
        let elapsed = clock.measure(body)
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}

/// The CPU time, in seconds, that this thread spent in `body`.
func threadSeconds(_ body: () -> Void) -> Double {
    func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
    let start = now()
    body()
    return now() - start
}

/// The middle value.
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

/// `value` with `digits` decimals.
func fixed(_ value: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", value) }

/// A count with a k/M suffix.
func count(_ value: Double) -> String {
    value >= 1e6 ? fixed(value / 1e6, 2) + " M" : value >= 1e3 ? fixed(value / 1e3, 1) + " k" : fixed(value, 0)
}

/// The rows of the table: what, the figure, the rate, and the budget it is held to (not asserted).
var table: [(String, String, String, String)] = []

/// The row of bytes a second a play wrote beside the floor of the same frames (the fewest bytes that paint them).
func writtenRow(_ name: String, measured: Double?, floor: Double?) -> (String, String, String, String) {
    (
        name + ": written", measured.map { "\(fixed($0 / 1000, 2)) KB/s" } ?? "?",
        floor.map { floor in
            "floor \(fixed(floor / 1000, 2)) KB/s" + (measured.map { ", \(fixed($0 / floor, 2))× the floor" } ?? "")
        } ?? "floor ?",
        "within 1.15× the floor"
    )
}

/// Runs `arguments` through /usr/bin/env with stdin, stdout and stderr on /dev/null; its wall time and exit status.
@discardableResult
func run(_ arguments: [String]) -> (seconds: Double, status: Int32)? {
    // posix_spawn and waitpid, not Foundation's Process: its waitUntilExit polls a run loop and added
    // about 50 ms to every run, which read as start-up.
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    for fd: Int32 in [0, 1, 2] {
        posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0)
    }
    let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ) == 0 else { return nil }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let elapsed = ContinuousClock.now - start
    let exitStatus: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
    return (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, exitStatus)
}

/// The median wall time of `runs` runs of a command, nil when it cannot run or fails.
func processTime(_ arguments: [String], runs: Int) -> Double? {
    var times: [Double] = []
    for _ in 0..<runs {
        guard let result = run(arguments), result.status == 0 || arguments.contains("check") else { return nil }
        times.append(result.seconds)
    }
    return median(times)
}

// MARK: - Arguments

var options: [String: String] = [:]
var quick = false
/// Only the driver's CPU and wake-up rows (to compare two builds quickly).
var wakeUpsOnly = false
/// Only the MIDI synthesis rows.
var synthesisOnly = false
/// Only the CD+G rows: a picture drawn in cells, and `play` of a CD+G song.
var cdgCellsOnly = false
/// Only the big lyrics' rows (DESIGN §23.6).
var bigLyricsOnly = false
/// Only the monitor's latency rows, beside module-loopback's.
var monitorOnly = false
/// Only the parsing rows (TTML beside libxml2's own parse among them).
var parseOnly = false
/// Only the animated SVG's row (DESIGN §27).
var svgOnly = false
do {
    var rest = CommandLine.arguments.dropFirst()[...]
    while let argument = rest.popFirst() {
        if argument == "--quick" { quick = true; continue }
        if argument == "--wake-ups-only" { wakeUpsOnly = true; continue }
        if argument == "--synthesis-only" { synthesisOnly = true; continue }
        if argument == "--cdg-cells-only" { cdgCellsOnly = true; continue }
        if argument == "--big-lyrics-only" { bigLyricsOnly = true; continue }
        if argument == "--monitor-only" { monitorOnly = true; continue }
        if argument == "--parse-only" { parseOnly = true; continue }
        if argument == "--svg-only" { svgOnly = true; continue }
        if argument == "--wake-floor" { wakeFloorLoop() }
        guard argument.hasPrefix("--"), let value = rest.popFirst() else {
            print(
                "usage: karaoke-bench [--karaoke PATH] [--tools DIR] [--data DIR] [--song FILE] [--quick] [--wake-ups-only]"
                    + " [--synthesis-only] [--cdg-cells-only] [--big-lyrics-only] [--monitor-only] [--parse-only]"
                    + " [--svg-only]"
            )
            exit(2)
        }
        options[String(argument.dropFirst(2))] = value
    }
}
let karaoke = options["karaoke"] ?? ".build/release/karaoke"
let tools = options["tools"] ?? ProcessInfo.processInfo.environment["KARAOKE_TOOLS"] ?? "../shared/tools"
let data = options["data"] ?? "bench-data"
let song = options["song"] ?? "lyrics/lantern-river.lrc"
let size = quick ? 1 << 20 : 6 << 20
let runs = quick ? 3 : 7
try? FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)

if wakeUpsOnly {
    printTable(wakeUpRows(karaoke: karaoke, song: song, seconds: quick ? 5 : 20))
    exit(0)
}
if monitorOnly {
    let ttymeasure = "\(tools)/ttymeasure.py"
    printTable(monitorRows(karaoke: karaoke, ttymeasure: ttymeasure, data: data))
    exit(0)
}
if synthesisOnly {
    printTable(synthesisRows(data: data, runs: quick ? 1 : 3))
    exit(0)
}
if cdgCellsOnly {
    printTable(
        pictureCellRows(calls: quick ? 200 : 1000)
            + cdgPlayRows(
                karaoke: karaoke, ttymeasure: "\(tools)/ttymeasure.py", data: data, seconds: quick ? 3 : 10,
                runs: quick ? 1 : 3))
    exit(0)
}
if svgOnly {
    printTable(svgRows(songPath: song, runs: quick ? 1 : 3))
    exit(0)
}
if bigLyricsOnly {
    printTable(
        bigLyricsRows(
            karaoke: karaoke, ttymeasure: "\(tools)/ttymeasure.py", data: data, songPath: song,
            seconds: quick ? 3 : 10, runs: quick ? 1 : 3))
    exit(0)
}

// MARK: - Parsing

var lrcPath = ""
for sample in samples(size: size) {
    let path = "\(data)/bench-\(sample.name.lowercased()).\(sample.fileExtension)"
    _ = FileManager.default.createFile(atPath: path, contents: Data(sample.bytes))
    if sample.name == "LRC" { lrcPath = path }
    var lines = 0
    let times = measure(runs) {
        lines = LyricsReader.parse(sample.bytes, file: path, format: sample.format).song?.lines.count ?? 0
    }
    let seconds = median(times), megabytes = Double(sample.bytes.count) / 1e6
    // TTML is read through libxml2: its own parse of the same bytes, with nothing done per event, is the floor,
    // and its streaming reader the budget's yardstick. The three are timed in turns, round by round, in the
    // thread's CPU time, and compared round by round: a burst of load on this shared machine then slows all
    // three alike instead of one of them (wall-clock medians of separate blocks swung by ±40 %).
    var floor: Double?, stream: Double?, floorRatio = 0.0, streamRatio = 0.0
    if sample.format == .ttml {
        var ttmlTimes: [Double] = [], floorTimes: [Double] = [], streamTimes: [Double] = []
        for _ in 0..<(runs * 2 + 1) {
            ttmlTimes.append(threadSeconds { _ = LyricsReader.parse(sample.bytes, file: path, format: sample.format) })
            floorTimes.append(threadSeconds { _ = libxml2Parse(sample.bytes) })
            streamTimes.append(threadSeconds { _ = libxml2StreamParse(sample.bytes) })
        }
        floor = median(floorTimes)
        stream = median(streamTimes)
        floorRatio = median(zip(ttmlTimes, floorTimes).map { $0 / $1 })
        streamRatio = median(zip(ttmlTimes, streamTimes).map { $0 / $1 })
    }
    table.append(
        (
            "parse \(sample.name), \(fixed(megabytes)) MB, \(lines) lines", "\(fixed(seconds * 1e3)) ms",
            "\(fixed(megabytes / seconds)) MB/s, \(count(Double(lines) / seconds)) lines/s",
            sample.name == "LRC"
                ? "faster than ffmpeg (below)"
                : floor != nil ? "at most 1.5× libxml2's streaming reader (below)" : ""
        ))
    if let floor, let stream {
        table.append(
            (
                "  libxml2 alone (SAX2, no work per event; CPU)", "\(fixed(floor * 1e3)) ms",
                "\(fixed(megabytes / floor)) MB/s", "TTML at \(fixed(floorRatio))× of it, round by round"
            ))
        table.append(
            (
                "  libxml2 streaming reader (xmllint --stream; CPU)", "\(fixed(stream * 1e3)) ms",
                "\(fixed(megabytes / stream)) MB/s", "TTML at \(fixed(streamRatio))× of it, round by round"
            ))
    }
}

if parseOnly {
    printTable(table)
    exit(0)
}

// Whole processes on the same LRC: each minus its start-up on a one-line file, so the rate is the reading.
let tinyPath = "\(data)/bench-tiny.lrc"
_ = FileManager.default.createFile(atPath: tinyPath, contents: Data("[00:01.00]la\n".utf8))
let lrcBytes = Double((try? FileManager.default.attributesOfItem(atPath: lrcPath)[.size] as? Int) ?? 0) / 1e6
@MainActor func processRow(_ name: String, _ command: (String) -> [String]) -> (String, String, String, String) {
    guard let big = processTime(command(lrcPath), runs: 5), let tiny = processTime(command(tinyPath), runs: 5) else {
        return (name, "not run", "", "")
    }
    return (
        name, "\(fixed(big * 1e3)) ms (start-up \(fixed(tiny * 1e3)) ms)",
        "\(fixed(lrcBytes / max(big - tiny, 1e-6))) MB/s without start-up", ""
    )
}
table.append(processRow("karaoke check, same LRC, whole process") { [karaoke, "check", $0] })
table.append(
    processRow("ffmpeg -i, same LRC, whole process") {
        ["ffmpeg", "-v", "error", "-i", $0, "-map", "0", "-c", "copy", "-f", "null", "-"]
    })

// MARK: - Frames

let frameSong = LyricsReader.parse(Array(samples(size: 1 << 20)[1].bytes), file: "bench.lrc", format: .lrc).song!
for (columns, rows) in [(80, 24), (200, 60)] {
    var composer = FrameComposer(
        song: frameSong, fallbackTitle: "bench", columns: columns, rows: rows,
        options: FrameOptions())
    let middle = Double(frameSong.lines[frameSong.lines.count / 2].start) / 1000
    _ = composer.frame(at: middle) // lays out the lines in view once, as the player's first frame does
    var checksum = 0, step = 0.0
    let times = measure(quick ? 500 : 3000) {
        step += 0.033
        checksum &+= composer.frame(at: middle + step.truncatingRemainder(dividingBy: 5)).rows.count
    }
    table.append(
        (
            "compose one \(columns)×\(rows) frame mid-song (\(checksum / times.count) rows)",
            "\(fixed(median(times) * 1e6, 2)) µs median, \(fixed(times.min()! * 1e6, 2)) min",
            "\(count(1 / median(times))) frames/s", columns == 200 ? "under 50 µs" : ""
        ))
}

table += svgRows(songPath: song, runs: quick ? 1 : 3)

// MARK: - Playing

/// The terminfo codes of terminal type `name` (its entry on this machine), nil when it is unknown.
func terminalCodes(_ name: String) -> TerminalCodes? {
    guard kk_setupterm(name) == 0 else { return nil }
    return TerminalCodes(string: { kk_tigetstr($0) }, flag: { kk_tigetflag($0) != 0 })
}

/// The byte floor of playing `song` on a `columns` × `rows` terminal with `codes` at `depth`, in bytes a
/// second over the frames whose time is in `window` (seconds from the start).
///
/// The floor is defined from the frames themselves: the frames `play --no-audio` composes at `fps` (the
/// song's time k / fps, the title on its clock of tenths of a second), each cell mapped to what the
/// terminal shows at the depth (its glyph and its colour number there), and for each frame only the cells
/// whose glyph or colour number changed since the frame before, each at the fewest bytes a cell can take
/// with the terminal's own terminfo strings: its glyph's UTF-8, a cursor move only when it does not follow
/// the cell written before it (the shortest of cup, hpa, cuf, cuf1, cub1, cr, or up to four unchanged cells
/// in between written again when they are drawn in the pen already on and that is shorter), a change of attributes only
/// when its weight or colour differs from the cell written before it (in this frame or the one before:
/// nothing is reset between frames), and, where a block of rows moved up or down as a whole (the lyrics
/// gliding to the next line), a scroll of that block instead of its cells when that is shorter. This is
/// what `ScreenWriter` writes, which is what `play` sends.
func byteFloor(
    song: Song, codes: TerminalCodes, depth: ColorDepth, columns: Int, rows: Int, fps: Int,
    window: Range<Double>, options: FrameOptions = FrameOptions()
) -> Double {
    var composer = FrameComposer(song: song, fallbackTitle: "", columns: columns, rows: rows, options: options)
    var writer = ScreenWriter(codes: codes, depth: depth, columns: columns, rows: rows)
    var bytes = 0
    var k = 0
    while Double(k) / Double(fps) < window.upperBound {
        let time = Double(k) / Double(fps)
        let titleTime = (time * 10).rounded(.down) / 10 // as the player's title clock
        let written = writer.write(composer.frame(at: time, titleTime: titleTime)).count
        if window.contains(time) { bytes += written }
        k += 1
    }
    return Double(bytes) / (window.upperBound - window.lowerBound)
}

/// The same frames' floor counted cell by cell, without `ScreenWriter`, as a check on it: every cell whose
/// glyph or colour number changed costs its UTF-8, plus the shortest cursor move when it does not follow the
/// cell written before it and the shortest change of attributes when its weight or colour differs from that
/// cell's. No scrolling and no rewriting of unchanged cells, so `play` may come in below it when the lyrics
/// glide (a scroll moves a whole block for a few bytes).
func cellByCellFloor(
    song: Song, codes: TerminalCodes, depth: ColorDepth, columns: Int, rows: Int, fps: Int,
    window: Range<Double>
) -> Double {
    var composer = FrameComposer(song: song, fallbackTitle: "", columns: columns, rows: rows, options: FrameOptions())
    var shown: [ScreenRow?] = Array(repeating: nil, count: rows)
    var cursor: (row: Int, column: Int)?
    var pen: TerminalCodes.Pen?
    var bytes = 0
    var k = 0
    while Double(k) / Double(fps) < window.upperBound {
        let time = Double(k) / Double(fps)
        let frame = composer.frame(at: time, titleTime: (time * 10).rounded(.down) / 10)
        var written = 0
        for (y, frameRow) in frame.rows.enumerated() where y < rows {
            let row = ScreenRow(frameRow, width: columns, depth: depth)
            for x in row.changedColumns(from: shown[y]) {
                var out: [UInt8] = []
                if cursor == nil || cursor! != (y, x) { codes.move(from: cursor, to: (y, x), into: &out) }
                switch row.columns[x] {
                case .glyph(let glyph, let width, let style):
                    let next = TerminalCodes.Pen(
                        weight: style.weight, color: depth == .none ? nil : style.colorNumber,
                        background: depth == .none ? nil : style.backgroundNumber)
                    codes.change(from: pen, to: next, into: &out)
                    pen = next
                    out += glyph.utf8
                    cursor = (y, x + width)
                case .empty, .continuation:
                    out.append(0x20)
                    cursor = (y, x + 1)
                }
                written += out.count
            }
            shown[y] = row
        }
        if window.contains(time) { bytes += written }
        k += 1
    }
    return Double(bytes) / (window.upperBound - window.lowerBound)
}

let ttymeasure = "\(tools)/ttymeasure.py"
let seconds = quick ? 3 : 10
let playRuns = quick ? 1 : 3
let playSong: Song? = FileManager.default.contents(atPath: song).flatMap { data in
    let bytes = [UInt8](data)
    return LyricsReader.parse(bytes, file: song, format: LyricFormat.detect(utf8: bytes, fileName: song)).song
}
for (term, depth) in [("xterm-256color", ColorDepth.indexed256), ("xterm-direct", ColorDepth.direct)] {
    let name = "play --no-audio, 100×30, 30 fps, \(term)"
    guard FileManager.default.fileExists(atPath: ttymeasure) else {
        table.append(("play in a pseudo-terminal", "not run", "needs python3 and \(ttymeasure)", ""))
        break
    }
    // Several runs: the median of each figure.
    var bytesPerSecond: [Double] = [], cpu: [Double] = [], peak: [Double] = []
    for attempt in 0..<playRuns {
        guard
            let measured = measureInPTY(
                [karaoke, "play", "--no-audio", "--fps", "30", "--size", "1", song], ttymeasure: ttymeasure, term: term,
                seconds: seconds, report: "\(data)/bench-play-\(term)-\(attempt).json")
        else { continue }
        if let value = measured.cpu { cpu.append(value) }
        if let value = measured.bytesPerSecond { bytesPerSecond.append(value) }
        if let value = measured.peakMB { peak.append(value) }
    }
    let floor = playSong.flatMap { song in
        terminalCodes(term).map {
            byteFloor(
                song: song, codes: $0, depth: depth, columns: 100, rows: 30, fps: 30,
                window: 1..<Double(seconds))
        }
    }
    let cellFloor = playSong.flatMap { song in
        terminalCodes(term).map {
            cellByCellFloor(
                song: song, codes: $0, depth: depth, columns: 100, rows: 30, fps: 30,
                window: 1..<Double(seconds))
        }
    }
    let measured = bytesPerSecond.isEmpty ? nil : median(bytesPerSecond)
    table.append(writtenRow(name, measured: measured, floor: floor))
    table.append(
        (
            name + ": cell-by-cell floor", cellFloor.map { "\(fixed($0 / 1000, 2)) KB/s" } ?? "?",
            "changed cells alone, no scrolling"
                + (measured.flatMap { written in cellFloor.map { ", written is \(fixed(written / $0, 2))×" } } ?? ""),
            ""
        ))
    // ttymeasure reads the steady window's CPU in clock ticks: 10 ms in 9 s is steps of 0.11 %.
    table.append(
        (
            name + ": CPU", cpu.isEmpty ? "?" : "\(fixed(median(cpu), 2)) % of one core",
            "runs " + cpu.map { fixed($0, 2) }.joined(separator: ", ") + " (in clock ticks)", "0.5 % of one core"
        ))
    table.append(
        (
            name + ": peak memory", peak.isEmpty ? "?" : "\(fixed(median(peak))) MB",
            "largest process", "15 MB"
        ))
}

table += scoringRows(karaoke: karaoke, ttymeasure: ttymeasure, data: data, seconds: seconds)
table += monitorRows(karaoke: karaoke, ttymeasure: ttymeasure, data: data)
table += synthesisRows(data: data, runs: quick ? 1 : 3)
table += pictureCellRows(calls: quick ? 200 : 1000)
table += cdgPlayRows(karaoke: karaoke, ttymeasure: ttymeasure, data: data, seconds: seconds, runs: playRuns)
table += bigLyricsRows(
    karaoke: karaoke, ttymeasure: ttymeasure, data: data, songPath: song, seconds: seconds, runs: playRuns)

// MARK: - The table

table += wakeUpRows(karaoke: karaoke, song: song, seconds: quick ? 5 : 20)
printTable(table)

/// Prints `rows` as a Markdown table under the bench's header.
func printTable(_ rows: [(String, String, String, String)]) {
    let header = ("measure", "figure", "rate", "budget (not asserted)")
    let widths = [0, 1, 2, 3].map { column in
        ([header] + rows).map { row in [row.0, row.1, row.2, row.3][column].count }.max()!
    }
    func line(_ row: (String, String, String, String)) -> String {
        let cells = [row.0, row.1, row.2, row.3]
        return "| "
            + cells.indices.map { cells[$0] + String(repeating: " ", count: widths[$0] - cells[$0].count) }
            .joined(separator: " | ") + " |"
    }
    print(line(header))
    print("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|")
    for row in rows { print(line(row)) }
}

/// What ttymeasure saw of one run of a command in a pseudo-terminal, over its steady window.
struct PTYMeasurement {
    /// CPU in percent of one core.
    var cpu: Double?
    /// Bytes written a second.
    var bytesPerSecond: Double?
    /// The largest process's peak resident memory, in MB.
    var peakMB: Double?
}

/// Runs `command` through ttymeasure in a 100×30 pseudo-terminal of `term` for `seconds` (q ends it), its
/// steady window from `steadyFrom`, the report kept at `report`; nil when ttymeasure did not run or report.
func measureInPTY(
    _ command: [String], ttymeasure: String, term: String, seconds: Int, steadyFrom: Int = 1, report: String
) -> PTYMeasurement? {
    guard
        run(
            [
                "python3", ttymeasure, "--cols", "100", "--rows", "30", "--term", term, "--seconds", "\(seconds)",
                "--steady-from", "\(steadyFrom)", "--stop-keys", "q", "--out", report, "--",
            ] + command) != nil,
        let json = FileManager.default.contents(atPath: report),
        let object = try? JSONSerialization.jsonObject(with: json) as? [String: Any]
    else { return nil }
    let steady = (object["cpu"] as? [String: Any])?["steady_window"] as? [String: Any]
    let output = (object["output"] as? [String: Any])?["steady"] as? [String: Any]
    let memory = object["memory"] as? [String: Any]
    return PTYMeasurement(
        cpu: steady?["percent_of_one_core"] as? Double, bytesPerSecond: output?["bytes_per_s"] as? Double,
        peakMB: (memory?["peak_rss_kib_largest_process_hwm"] as? Int).map { Double($0) / 1024 })
}
