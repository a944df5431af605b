extension PlayLoop {
    /// What happened, as the edge tells the play loop (DESIGN §8).
    public enum Event: Sendable, Equatable {
        /// The wait ended with nothing else to report: its deadline passed, or a signal cut it short.
        case tick
        /// A key was read.
        case key(Key)
        /// mpv reported `event`, which arrived at monotonic time `at`.
        case audio(AudioEvent, at: Double)
        /// mpv is gone (it quit, died, or its socket closed); the text says why.
        case audioGone(String)
        /// A signal was caught, or the process was continued after a suspension.
        case signal(TerminalSignal)
        /// The terminal is now `columns` × `rows` cells.
        case resize(columns: Int, rows: Int)
        /// What came of a `.saveOffset` effect.
        case offsetSaved(OffsetSave)
        /// Singer `singer`'s microphone heard these readings since the last report (DESIGN §15.5).
        case heard([MicReading], singer: Int)
        /// Singer `singer`'s microphone stopped; the text says why.
        case microphoneLost(singer: Int, reason: String)
        /// Lyrics arrived while the song plays (LRCLIB's answer to `--fetch`): show `content` from now on
        /// under `fallbackTitle`, with `notice` in the status bar (DESIGN §11).
        case lyricsArrived(LyricsContent, fallbackTitle: String, notice: String?)
    }
}
