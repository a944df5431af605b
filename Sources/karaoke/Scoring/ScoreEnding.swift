import KaraokeCore

/// What happens when a scored song stops (DESIGN §15.5): `--score-out` is written, and when the song ran to its
/// end, the score card is shown.
struct ScoreEnding {
    /// `--score-out FILE`; nil writes nothing.
    let output: String?
    /// The summaries written so far: a queue's file holds every scored song of the evening.
    private(set) var summaries: [ScoreSummary] = []
    /// Whether the file holds an array (a queue) rather than one summary.
    let isQueue: Bool
    /// Why the file could not be written, once; printed after the terminal is given back.
    private(set) var problem: String?

    /// An ending that writes to `output`, one summary or (in a queue) an array of them.
    init(output: String?, isQueue: Bool) {
        self.output = output
        self.isQueue = isQueue
    }

    /// Ends the scoring of `session`'s song, read from `file`: stops its microphones, judges what is left when the
    /// song ran to its end, writes the summary, and shows the card then. Returns how the card ended, or nil when no
    /// card was shown (nothing scored, or the song was left early).
    mutating func finish(
        _ session: inout PlaySession, file: String, singer: String?, options: FrameOptions
    ) -> CardScreen.Ending<ScoreCard.Answer>? {
        session.microphones?.stop()
        guard let scoring = session.loop.scoring else { return nil }
        let finished = session.loop.reachedEnd
        var summary = ScoreSummary(
            metadata: session.loop.state.song.metadata, file: file, difficulty: scoring.difficulty,
            singers: scoring.keepers.map(ScoreSummary.Singer.init), pitchFramesPerSecond: scoring.readingsPerSecond ?? 0
        )
        summary.finished = finished
        write(summary)
        guard finished else { return nil }
        let entries = scoring.keepers.map { keeper in
            ScoreCard.Entry(
                keeper.progress, name: scoring.keepers.count == 1 ? singer : nil,
                grades: keeper.lineResults.map(\.grade))
        }
        return CardScreen.show(
            ScoreCard(title: session.loop.composer.title, entries: entries), on: session.screen,
            waiter: session.waiter, options: options)
    }

    /// Writes `summary` (with those before it, in a queue) to the output file, replacing what it held.
    private mutating func write(_ summary: ScoreSummary) {
        guard let output else { return }
        summaries.append(summary)
        let text = isQueue ? ScoreSummary.jsonText(of: summaries) : summary.jsonText
        if case .failure(let failure) = TextFile.save(text, to: output, replacing: true), problem == nil {
            problem = failure.message
        }
    }
}
