/// The track a followed player is playing, as it describes it (DESIGN §12).
public struct FollowedTrack: Sendable, Equatable {
    /// What tells this track from the next: MPRIS `mpris:trackid`, MPD's song id.
    public var id: String
    /// `xesam:title`, MPD `Title`.
    public var title: String?
    /// `xesam:artist` (joined with ", "), MPD `Artist`.
    public var artist: String?
    /// `xesam:album`, MPD `Album`.
    public var album: String?
    /// The track's length in seconds, when the player knows it.
    public var length: Double?
    /// The local file played, when it is one (a `file://` URL decoded, MPD's music folder + file).
    public var file: String?
    /// Where the track comes from when it is not a local file (a stream's URL), or the MPD file relative to
    /// a music folder karaoke does not know.
    public var location: String?
    /// Whether `location` is that MPD file: a file on MPD's side that karaoke cannot find without the folder,
    /// so neither the lyrics beside it nor its tags can be read (the screen says how to give the folder).
    public var isInUnknownMusicFolder = false

    /// A track with only its identity; the rest is filled in as the player says.
    public init(
        id: String, title: String? = nil, artist: String? = nil, album: String? = nil, length: Double? = nil,
        file: String? = nil, location: String? = nil
    ) {
        self.id = id
        self.title = title
        self.artist = artist
        self.album = album
        self.length = length
        self.file = file
        self.location = location
    }
}

/// Whether the followed player plays (DESIGN §12).
public enum FollowedPlayback: String, Sendable, Equatable {
    case playing, paused, stopped
}

/// What a followed player is doing, as one report (DESIGN §12): every change the player announces, and
/// every position polled, gives a whole new report.
public struct PlayerReport: Sendable, Equatable {
    /// The player's name for the status bar: `mpv`, `vlc`, `mpd`.
    public var player: String
    /// The track, nil when the player has none (stopped, empty playlist).
    public var track: FollowedTrack?
    /// Playing, paused or stopped.
    public var playback: FollowedPlayback
    /// The position in seconds when the report was made; nil when the player did not say.
    public var position: Double?
    /// Seconds of track per second of time (MPRIS `Rate`; 1 for MPD).
    public var rate: Double

    /// A report with every field given.
    public init(
        player: String, track: FollowedTrack?, playback: FollowedPlayback, position: Double?, rate: Double = 1
    ) {
        self.player = player
        self.track = track
        self.playback = playback
        self.position = position
        self.rate = rate
    }
}

/// What karaoke's keys ask of the followed player (DESIGN §12).
public enum PlayerCommand: Sendable, Equatable {
    /// Play when paused, pause when playing (MPRIS `PlayPause`, MPD `pause`).
    case playPause
    /// Move by this many seconds, forwards or back (MPRIS `Seek`, MPD `seekcur +N`/`-N`). Not a second case
    /// named `seek`: Swift cannot tell two cases apart by their labels alone in a pattern.
    case jump(by: Double)
    /// Go to this position in seconds (MPRIS `SetPosition`, MPD `seekcur N`).
    case seek(to: Double)
    /// The next track.
    case next
    /// The previous track.
    case previous
}

/// What a connection to a followed player hands the follow loop (DESIGN §12).
public enum FollowMessage: Sendable, Equatable {
    /// The player's state, read at monotonic time `at` (the position belongs to that moment).
    case report(PlayerReport, at: Double)
    /// No player to follow (it quit, never came, the bus or socket is gone); the text says which, for
    /// the screen. The connection keeps looking and sends a report when one comes (back).
    case gone(String)
    /// Something to show for a moment in the status bar (a command the player refused).
    case notice(String)
}

/// Which player `karaoke follow` follows (`--player`, DESIGN §12).
public enum PlayerChoice: Sendable, Equatable {
    /// An MPRIS player that is playing, else MPD at `$MPD_HOST`/`$MPD_PORT` or localhost:6600.
    case automatic
    /// An MPRIS player: any (the one playing first), or the one named (with or without its
    /// `.instance…` suffix).
    case mpris(name: String?)
    /// MPD at `host` (a name, an address, or a Unix socket's path) and `port`; nil takes `$MPD_HOST` and
    /// `$MPD_PORT`, else localhost:6600.
    case mpd(host: String?, port: Int?)

    /// Reads `auto`, `mpris`, `mpris:NAME`, `mpd`, `mpd:HOST`, `mpd:HOST:PORT`; nil when it is none of them.
    public init?(parsing text: String) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        switch parts[0] {
        case "auto" where parts.count == 1:
            self = .automatic
        case "mpris":
            guard parts.count == 1 || !parts[1].isEmpty else { return nil }
            self = .mpris(name: parts.count == 2 ? parts[1] : nil)
        case "mpd":
            guard parts.count == 2 else {
                self = .mpd(host: nil, port: nil)
                return
            }
            let rest = parts[1]
            guard !rest.isEmpty else { return nil }
            // A socket path or a bare host; HOST:PORT when what follows the last colon is a port number.
            if !rest.hasPrefix("/"), let colon = rest.lastIndex(of: ":") {
                let host = String(rest[..<colon])
                guard let port = Int(rest[rest.index(after: colon)...]), (1...65535).contains(port), !host.isEmpty
                else { return nil }
                self = .mpd(host: host, port: port)
            } else {
                self = .mpd(host: rest, port: nil)
            }
        default:
            return nil
        }
    }
}

extension PlayerCommand {
    /// Reads one command line of `follow --print`'s standard input (DESIGN §12): `play-pause`, `next`,
    /// `previous`, `seek +S` / `seek -S` (relative) or `seek S` (absolute); nil when it is none of them.
    public init?(parsing line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
        switch (words.first, words.count) {
        case ("play-pause", 1): self = .playPause
        case ("next", 1): self = .next
        case ("previous", 1): self = .previous
        case ("seek", 2):
            let text = words[1]
            let relative = text.first == "+" || text.first == "-"
            let digits = relative ? text.dropFirst() : text[...]
            guard digits.first?.isASCII == true, digits.first?.isNumber == true, let magnitude = Double(digits),
                magnitude.isFinite, magnitude <= 360_000
            else { return nil }
            let seconds = text.first == "-" ? -magnitude : magnitude
            self = relative ? .jump(by: seconds) : .seek(to: seconds)
        default: return nil
        }
    }
}
