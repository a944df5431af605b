extension PlayLoop {
    /// What happened, as the edge tells the play loop (DESIGN §8).
    ///
    /// The screen's events (`.tick`, `.key`, `.signal`, `.resize`) come in `.screen` (`ProgramEvent`).
    public enum Event: Sendable, Equatable, ProgramEvent {
        /// The terminal or the process reported something: a tick, a key, a signal, a resize.
        case screen(ScreenEvent)
        /// mpv reported `event`, which arrived at monotonic time `at`.
        case audio(AudioEvent, at: Double)
        /// mpv is gone (it quit, died, or its socket closed); the text says why.
        case audioGone(String)
        /// What came of a `.saveOffset` effect.
        case offsetSaved(OffsetSave)
        /// Singer `singer`'s microphone heard these readings since the last report (DESIGN §15.5).
        case heard([MicReading], singer: Int)
        /// Singer `singer`'s microphone stopped; the text says why.
        case microphoneLost(singer: Int, reason: String)
        /// Lyrics arrived while the song plays (LRCLIB's answer to `--fetch`): show `content` from now on
        /// under `fallbackTitle`, with `notice` in the status bar (DESIGN §11).
        case lyricsArrived(LyricsContent, fallbackTitle: String, notice: String?)
        /// The edge has news for the status bar while the song plays (how far a MIDI song's music is
        /// synthesised, DESIGN §18.3): shown at once, for a notice's usual time.
        case notice(String)
    }
}
