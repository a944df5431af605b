/// The rules of the cache of synthesised music (DESIGN §18.2): what a WAV is called, which temporary files are
/// stale and which WAVs go when the cache is over its size. Pure; the edge lists the folder and deletes.
public enum MusicCachePolicy {
    /// The most bytes the cache keeps by default: about three hours of music in two renderings each.
    public static let defaultLimit = 2_000_000_000
    /// How long a temporary file may go unwritten before it is taken for the leftover of a synthesis that was
    /// interrupted: a running synthesis writes many times a second.
    public static let staleAfter = 60.0
    /// What the names of temporary files contain, after the final name they will have.
    public static let temporaryMarker = ".partial-"

    /// A file in the cache's folder.
    public struct Entry: Sendable, Equatable {
        /// The file's name in the folder.
        public var name: String
        /// Its size in bytes.
        public var size: Int
        /// When it was last written or used, in seconds since the epoch.
        public var modified: Double

        /// An entry as listed.
        public init(name: String, size: Int, modified: Double) {
            self.name = name
            self.size = size
            self.modified = modified
        }
    }

    /// The key of one rendering by FluidSynth: the MIDI file's content, the SoundFont (its path, size and
    /// modification time, so an updated SoundFont renders afresh), the melody channel turned down, and the
    /// synthesis `version` (anything else that changes the sound), as 16 hex digits.
    public static func key(
        midi: [UInt8], soundfont: String, soundfontSize: Int, soundfontModified: Int, melodyChannel: Int?,
        version: Int
    ) -> String {
        key(
            midi: midi, synthesiser: "\(soundfont)\u{0}\(soundfontSize)\u{0}\(soundfontModified)",
            melodyChannel: melodyChannel, version: version)
    }

    /// The key of one rendering by any synthesiser: the MIDI file's content, `synthesiser` (what makes the
    /// sound; the SoundFont's identity for FluidSynth, as above, with NUL between its fields, so no name without
    /// one can be mistaken for it), the melody channel and the `version`, as 16 hex digits.
    public static func key(midi: [UInt8], synthesiser: String, melodyChannel: Int?, version: Int) -> String {
        let settings = "\u{0}\(synthesiser)\u{0}\(melodyChannel.map(String.init) ?? "-")\u{0}\(version)"
        return StableHash.hexadecimal(StableHash.fnv1a(bytes: midi + Array(settings.utf8)))
    }

    /// The whole song's file for `key`.
    public static func wholeName(_ key: String) -> String { key + ".wav" }

    /// The file of the song with the melody turned down, for `key`.
    public static func accompanimentName(_ key: String) -> String { key + "-accompaniment.wav" }

    /// Whether `entry` is a temporary file left by an interrupted synthesis at `now`: one not written for
    /// `staleAfter` seconds.
    public static func isStaleTemporary(_ entry: Entry, now: Double) -> Bool {
        isTemporary(entry.name) && now - entry.modified > staleAfter
    }

    /// Whether `name` is a temporary file's: it holds `temporaryMarker`.
    public static func isTemporary(_ name: String) -> Bool {
        let bytes = Array(name.utf8), marker = Array(temporaryMarker.utf8)
        guard bytes.count >= marker.count else { return false }
        return (0...(bytes.count - marker.count)).contains { bytes[$0..<($0 + marker.count)].elementsEqual(marker) }
    }

    /// The WAVs to remove, oldest first, so that the WAVs in `entries` fit in `limit` bytes; the files named in
    /// `keeping` (the song playing) stay even when they alone are over the limit. Temporary files count
    /// towards the size but are never chosen: they are being written.
    public static func removals(_ entries: [Entry], limit: Int, keeping: Set<String>) -> [String] {
        var total = entries.reduce(0) { $0 + $1.size }
        guard total > limit else { return [] }
        let candidates = entries.filter {
            $0.name.hasSuffix(".wav") && !isTemporary($0.name) && !keeping.contains($0.name)
        }
        // Oldest first; among equals by name, so the choice never depends on the folder's order.
        let oldestFirst = candidates.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
        var removed: [String] = []
        for entry in oldestFirst where total > limit {
            removed.append(entry.name)
            total -= entry.size
        }
        return removed
    }
}
