/// What `--print lines|waybar|json` writes, and when (DESIGN §28): the current line of a song on a clock,
/// as a value with no I/O.
///
/// The edge tells it the lyrics, the player's state and the position; `output(at:)` answers what to write
/// now (nil when nothing a reader sees has changed since the last output) and `nextWake(after:)` the
/// monotonic time at which something will change by itself (the current line's end or the next line's start),
/// so the edge sleeps until then and no longer, and never wakes at a frame rate.
///
/// A line is current from its start to its end (the ends `play` draws with, DESIGN §2.5); between a line's
/// end and the next start nothing is sung, and `lines` writes an empty line. Each line that becomes current
/// is written, even when its text is the last line's again (a chorus sung twice is two changes). Texts lose
/// their control characters: a status bar must never be handed an escape sequence.
public struct StatusLinePrinter: Sendable, Equatable {
    /// Whether the player plays.
    public enum Playback: String, Sendable, Equatable {
        /// The clock runs (or waits for the audio's first position).
        case playing
        /// The clock stands; the line stays.
        case paused
        /// Nothing plays: nothing is sung.
        case stopped
    }

    /// What a status bar shows at one moment.
    public struct Shown: Sendable, Equatable {
        /// The index of the current line in the song's lines; nil when nothing is sung.
        public var line: Int?
        /// The current line's text, or "".
        public var text: String
        /// The next line's text (the one after the current, or the coming one in a gap), or "".
        public var next: String
        /// The player's state.
        public var playback: Playback
        /// Whether there are timed lyrics to show.
        public var hasLyrics: Bool
        /// The playback position, in seconds.
        public var time: Double

        /// waybar's class: `nolyrics` without lyrics, else `playing`, or `paused` (paused or stopped).
        public var waybarClass: String {
            !hasLyrics ? "nolyrics" : playback == .playing ? "playing" : "paused"
        }
    }

    /// The form written.
    public let form: StatusLineForm
    /// The timed lyrics; nil when there are none (yet): a message, plain text, a lookup under way.
    public internal(set) var song: Song?
    /// The user's offset in milliseconds (`--offset`), as the screen applies it.
    public let userOffset: Int
    /// The player's state.
    public private(set) var playback: Playback
    /// Whether the run ends with the song (`play`): its end is then a wake, and `isOver(at:)` says when.
    public let endsWithSong: Bool
    /// Whether the clock waits for, or follows, audio (mpv): the audio's end is then the song's.
    public internal(set) var followsAudio = false
    /// Whether the audio reached its end.
    public internal(set) var audioEnded = false
    /// Where the song is, between the player's reports (or on its own without a player).
    var clock: PlaybackClock
    /// What was written last; nil before the first output.
    private var written: Shown?
    /// Counts the lyrics shown, so a line of a new song is a change even at the same index.
    private var generation = 0
    /// The `generation` of what was written last.
    private var writtenGeneration = -1

    /// A printer of `form` at monotonic `now`, with no lyrics and the clock standing at `position`; `playback`
    /// says whether it runs.
    public init(
        form: StatusLineForm, userOffset: Int = 0, playback: Playback = .stopped, position: Double = 0,
        endsWithSong: Bool = false, now: Double
    ) {
        self.form = form
        self.userOffset = userOffset
        self.playback = playback
        self.endsWithSong = endsWithSong
        clock = PlaybackClock(position: position, at: now)
        if playback != .playing { clock.pause(at: now) }
    }

    /// Shows `song`'s lines from now on; nil: no lyrics.
    public mutating func show(_ song: Song?) {
        self.song = song
        generation += 1
    }

    /// Shows what `content` has to sing: its lines when timed, else nothing.
    public mutating func show(_ content: LyricsContent) {
        if case .timed(let song) = content { show(song) } else { show(nil) }
    }

    /// The position at `now`, in seconds of playback, never below 0.
    public func position(at now: Double) -> Double { max(0, clock.position(at: now)) }

    /// Jumps to `position` at `now` (a seek, a new track, a start).
    public mutating func move(to position: Double, at now: Double) {
        clock.move(to: position, at: now)
    }

    /// Takes a report that the player is at `position` at `now` while it plays on: a small disagreement is
    /// absorbed, a large one followed at once (`PlaybackClock.synchronize`).
    public mutating func correct(to position: Double, at now: Double) {
        clock.synchronize(toAudio: position, at: now)
    }

    /// The player plays, is paused or stopped from `now` on; the clock runs only while it plays.
    public mutating func set(_ playback: Playback, at now: Double) {
        self.playback = playback
        if playback == .playing && !waitsForAudio { clock.resume(at: now) } else { clock.pause(at: now) }
    }

