/// MPRIS players' names on the bus, and which one `karaoke follow` follows (DESIGN §12.2).
public enum MPRISBusName {
    /// What every MPRIS player's bus name starts with.
    public static let prefix = "org.mpris.MediaPlayer2."

    /// The player's part of an MPRIS bus name (`org.mpris.MediaPlayer2.vlc.instance42` → `vlc.instance42`);
    /// nil for a name that is not an MPRIS player's.
    public static func playerName(of busName: String) -> String? {
        guard busName.hasPrefix(prefix), busName.utf8.count > prefix.utf8.count else { return nil }
        return String(busName.dropFirst(prefix.count))
    }

    /// Whether `busName` is the player `wanted` names: the same name, or it followed by `.instance…` (the
    /// suffix players add to tell several running copies apart).
    public static func matches(_ busName: String, wanted: String) -> Bool {
        guard let name = playerName(of: busName) else { return false }
        return name == wanted || name.hasPrefix(wanted + ".instance")
    }

    /// One player on the bus, as the choice sees it.
    public struct Candidate: Sendable, Equatable {
        /// Its bus name, `org.mpris.MediaPlayer2.…`.
        public var busName: String
        /// Whether its `PlaybackStatus` is `Playing`.
        public var isPlaying: Bool

        /// A candidate.
        public init(busName: String, isPlaying: Bool) {
            self.busName = busName
            self.isPlaying = isPlaying
        }
    }

    /// The bus name to follow among `candidates` (in the order given): of those `wanted` names (all when
    /// nil), the first that plays, else the first; nil when none fits.
    public static func choose(among candidates: [Candidate], wanted: String?) -> String? {
        let fitting = candidates.filter { candidate in
            guard playerName(of: candidate.busName) != nil else { return false }
            return wanted.map { matches(candidate.busName, wanted: $0) } ?? true
        }
        return (fitting.first(where: \.isPlaying) ?? fitting.first)?.busName
    }

    /// Whether to leave the followed player for `other`: only when `other` is one `wanted` names (any
    /// when nil), plays, and the followed one does not. A paused player keeps karaoke until another plays,
    /// and a playing one keeps it whatever the others do.
    public static func prefers(_ other: Candidate, over followed: Candidate, wanted: String?) -> Bool {
        guard other.busName != followed.busName, playerName(of: other.busName) != nil else { return false }
        if let wanted, !matches(other.busName, wanted: wanted) { return false }
        return other.isPlaying && !followed.isPlaying
    }
}
