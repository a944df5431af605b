/// `follow --print lines|waybar`: the player's reports move the clock as under `follow`'s screen (DESIGN §12
/// item 4, §28).
extension StatusLinePrinter {
    /// What following needs to remember between reports: the last report and the track whose lyrics are
    /// shown or looked up.
    public struct Followed: Sendable, Equatable {
        /// The player's last report; nil before the first and while it is gone.
        public var report: PlayerReport?
        /// The track whose lyrics are shown or looked up.
        public var track: FollowedTrack?

        /// Nothing followed yet.
        public init() {}
    }

    /// Takes the connection's `message`, received at `now`, into `followed`; returns the track whose lyrics
    /// to look up (a new track), else nil.
    ///
    /// A new track shows no lyrics until `receive(lyrics:for:)`; a player that is gone or stopped shows nothing.
    public mutating func receive(
        _ message: FollowMessage, following followed: inout Followed, at now: Double
    ) -> FollowedTrack? {
        switch message {
        case .notice:
            return nil
        case .gone:
            followed = Followed()
            show(nil)
            set(.stopped, at: now)
            return nil
        case .report(let new, let at):
            let previous = followed.report
            followed.report = new
            let changed: Bool
            switch (followed.track, new.track) {
            case (nil, nil): changed = false
            case (let old?, let new?): changed = !FollowLoop.sameLyrics(old, new)
            default: changed = true
            }
            followed.track = new.track
            if changed { show(nil) }
            let trackChanged = changed || previous?.track?.id != new.track?.id
            let playing = new.playback == .playing
            setRate(new.rate, at: at)
            if let position = new.position {
                // While it plays on, a report corrects the clock smoothly; a new track, a pause or a start
                // takes the player's position exactly (as FollowLoop does).
                if playing && previous?.playback == .playing && !trackChanged {
                    correct(to: position, at: at)
                } else {
                    move(to: position, at: at)
                }
            }
            let playback: Playback = playing ? .playing : new.playback == .paused ? .paused : .stopped
            set(new.track == nil ? .stopped : playback, at: at)
            return changed ? new.track : nil
        }
    }

    /// Shows `content`, the lyrics found for `wanted`, when that is still the followed track.
    public mutating func receive(lyrics content: LyricsContent, for wanted: FollowedTrack, following followed: Followed)
    {
        guard let track = followed.track, FollowLoop.sameLyrics(track, wanted) else { return }
        show(content)
    }
}
