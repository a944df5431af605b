extension PlayLoop {
    /// What the play loop asks the edge to do, carried out in the order given (DESIGN §8).
    ///
    /// Every answer ends with `.wait`, `.suspend`, `.exit` or, in a queue, `.nextSong`/`.previousSong`.
    /// Before it waits, the edge reports any
    /// signal or mpv message that is already pending; each answer's `.wait` replaces the one before.
    public enum Effect: Sendable, Equatable {
        /// Paint this frame.
        case paint(Frame)
        /// Send this command to mpv (nothing to do when there is no mpv).
        case send(AudioCommand)
        /// Write this line, without its line feed, to the clock log.
        case log(String)
        /// Wait for a key, a resize, a signal or a source until this monotonic time (nil: until one comes),
        /// then report `.tick`.
        case wait(until: Double?)
        /// Give the terminal back and stop the process; once it is continued, take the terminal back
        /// and report `.signal(.resumed)`.
        case suspend
        /// Write this user offset (milliseconds) into the lyric file, and report `.offsetSaved` with what
        /// came of it (DESIGN §13.2).
        case saveOffset(Int)
        /// Restore the terminal and end with this status.
        case exit(Int32)
        /// In a queue: this song is over (it ended, or n was pressed); go to the next (DESIGN §14.2).
        case nextSong
        /// In a queue: go back to the song before (N).
        case previousSong
    }
}
