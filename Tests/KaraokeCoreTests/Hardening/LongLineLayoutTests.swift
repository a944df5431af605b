import Testing
@testable import KaraokeCore

/// A line of megabytes is laid out only as far as a screen could show it.
@Suite("Laying out a huge line", .timeLimit(hardeningTimeLimit))
struct LongLineLayoutTests {
    /// A word-timed line of `words` words "la " (the last without its space), a word every 100 ms.
    static func wordTimedLine(words: Int) -> LyricLine {
        let segments = (0..<words).map { index in
            WordSegment(
                start: 1000 + index * 100, end: 1000 + index * 100 + 100, text: index == words - 1 ? "la" : "la ")
        }
        return LyricLine(start: 1000, end: 1000 + words * 100, text: segments.map(\.text).joined(), segments: segments)
    }

    @Test("a cut line keeps whole graphemes and segments that still concatenate to its text")
    func cutKeepsInvariants() {
        let line = Self.wordTimedLine(words: 20_000) // 59,999 bytes
        let capped = LineLayout.capped(line)
        #expect(capped.text.count == LineLayout.maximumGraphemes)
        #expect(capped.segments.map(\.text).joined() == capped.text)
        #expect(capped.segments.count == (LineLayout.maximumGraphemes + 2) / 3)
        #expect(line.text.hasPrefix(capped.text))
    }

    @Test("a line within the cap is left as it is", arguments: [0, 1, 100, LineLayout.maximumGraphemes / 3])
    func shortLinesUntouched(_ words: Int) {
        let line = words == 0 ? LyricLine(start: 0, end: 10, text: "é\u{301}x") : Self.wordTimedLine(words: words)
        #expect(LineLayout.capped(line) == line)
    }

    @Test("a cut inside a multi-byte grapheme does not split it")
    func graphemeBoundary() {
        let text = String(repeating: "e\u{301}", count: LineLayout.maximumGraphemes + 5)
        let line = LyricLine(start: 0, end: 10, text: text, segments: [WordSegment(start: 0, end: 10, text: text)])
        let capped = LineLayout.capped(line)
        #expect(capped.text.count == LineLayout.maximumGraphemes)
        #expect(capped.segments.map(\.text) == [capped.text])
    }

    /// Found by `karaoke render` on a 50 MB single-line LRC: 46 s and 14 GB before the cap.
    @Test("frames of a song whose one line has millions of graphemes", arguments: [false, true])
    func hugeLineFrames(_ wordTimed: Bool) throws {
        let line =
            wordTimed
            ? Self.wordTimedLine(words: 1_000_000)
            : LyricLine(start: 1000, end: 60_000, text: String(repeating: "la ", count: 1_000_000) + "la")
        let song = try #require(SongAssembly.assemble(metadata: SongMetadata(), timedLines: [line]))
        for (columns, rows) in [(80, 24), (1, 1), (2, 200), (300, 2)] {
            var composer = FrameComposer(
                song: song, fallbackTitle: "long", columns: columns, rows: rows, options: FrameOptions())
            for time in [0.5, 1.5, 30.0, 200_000.0] {
                let frame = composer.frame(at: time)
                #expect(frame.rows.count == rows)
                _ = frame.ansiRendering(depth: .direct)
            }
        }
    }
}
