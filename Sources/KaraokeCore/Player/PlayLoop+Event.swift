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
        case signal(Signal)
        /// The terminal is now `columns` × `rows` cells.
        case resize(columns: Int, rows: Int)
        /// What came of a `.saveOffset` effect.
        case offsetSaved(OffsetSave)
        /// Singer `singer`'s microphone heard these readings since the last report (DESIGN §15.5).
        case heard([MicReading], singer: Int)
        /// Singer `singer`'s microphone stopped; the text says why.
        case microphoneLost(singer: Int, reason: String)
    }

    /// The signals the player acts on, and the continuation after a suspension.
    public enum Signal: Sendable, Equatable {
        /// SIGHUP: the terminal went away.
        case hangup
        /// SIGINT: Ctrl-C.
        case interrupt
        /// SIGTERM: asked to end.
        case terminate
        /// SIGTSTP: Ctrl-Z.
        case suspend
        /// The process was continued (`fg`) after the loop's `.suspend` effect stopped it.
        case resumed

        /// The signal's number, for the exit status 128 + N of the signals that end the player; nil for
        /// the others. POSIX fixes these three numbers, so the core needs no system header for them.
        public var number: Int32? {
            switch self {
            case .hangup: 1
            case .interrupt: 2
            case .terminate: 15
            case .suspend, .resumed: nil
            }
        }
    }
}
