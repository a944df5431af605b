/// The score in the status row while scoring (DESIGN §15.4).
extension FrameComposer {
    /// One segment per singer at playback time `time`: in a duet each in its singer's ink, one singer in
    /// the lyric foreground. Empty when nobody is scored.
    func scoreSegments(of singers: [SingerProgress], at time: Double, userOffset: Int) -> [StatusBar.ScoreSegment] {
        guard !singers.isEmpty else { return [] }
        let fileTime = LyricClock.fileTime(playback: time, song: song, userOffset: userOffset)
        let duet = singers.count >= 2
        return singers.map { singer in
            StatusBar.ScoreSegment(
                text: StatusBar.scoreText(of: singer, at: fileTime),
                color: duet ? options.theme.ink(for: singer.part ?? .part(0)) : options.theme.foreground)
        }
    }

    /// Colours the cells of the score segments (joined by two spaces) shown from column `start` on.
    func colorScore(_ segments: [StatusBar.ScoreSegment], from start: Int, cells: inout [FrameCell]) {
        var column = start
        for segment in segments {
            let end = column + DisplayWidth.of(segment.text)
            for index in cells.indices where cells[index].column >= column && cells[index].column < end {
                cells[index].color = segment.color
            }
            column = end + 2
        }
    }
}

/// The end of a scored song (DESIGN §15.4).
extension FrameComposer {
    /// The card to show when a scored song ends: this song's title as the title row shows it, and each
    /// singer's final score, with their names and line grades when the caller has them (by singer).
    public func scoreCard(
        singers: [SingerProgress], names: [String?] = [], grades: [[LineGrade]] = []
    ) -> ScoreCard {
        ScoreCard(
            title: title,
            entries: singers.enumerated().map { index, singer in
                ScoreCard.Entry(
                    singer, name: index < names.count ? names[index] : nil,
                    grades: index < grades.count ? grades[index] : [])
            })
    }
}
