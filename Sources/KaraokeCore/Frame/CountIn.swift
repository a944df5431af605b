/// The count-in before a line that follows a silence: three dots that fill in, one a second, during the
/// last three seconds before the line, on the row above it (DESIGN §14.3).
///
/// Pure: it says, for a moment of the song, which line is counted in and how far each dot has filled.
struct CountIn: Equatable {
    /// How long before the line the dots show, in milliseconds.
    static let lead = 3000
    /// The silence that earns a count-in: a line whose previous line stopped sweeping longer ago than
    /// this (milliseconds) before it starts. The first line always has one.
    static let minimumGap = 5000
    /// The dots, with a space between them so each reads as one beat.
    static let text = "● ● ●"
    /// How many dots there are.
    static let dotCount = 3

    /// The line the dots count in.
    var line: Int
    /// Each dot's fill, 0…1, in the order they fill.
    var fills: [Double]

    /// The count-in at `fileTime` (milliseconds of file time), with `current` the current line (nil
    /// before the first), or nil when there is none: no next line, no silence long enough, or not yet
    /// within `lead` of the next line (the moment exactly `lead` before it, when every dot would be empty,
    /// is still before the count-in).
    ///
    /// Dot k fills during second k of the three; under reduce motion it lights whole as its second
    /// begins, so the beat still shows without anything sweeping.
    static func at(_ fileTime: Double, in song: Song, current: Int?, reduceMotion: Bool) -> CountIn? {
        let next = (current ?? -1) + 1
        guard next < song.lines.count else { return nil }
        let start = song.lines[next].start
        let remaining = Double(start) - fileTime
        guard remaining > 0, remaining < Double(lead) else { return nil }
        if let current, start - sungEnd(of: song.lines[current], cap: song.sweepCap) <= minimumGap {
            return nil
        }
        let elapsed = Double(lead) - remaining
        let beat = Double(lead / dotCount)
        let fills = (0..<dotCount).map { k -> Double in
            let into = elapsed - Double(k) * beat
            if reduceMotion { return into >= 0 ? 1 : 0 }
            return min(1, max(0, into / beat))
        }
        return CountIn(line: next, fills: fills)
    }

    /// Where `line` stops sweeping, in file time: its end, or sooner under the sweep cap (DESIGN §2.5,
    /// §2.6), so an instrumental break after a line counts as silence even though the line lasts to the
    /// next stamp.
    static func sungEnd(of line: LyricLine, cap: Int) -> Int {
        let capped = line.start + min(line.end - line.start, cap)
        guard let last = line.segments.last else { return capped }
        return min(line.end, last.end, last.start + min(last.end - last.start, cap))
    }
}
