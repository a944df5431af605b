/// Each song's remembered user offset (DESIGN §14.4), as kept in `$XDG_STATE_HOME/karaoke/offsets`: a line per
/// song, `KEY OFFSET`, the key a hash of the lyric file's bytes and the offset in milliseconds.
///
/// Keyed by content rather than path, so a song keeps its offset when its file is moved or renamed, and an
/// edited file (whose timing may have been fixed) starts afresh.
public struct OffsetMemory: Sendable, Equatable {
    /// The most songs remembered; the ones nudged longest ago are forgotten first.
    static let capacity = 5000

    /// The remembered offsets, the oldest first.
    public private(set) var entries: [(key: String, offset: Int)] = []

    /// Reads the file's `text`; a line that is not `KEY OFFSET` is skipped (the file is ours, and a damaged
    /// line costs one song its offset, never the start of the program).
    public init(text: String) {
        var seen: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0].count == 16, fields[0].allSatisfy(\.isHexDigit),
                let offset = Int(fields[1]), offset != 0, abs(offset) <= Overlay.offsetLimit
            else { continue }
            let key = String(fields[0])
            if let index = seen[key] {
                entries[index].offset = offset
            } else {
                seen[key] = entries.count
                entries.append((key, offset))
            }
        }
    }

    /// The key of a lyric file whose content is `bytes`.
    public static func key<Bytes: Sequence<UInt8>>(content bytes: Bytes) -> String {
        StableHash.hexadecimal(StableHash.fnv1a(bytes: bytes))
    }

    /// The offset remembered for `key`, or nil.
    public func offset(for key: String) -> Int? {
        entries.last { $0.key == key }?.offset
    }

    /// Remembers `offset` for `key` as the newest entry; 0 forgets the song.
    public mutating func remember(_ offset: Int, for key: String) {
        entries.removeAll { $0.key == key }
        if offset != 0 { entries.append((key, offset)) }
        if entries.count > OffsetMemory.capacity { entries.removeFirst(entries.count - OffsetMemory.capacity) }
    }

    /// The file's text.
    public var text: String {
        entries.map { "\($0.key) \($0.offset)\n" }.joined()
    }

    /// `$XDG_STATE_HOME/karaoke/offsets` (XDG_STATE_HOME defaulting to `~/.local/state`), or nil without either.
    public static func standardPath(environment: (String) -> String?) -> String? {
        LyricsSearch.xdgFolder("XDG_STATE_HOME", orBelowHome: ".local/state", environment: environment)
            .map { $0 + "/karaoke/offsets" }
    }

    /// Whether two memories hold the same offsets in the same order.
    public static func == (a: OffsetMemory, b: OffsetMemory) -> Bool {
        a.entries.map(\.key) == b.entries.map(\.key) && a.entries.map(\.offset) == b.entries.map(\.offset)
    }
}
