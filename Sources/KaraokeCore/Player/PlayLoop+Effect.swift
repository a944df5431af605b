extension PlayLoop {
    /// What the play loop asks the edge to do, carried out in the order given (DESIGN §8).
    ///
    /// Every answer ends with `.wait`, `.suspend`, `.exit` or, in a queue, `.nextSong`/`.previousSong`.
    /// Before it waits, the edge reports any
    /// signal or mpv message that is already pending; each answer's `.wait` replaces the one before.
    ///
    /// The screen's effects (`.paint`, `.wait`, `.suspend`, `.exit`) go in `.screen` (`ProgramEffect`).
    public enum Effect: Sendable, Equatable, ProgramEffect {
        /// Paint, wait, suspend or exit: the driver carries these out.
        case screen(ScreenEffect)
        /// Send this command to mpv (nothing to do when there is no mpv).
        case send(AudioCommand)
        /// Write this line, without its line feed, to the clock log.
        case log(String)
        /// Write this user offset (milliseconds) into the lyric file, and report `.offsetSaved` with what
        /// came of it (DESIGN §13.2).
        case saveOffset(Int)
        /// In a queue: this song is over (it ended, or n was pressed); go to the next (DESIGN §14.2).
        case nextSong
        /// In a queue: go back to the song before (N).
        case previousSong
        /// Turn the monitor on or off (`e`), and report `.notice` with what came of it (DESIGN §24).
        case toggleMonitor

        /// The screen's part of the effect; nil for mpv's commands, the clock log, the save, the
        /// monitor and the queue's.
        public var screenEffect: ScreenEffect? {
            if case .screen(let effect) = self { effect } else { nil }
        }
    }
}
