/// Where `play --start` may start a song (DESIGN §1: past the end is a usage error).
public enum PlayStart {
    /// Why playback cannot start `start` seconds into `song` read from `file`, or nil when it can: at or past
    /// the song's end the player (which keeps the start within the song) would only flash its end and exit.
    /// A song without a length (lyrics still being looked up, plain lyrics) is not judged.
    public static func problem(start: Double, song: Song, file: String) -> String? {
        let end = Double(song.duration) / 1000
        guard start > 0, end > 0, start >= end else { return nil }
        return "--start \(ValueRule.written(start)) is past the end of \(ControlCharacters.strip(file)) "
            + "(\(StatusBar.clock(end)))"
    }
}
