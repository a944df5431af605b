import Foundation
import Testing
@testable import KaraokeCore

/// Checks what every parsed song keeps, whatever the input: sorted starts, ends not before starts,
/// non-empty trimmed text, and word segments in order, inside their line, concatenating to its text.
func expectSongInvariants(_ song: Song, sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, line) in song.lines.enumerated() {
        if index > 0 { #expect(song.lines[index - 1].start <= line.start, sourceLocation: sourceLocation) }
        #expect(line.end >= line.start, "line \(index)", sourceLocation: sourceLocation)
        #expect(!line.text.isEmpty, "line \(index)", sourceLocation: sourceLocation)
        guard line.isWordTimed else { continue }
        #expect(line.segments.map(\.text).joined() == line.text, "line \(index)", sourceLocation: sourceLocation)
        for (k, segment) in line.segments.enumerated() {
            #expect(segment.start >= line.start && segment.end <= line.end && segment.end >= segment.start,
                    "line \(index) segment \(k)", sourceLocation: sourceLocation)
            if k > 0 {
                #expect(line.segments[k - 1].end <= segment.start, "line \(index) segment \(k)",
                        sourceLocation: sourceLocation)
            }
        }
    }
}

/// Parses `bytes` as `format` the way the program does, checking the invariants and the diagnostic cap.
@discardableResult
func parseHostile(_ bytes: [UInt8], as format: LyricFormat, sourceLocation: SourceLocation = #_sourceLocation)
    -> ParseResult {
    let file = "hostile." + format.rawValue
    let result = LyricsReader.parse(bytes, file: file, format: format)
    if let song = result.song { expectSongInvariants(song, sourceLocation: sourceLocation) }
    #expect(result.diagnostics.count <= DiagnosticLog.limit + 2, sourceLocation: sourceLocation)
    return result
}
