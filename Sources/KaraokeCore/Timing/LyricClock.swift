/// Converts playback time to the lyric file's clock and finds the line being sung.
///
/// File time = playback time + the file's `[offset:]` + the user's offset (DESIGN §2: effective time =
/// stamp − offset − user offset, so a positive offset makes every line start sooner).
public enum LyricClock {
    /// File time in milliseconds at `seconds` of playback.
    @inlinable
    public static func fileTime(playback seconds: Double, song: Song, userOffset: Int) -> Double {
        seconds * 1000 + Double(song.metadata.offset + userOffset)
    }

    /// The index of the last line that has started at `fileTime`, or nil before the first line.
    public static func currentLine(in song: Song, at fileTime: Double) -> Int? {
        var low = 0, high = song.lines.count // first line that has not started
        while low < high {
            let middle = (low + high) / 2
            if Double(song.lines[middle].start) <= fileTime { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? nil : low - 1
    }
}
