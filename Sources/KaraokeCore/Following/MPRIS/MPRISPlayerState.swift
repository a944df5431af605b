/// What karaoke knows of the MPRIS player it follows, built from its properties and signals (DESIGN §12.2).
public struct MPRISPlayerState: Sendable, Equatable {
    /// How long, at most, between two reads of `Position` while the player plays: MPRIS never announces
    /// the position moving, so it is asked, at most twice a second, and the follow loop extrapolates.
    public static let positionInterval = 0.5

    /// The name for the status bar: the player's `Identity`, else its bus name's last part.
    public var name: String
    /// Playing, paused or stopped (`PlaybackStatus`).
    public var playback: FollowedPlayback = .stopped
    /// The track (`Metadata`), nil when the player has none.
    public var track: FollowedTrack?
    /// `mpris:trackid` as given, which `SetPosition` needs; nil when the player gave none, or one that is
    /// not an object path.
    public var trackObjectPath: String?
    /// `Rate`, seconds of track per second.
    public var rate: Double = 1
    /// The position last read, nil until one is.
    public var position: PositionReading?
    /// When `Position` was last asked for (answered or not), so a player that does not answer is not
    /// asked again at once.
    public var positionAskedAt: Double?

    /// A player of which only the name is known so far.
    public init(name: String) {
        self.name = name
    }

    /// Takes in the `org.mpris.MediaPlayer2.Player` properties of a `GetAll` or a `PropertiesChanged`,
    /// read at monotonic time `now`; a property missing from `properties` stays as it was.
    public mutating func apply(_ properties: [String: MPRISValue], at now: Double) {
        if let status = properties["PlaybackStatus"]?.text, let playback = FollowedPlayback(mprisStatus: status) {
            self.playback = playback
        }
        if let metadata = properties["Metadata"]?.entries {
            track = MPRISMetadata.track(from: metadata)
            trackObjectPath = metadata["mpris:trackid"]?.text.flatMap {
                $0 == MPRISMetadata.noTrackID || !MPRISMetadata.isObjectPath($0) ? nil : $0
            }
        }
        // MPRIS forbids a rate of 0 (a player pauses instead); anything not positive is ignored.
        if let rate = properties["Rate"]?.number, rate > 0 {
            self.rate = rate
        }
        if let microseconds = properties["Position"]?.number {
            readPosition(microseconds: microseconds, at: now)
        }
    }

    /// Records a `Position` (or `Seeked`) value in microseconds, read at monotonic time `at`.
    public mutating func readPosition(microseconds: Double, at: Double) {
        position = PositionReading(seconds: max(0, microseconds / 1_000_000), at: at)
        positionAskedAt = at
    }

    /// When to ask for `Position` next: `positionInterval` after the last ask while playing (at once if
    /// never asked); nil while paused or stopped, when the position does not move and the connection
    /// sleeps until the player says something.
    public func nextPositionRead() -> Double? {
        guard playback == .playing else { return nil }
        return (positionAskedAt ?? -.infinity) + MPRISPlayerState.positionInterval
    }

    /// The position at monotonic time `now`, extrapolated from the last read while playing.
    public func estimatedPosition(at now: Double) -> Double? {
        guard let position else { return nil }
        guard playback == .playing else { return position.seconds }
        return max(0, position.seconds + (now - position.at) * rate)
    }

    /// The whole state as a message for the follow loop; `at` is when the position was read (`now` when
    /// it never was).
    public func report(now: Double) -> FollowMessage {
        .report(
            PlayerReport(
                player: name, track: track, playback: playback, position: position?.seconds, rate: rate),
            at: position?.at ?? now)
    }

    /// The method call that carries out `command`, or why it cannot be carried out.
    ///
    /// `seek(to:)` is `SetPosition` on the current track's id; without an id it becomes a relative `Seek`
    /// from the estimated position.
    public func call(for command: PlayerCommand, at now: Double) -> Result<MPRISCall, MPRISCall.Refusal> {
        switch command {
        case .playPause: return .success(.playPause)
        case .next: return .success(.next)
        case .previous: return .success(.previous)
        case .jump(let seconds): return .success(.seek(microseconds: MPRISPlayerState.microseconds(seconds)))
        case .seek(let seconds):
            if let trackObjectPath {
                return .success(
                    .setPosition(track: trackObjectPath, microseconds: MPRISPlayerState.microseconds(max(0, seconds))))
            }
            guard let current = estimatedPosition(at: now) else { return .failure(.noPosition) }
            return .success(.seek(microseconds: MPRISPlayerState.microseconds(seconds - current)))
        }
    }

    /// Seconds as whole microseconds, within Int64.
    static func microseconds(_ seconds: Double) -> Int64 {
        let value = (seconds * 1_000_000).rounded()
        guard value.isFinite else { return 0 }
        return Int64(max(-9e18, min(9e18, value)))
    }
}

extension MPRISPlayerState {
    /// A position read from the player: seconds into the track at monotonic time `at`.
    public struct PositionReading: Sendable, Equatable {
        /// Seconds into the track.
        public var seconds: Double
        /// The monotonic time the player was at `seconds`.
        public var at: Double
    }
}

/// One call on the `org.mpris.MediaPlayer2.Player` interface (DESIGN §12.2).
public enum MPRISCall: Sendable, Equatable {
    /// `PlayPause`.
    case playPause
    /// `Next`.
    case next
    /// `Previous`.
    case previous
    /// `Seek(x Offset)`, relative, in microseconds.
    case seek(microseconds: Int64)
    /// `SetPosition(o TrackId, x Position)`, absolute, in microseconds.
    case setPosition(track: String, microseconds: Int64)

    /// Why a command has no call.
    public enum Refusal: Error, Sendable, Equatable {
        /// An absolute seek without a track id nor a known position to seek from.
        case noPosition
    }

    /// The method's name.
    public var method: String {
        switch self {
        case .playPause: "PlayPause"
        case .next: "Next"
        case .previous: "Previous"
        case .seek: "Seek"
        case .setPosition: "SetPosition"
        }
    }
}

extension FollowedPlayback {
    /// Reads MPRIS `PlaybackStatus`: `Playing`, `Paused` or `Stopped`; nil for anything else.
    public init?(mprisStatus: String) {
        switch mprisStatus {
        case "Playing": self = .playing
        case "Paused": self = .paused
        case "Stopped": self = .stopped
        default: return nil
        }
    }
}
