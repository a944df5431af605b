import Foundation
import Testing
@testable import KaraokeCore

/// What a parser promises beyond the invariants every song keeps.
struct SongPromises: OptionSet {
    let rawValue: Int
    /// Text trimmed of outer white space, and no empty word segment.
    static let trimmed = SongPromises(rawValue: 1)
    /// No run of two spaces inside the text (the subtitle, UltraStar and TTML readers collapse them).
    static let singleSpaced = SongPromises(rawValue: 2)
    /// Every line's end is stated by the file, not estimated (cue formats).
    static let statedEnds = SongPromises(rawValue: 4)
}

/// Checks what every parsed song keeps, whatever the input: at least one line, sorted starts, ends not
/// before starts, non-empty text without control characters, and word segments in order, inside their
/// line, not overlapping, concatenating exactly to its text; plus what `promises` adds.
func expectSongInvariants(
    _ song: Song, _ name: String = "", promises: SongPromises = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(!song.lines.isEmpty, "\(name)", sourceLocation: sourceLocation)
    for (index, line) in song.lines.enumerated() {
        let label = "\(name) line \(index): \(line.text.debugDescription)"
        if index > 0 { #expect(song.lines[index - 1].start <= line.start, "\(label)", sourceLocation: sourceLocation) }
        #expect(line.end >= line.start, "\(label)", sourceLocation: sourceLocation)
        #expect(!line.text.isEmpty, "\(label)", sourceLocation: sourceLocation)
        #expect(
            !line.text.unicodeScalars.contains { ControlCharacters.isForbidden($0.value) }, "\(label)",
            sourceLocation: sourceLocation)
        if promises.contains(.trimmed) {
            #expect(
                line.text == line.text.trimmingCharacters(in: .whitespacesAndNewlines), "\(label)",
                sourceLocation: sourceLocation)
            #expect(line.segments.allSatisfy { !$0.text.isEmpty }, "\(label)", sourceLocation: sourceLocation)
        }
        if promises.contains(.singleSpaced) {
            #expect(!line.text.contains("  "), "\(label)", sourceLocation: sourceLocation)
        }
        if promises.contains(.statedEnds) {
            #expect(!line.endIsEstimated, "\(label)", sourceLocation: sourceLocation)
        }
        guard line.isWordTimed else { continue }
        #expect(line.segments.map(\.text).joined() == line.text, "\(label)", sourceLocation: sourceLocation)
        for (k, segment) in line.segments.enumerated() {
            #expect(
                segment.start >= line.start && segment.end <= line.end && segment.end >= segment.start,
                "\(label) segment \(k)", sourceLocation: sourceLocation)
            if k > 0 {
                #expect(
                    line.segments[k - 1].end <= segment.start, "\(label) segment \(k)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

/// Parses `bytes` as `format` the way the program does, checking the invariants and the diagnostic cap.
@discardableResult
func parseHostile(_ bytes: [UInt8], as format: LyricFormat, sourceLocation: SourceLocation = #_sourceLocation)
    -> ParseResult
{
    let file = "hostile." + format.rawValue
    let result = LyricsReader.parse(bytes, file: file, format: format)
    if let song = result.song { expectSongInvariants(song, sourceLocation: sourceLocation) }
    #expect(result.diagnostics.count <= DiagnosticLog.limit + 2, sourceLocation: sourceLocation)
    return result
}
