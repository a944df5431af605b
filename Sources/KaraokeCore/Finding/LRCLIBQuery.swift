/// What `karaoke fetch` asks LRCLIB for: a song's artist and title, with its album and length when known
/// (DESIGN §11).
public struct LRCLIBQuery: Sendable, Equatable {
    /// The artist, as the user or the tags give it.
    public var artist: String
    /// The title.
    public var title: String
    /// The album, when known; LRCLIB uses it to tell versions apart.
    public var album: String?
    /// The audio's length in seconds, when known; LRCLIB matches it within 2 s.
    public var duration: Double?

    /// Creates a query.
    public init(artist: String, title: String, album: String? = nil, duration: Double? = nil) {
        self.artist = artist
        self.title = title
        self.album = album
        self.duration = duration
    }

    /// The query an audio file's tags make, with the file name `Artist - Title.ext` filling in a missing
    /// artist or title; nil when neither gives both.
    public init?(tags: AudioTags?, audioPath: String) {
        let fromName = LRCLIBQuery.namesFromFileName(audioPath)
        let artist = LRCLIBQuery.nonBlank(tags?.artist) ?? fromName?.artist
        let title = LRCLIBQuery.nonBlank(tags?.title) ?? fromName?.title
        guard let artist, let title else { return nil }
        self.init(artist: artist, title: title, album: LRCLIBQuery.nonBlank(tags?.album), duration: tags?.duration)
    }

    /// The artist and title a file named `Artist - Title.ext` carries (the first ` - ` splits them; the
    /// folder and the extension are dropped); nil for any other name.
    public static func namesFromFileName(_ path: String) -> (artist: String, title: String)? {
        var name = Substring(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        if let dot = name.lastIndex(of: "."), dot != name.startIndex { name = name[..<dot] }
        guard let dash = name.firstRange(matching: " - ") else { return nil }
        let artist = String(name[..<dash.lowerBound]).trimmingSpaces()
        let title = String(name[dash.upperBound...]).trimmingSpaces()
        guard !artist.isEmpty, !title.isEmpty else { return nil }
        return (artist, title)
    }

    /// `text` unless it is nil or only spaces.
    private static func nonBlank(_ text: String?) -> String? {
        guard let text, !text.trimmingSpaces().isEmpty else { return nil }
        return text
    }

    /// The duration LRCLIB is sent: whole seconds, as its API takes them.
    var wholeSeconds: Int? {
        guard let duration, duration.isFinite, duration > 0, duration < 1_000_000 else { return nil }
        return Int(duration.rounded())
    }

    /// `GET /api/get` on `server` (no trailing slash needed): the exact match on names and length.
    public func getURL(server: String) -> String {
        var parameters = [("track_name", title), ("artist_name", artist)]
        if let album { parameters.append(("album_name", album)) }
        if let seconds = wholeSeconds { parameters.append(("duration", String(seconds))) }
        return LRCLIBQuery.url(server: server, path: "/api/get", parameters: parameters)
    }

    /// `GET /api/search` on `server`: the looser search by names, tried when `/api/get` finds nothing.
    public func searchURL(server: String) -> String {
        LRCLIBQuery.url(
            server: server, path: "/api/search", parameters: [("track_name", title), ("artist_name", artist)])
    }

    /// A server's host (and port) as messages name it: `lrclib.net`, `127.0.0.1:8080`.
    public static func host(of server: String) -> String {
        var text = Substring(server)
        if let scheme = text.firstRange(matching: "://") { text = text[scheme.upperBound...] }
        return ControlCharacters.strip(String(text.prefix { $0 != "/" }))
    }

    /// `server` + `path` + the parameters, each name and value percent-encoded.
    static func url(server: String, path: String, parameters: [(String, String)]) -> String {
        var base = Substring(server)
        while base.hasSuffix("/") { base = base.dropLast() }
        let query = parameters.map { percentEncoded($0.0) + "=" + percentEncoded($0.1) }.joined(separator: "&")
        return String(base) + path + "?" + query
    }

    /// `text`'s UTF-8 with everything but RFC 3986's unreserved characters as `%XX`: a space is `%20`,
    /// `&`, `=`, `+` and `#` cannot end or split a parameter.
    public static func percentEncoded(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The query as the cache compares it: names lower-cased with runs of white space made one space and
    /// trimmed, the length in whole seconds, and the server, one field a line.
    public func normalised(server: String) -> String {
        func fold(_ text: String?) -> String {
            (text ?? "").lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        }
        var base = Substring(server)
        while base.hasSuffix("/") { base = base.dropLast() }
        return [String(base), fold(artist), fold(title), fold(album), wholeSeconds.map(String.init) ?? ""]
            .joined(separator: "\n")
    }

    /// The cache file name of this query on `server`: 16 hex digits of the 64-bit FNV-1a hash of the
    /// normalised query, then `.json`.
    public func cacheKey(server: String) -> String {
        StableHash.name(of: normalised(server: server)) + ".json"
    }
}
