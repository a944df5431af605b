/// One song as LRCLIB answers it (`/api/get` gives one, `/api/search` a list): its names, length and
/// lyrics (DESIGN §11).
public struct LRCLIBRecord: Sendable, Equatable {
    /// LRCLIB's id of the record.
    public var id: Int
    /// The title.
    public var trackName: String
    /// The artist.
    public var artistName: String
    /// The album, when the record has one.
    public var albumName: String?
    /// The length in seconds, when the record has one.
    public var duration: Double?
    /// Whether LRCLIB marks the song instrumental: no lyrics to sing, and not a fault.
    public var instrumental: Bool
    /// Lyrics without times, when there are some.
    public var plainLyrics: String?
    /// Lyrics as LRC, when there are some.
    public var syncedLyrics: String?

    /// Creates a record.
    public init(
        id: Int, trackName: String, artistName: String, albumName: String? = nil, duration: Double? = nil,
        instrumental: Bool = false, plainLyrics: String? = nil, syncedLyrics: String? = nil
    ) {
        self.id = id
        self.trackName = trackName
        self.artistName = artistName
        self.albumName = albumName
        self.duration = duration
        self.instrumental = instrumental
        self.plainLyrics = plainLyrics
        self.syncedLyrics = syncedLyrics
    }

    /// Whether the record has timed lyrics.
    public var isSynced: Bool { !(syncedLyrics ?? "").trimmingSpaces().isEmpty }

    /// Whether the record has untimed lyrics.
    public var hasPlainLyrics: Bool { !(plainLyrics ?? "").trimmingSpaces().isEmpty }

    /// Why an answer's body is not what LRCLIB sends: lower case, for `karaoke: …`.
    public struct Malformed: Error, Equatable, Sendable {
        /// What was wrong.
        public var reason: String
    }

    /// The record `/api/get` answered: one JSON object.
    public static func parseGet(_ body: [UInt8]) throws(Malformed) -> LRCLIBRecord {
        let value = try JSONValue.parse(body) { Malformed(reason: "malformed JSON (\($0))") }
        return try record(value)
    }

    /// The records `/api/search` answered: a JSON array of objects, in LRCLIB's order.
    public static func parseSearch(_ body: [UInt8]) throws(Malformed) -> [LRCLIBRecord] {
        let value = try JSONValue.parse(body) { Malformed(reason: "malformed JSON (\($0))") }
        guard case .array(let items) = value else { throw Malformed(reason: "expected a JSON array of songs") }
        var records: [LRCLIBRecord] = []
        for item in items { records.append(try record(item)) }
        return records
    }

    /// One record from its JSON object; `id`, `trackName` and `artistName` are required, the rest may be
    /// missing or null.
    static func record(_ value: JSONValue) throws(Malformed) -> LRCLIBRecord {
        guard case .object = value else { throw Malformed(reason: "expected a JSON object for a song") }
        guard let id = value["id"]?.integer else { throw Malformed(reason: "a song without a whole-number 'id'") }
        guard let track = value["trackName"]?.string, let artist = value["artistName"]?.string else {
            throw Malformed(reason: "song \(id) without 'trackName' or 'artistName'")
        }
        let duration = value["duration"]?.number.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        var instrumental = false
        if case .bool(let flag)? = value["instrumental"] { instrumental = flag }
        return LRCLIBRecord(
            id: id, trackName: track, artistName: artist, albumName: value["albumName"]?.string,
            duration: duration, instrumental: instrumental, plainLyrics: value["plainLyrics"]?.string,
            syncedLyrics: value["syncedLyrics"]?.string)
    }
}
