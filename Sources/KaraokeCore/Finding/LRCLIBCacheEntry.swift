/// One answer of LRCLIB as the cache keeps it: the records found, or that nothing was (DESIGN §11).
///
/// A file of its own per query: a first line `karaoke-lrclib 1`, then a line `get`, `search` or `missing`,
/// then (for the first two) LRCLIB's answer as it came: the object of `/api/get` or the array of
/// `/api/search`. Anything else is a corrupt entry, which the cache ignores and replaces.
public enum LRCLIBCacheEntry: Sendable, Equatable {
    /// LRCLIB had these records (at least one).
    case found([LRCLIBRecord])
    /// LRCLIB had nothing; such an entry expires after `missExpiry` seconds.
    case missing

    /// How long a miss is believed: a song may be added to LRCLIB later.
    public static let missExpiry = 7.0 * 24 * 3600

    /// The first line of every entry.
    static let header = "karaoke-lrclib 1\n"

    /// The entry for an answer whose body (an object from `/api/get` or an array from `/api/search`) is kept
    /// as it came: the cache reads it with the same parser as the answer.
    public static func encode(kind: String, body: [UInt8]) -> [UInt8] {
        Array((header + kind + "\n").utf8) + body
    }

    /// The entry for no answer.
    public static let encodedMiss = Array((header + "missing\n").utf8)

    /// The entry the bytes of a cache file hold; nil when they are not one.
    public static func decode(_ bytes: [UInt8]) -> LRCLIBCacheEntry? {
        let head = Array(header.utf8)
        guard bytes.starts(with: head) else { return nil }
        let rest = bytes[head.count...]
        guard let newline = rest.firstIndex(of: 0x0A) else { return nil }
        let kind = String(decoding: rest[..<newline], as: UTF8.self)
        let body = Array(rest[(newline + 1)...])
        switch kind {
        case "missing": return body.isEmpty ? .missing : nil
        case "get": return (try? LRCLIBRecord.parseGet(body)).map { .found([$0]) }
        case "search":
            guard let records = try? LRCLIBRecord.parseSearch(body) else { return nil }
            return records.isEmpty ? .missing : .found(records)
        default: return nil
        }
    }
}
