/// The score in the status bar while scoring (DESIGN §15.4).
extension StatusBar {
    /// How long a line's grade stays in the status bar after the line is judged, in milliseconds.
    public static let gradeDuration = 2500.0

    /// One singer's part of the score text, in that singer's colour.
    public struct ScoreSegment: Sendable, Equatable {
        /// `♪ 4,210`, followed by the last line's grade for a while after it was judged.
        public var text: String
        /// The singer's ink in a duet, the lyric foreground for one singer.
        public var color: RGB
    }

    /// The score text of one singer at file time `fileTime` (ms): `♪ 4,210`, and `♪ 4,210 great` for
    /// `gradeDuration` after a line is judged.
    public static func scoreText(of progress: SingerProgress, at fileTime: Double) -> String {
        var text = "♪ " + grouped(progress.points.total)
        if let last = progress.lastLine, fileTime >= last.judgedAt, fileTime < last.judgedAt + gradeDuration {
            text += " " + last.grade.rawValue
        }
        return text
    }

    /// `n` with a comma between groups of three digits: `4,210`, `10,000`, `-1,200`.
    public static func grouped(_ n: Int) -> String {
        let digits = Array(String(n.magnitude))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return n < 0 ? "-" + text : text
    }
}
