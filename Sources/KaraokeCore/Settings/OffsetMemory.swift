/// Each song's remembered user offset or vocals level (DESIGN §14.4), as kept in `$XDG_STATE_HOME/karaoke/offsets`
/// and, beside it, `vocals`: a line per song, `KEY VALUE`, the key a hash of the lyric file's bytes and the value
/// the offset in milliseconds or the vocals in percent.
///
/// Keyed by content rather than path, so a song keeps its offset when its file is moved or renamed, and an
/// edited file (whose timing may have been fixed) starts afresh. The vocals have a file of their own in the
/// same format, so the offsets file an older karaoke reads and rewrites is exactly as it was.
public struct OffsetMemory: Sendable, Equatable {
    /// What a memory holds for each song.
    public enum Setting: Sendable {
        /// The user offset in milliseconds, kept in `offsets`.
        case offset
        /// The vocals level in percent (DESIGN §25), kept in `vocals`.
        case vocals

        /// The file's name in the state folder.
        var fileName: String { self == .offset ? "offsets" : "vocals" }
        /// The value a song has when nothing is remembered: remembering it forgets the song.
        var neutral: Int { self == .offset ? 0 : 100 }
        /// The values a line may hold.
        var valid: ClosedRange<Int> {
            self == .offset ? -Overlay.offsetLimit...Overlay.offsetLimit : SingingSettings.vocalsRange
        }
    }

    /// The most songs remembered; the ones nudged longest ago are forgotten first.
    static let capacity = 5000

    /// What each song's value is.
    public let setting: Setting
    /// The remembered values, the oldest first.
    public private(set) var entries: [(key: String, value: Int)] = []

    /// Reads the file's `text`; a line that is not `KEY VALUE`, with the value within the setting's range and
    /// not its neutral value, is skipped (the file is ours, and a damaged line costs one song its value, never
    /// the start of the program).
    public init(text: String, setting: Setting = .offset) {
        self.setting = setting
        var seen: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 2, fields[0].count == 16, fields[0].allSatisfy(\.isHexDigit),
                let value = Int(fields[1]), value != setting.neutral, setting.valid.contains(value)
            else { continue }
            let key = String(fields[0])
            if let index = seen[key] {
                entries[index].value = value
            } else {
                seen[key] = entries.count
                entries.append((key, value))
            }
        }
    }

    /// The key of a lyric file whose content is `bytes`.
    public static func key<Bytes: Sequence<UInt8>>(content bytes: Bytes) -> String {
        StableHash.hexadecimal(StableHash.fnv1a(bytes: bytes))
    }

    /// The value remembered for `key`, or nil.
    public func value(for key: String) -> Int? {
        entries.last { $0.key == key }?.value
    }

    /// Remembers `value` for `key` as the newest entry; the neutral value (an offset of 0, vocals at 100)
    /// forgets the song.
    public mutating func remember(_ value: Int, for key: String) {
        entries.removeAll { $0.key == key }
        if value != setting.neutral { entries.append((key, value)) }
        if entries.count > OffsetMemory.capacity { entries.removeFirst(entries.count - OffsetMemory.capacity) }
    }

    /// The file's text.
    public var text: String {
        entries.map { "\($0.key) \($0.value)\n" }.joined()
    }

    /// `$XDG_STATE_HOME/karaoke/offsets` or `…/vocals` (XDG_STATE_HOME defaulting to `~/.local/state`), or nil
    /// without either.
    public static func standardPath(of setting: Setting = .offset, environment: (String) -> String?) -> String? {
        LyricsSearch.xdgFolder("XDG_STATE_HOME", orBelowHome: ".local/state", environment: environment)
            .map { $0 + "/karaoke/" + setting.fileName }
    }

    /// Whether two memories hold the same setting's values in the same order.
    public static func == (a: OffsetMemory, b: OffsetMemory) -> Bool {
        a.setting == b.setting && a.entries.map(\.key) == b.entries.map(\.key)
            && a.entries.map(\.value) == b.entries.map(\.value)
    }
}