    /// The clock runs at `rate` seconds a second from `now` on (the player's speed).
    public mutating func setRate(_ rate: Double, at now: Double) {
        clock.setRate(rate, at: now)
    }

    /// What a status bar shows at `now`.
    public func shown(at now: Double) -> Shown {
        let time = position(at: now)
        var shown = Shown(line: nil, text: "", next: "", playback: playback, hasLyrics: song != nil, time: time)
        guard let song, playback != .stopped else { return shown }
        let fileTime = LyricClock.fileTime(playback: time, song: song, userOffset: userOffset)
        let current = LyricClock.currentLine(in: song, at: fileTime)
        var following = (current ?? -1) + 1
        if let current, fileTime < Double(song.lines[current].end) {
            shown.line = current
            shown.text = ControlCharacters.strip(song.lines[current].text)
        } else if current == nil {
            following = 0
        }
        if following < song.lines.count { shown.next = ControlCharacters.strip(song.lines[following].text) }
        return shown
    }

    /// What to write at `now`, its line feed included; nil when the reader would see nothing new.
    ///
    /// `lines` writes when the current line changes (a pause changes nothing it shows); `waybar` when the
    /// line, the next line or the class changes; `json` when the line or the pause changes.
    public mutating func output(at now: Double) -> String? {
        let shown = shown(at: now)
        if let written, writtenGeneration == generation || (written.line == nil && shown.line == nil) {
            let same =
                switch form {
                case .lines: written.line == shown.line
                case .waybar:
                    written.line == shown.line && written.text == shown.text && written.next == shown.next
                        && written.waybarClass == shown.waybarClass
                case .json: written.line == shown.line && (written.playback == .playing) == (shown.playback == .playing)
                }
            if same { return nil }
        }
        written = shown
        writtenGeneration = generation
        return StatusLinePrinter.text(of: shown, in: form)
    }

    /// `shown` as `form` writes it, its line feed included.
    public static func text(of shown: Shown, in form: StatusLineForm) -> String {
        switch form {
        case .lines:
            return shown.text + "\n"
        case .waybar:
            var output = "{\"text\":"
            appendJSONString(shown.text, to: &output)
            output += ",\"tooltip\":"
            appendJSONString(shown.next, to: &output)
            return output + ",\"class\":\"\(shown.waybarClass)\"}\n"
        case .json:
            var output = "{\"time\":" + jsonNumber((shown.time * 1000).rounded() / 1000)
            output += ",\"line\":" + (shown.line.map(String.init) ?? "null") + ",\"text\":"
            appendJSONString(shown.text, to: &output)
            output += ",\"next\":"
            appendJSONString(shown.next, to: &output)
            return output + ",\"paused\":\(shown.playback != .playing),\"lyrics\":\(shown.hasLyrics)}\n"
        }
    }

    /// The monotonic time, after `now`, at which something is to be written or the run ends by itself: the
    /// current line's end or the next line's start, or the song's end; nil while the clock stands still or
    /// nothing more will change.
    public func nextWake(after now: Double) -> Double? {
        guard playback == .playing else { return nil }
        let here = position(at: now)
        var targets: [Double] = []
        if let song {
            let fileTime = LyricClock.fileTime(playback: here, song: song, userOffset: userOffset)
            let current = LyricClock.currentLine(in: song, at: fileTime)
            let following = (current ?? -1) + 1
            var next = Double.infinity
            if let current, Double(song.lines[current].end) > fileTime { next = Double(song.lines[current].end) }
            if following < song.lines.count { next = min(next, Double(song.lines[following].start)) }
            // A microsecond past the exact position, so the wake never lands a rounding error short.
            if next.isFinite { targets.append((next - Double(song.metadata.offset + userOffset)) / 1000 + 0.000_001) }
        }
        // The end a microsecond past too, so a line ending with the song is written before the run ends.
        if let end = songEnd { targets.append(end + 0.000_001) }
        // A target the clock has reached but for a rounding error (its position at the wake can fall a few
        // ulps short) is behind, not ahead: its microsecond past the change has done its work.
        return targets.filter { $0 > here + 0.000_000_5 }.compactMap { clock.time(reaching: $0, after: now) }
            .filter { $0 > now }.min()
    }

    /// Where the run ends by itself, in seconds of playback: the song's end, when it ends with the song and
    /// no audio decides; nil otherwise.
    public var songEnd: Double? {
        guard endsWithSong, !followsAudio else { return nil }
        return Double(song?.duration ?? 0) / 1000
    }

    /// Whether the run is over at `now`: the audio reached its end, or, without audio, the song did.
    public func isOver(at now: Double) -> Bool {
        if audioEnded { return true }
        guard let songEnd else { return false }
        return position(at: now) >= songEnd
    }

    /// Whether the clock stands until the audio's first position.
    var waitsForAudio = false
}
