import KaraokeCore

/// One fuzz input: bytes as a lyric file, through the parser, the composer and every encoding.
///
/// Any input must end in a song or in diagnostics, never in a crash or a hang (issue 2's bad input).
func exercise(_ bytes: [UInt8]) {
    guard case .success(let utf8) = SourceText.utf8(from: bytes) else { return }
    guard let song = LRCParser.parse(utf8, file: "fuzz.lrc").song else { return }
    for (columns, rows) in [(40, 12), (13, 5), (80, 24)] {
        var options = FrameOptions()
        options.reduceMotion = bytes.count % 2 == 0
        var composer = FrameComposer(song: song, fallbackTitle: "fuzz", columns: columns, rows: rows, options: options)
        for line in song.lines.prefix(4) {
            let start = Double(line.start - song.metadata.offset) / 1000
            for delta in [-0.1, 0.05, 0.3, 1.0] {
                let frame = composer.frame(at: max(0, start + delta), paused: delta < 0, showsHelp: delta > 0.9)
                _ = frame.jsonRendering()
                _ = frame.ansiRendering(depth: .indexed256)
                for row in frame.rows { _ = ScreenRow(row, width: columns, depth: .direct) }
            }
        }
    }
}

#if FUZZING
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    exercise(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
#endif
