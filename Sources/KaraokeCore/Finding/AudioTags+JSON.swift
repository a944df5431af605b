/// Reading the JSON that `karaoke-tags` prints into `AudioTags` (DESIGN §10.2).
///
/// The helper is ours, but what it prints comes from a file anyone can write: every member is checked
/// for its type and range, and the lists are capped, so a broken or hostile answer is a message, not a
/// crash or a gigabyte of lines.
extension AudioTags {
    /// At most this many synced lines are kept (the helper prints no more either).
    public static let maximumSyncedLines = 100_000
    /// At most this many lyric texts are kept; a file with more is broken or hostile.
    public static let maximumLyricTexts = 64
    /// At most this many notes are kept.
    public static let maximumNotes = 20

    /// Why the helper's output is not tags: the JSON is malformed, or a member has the wrong type.
    public struct JSONFailure: Error, Equatable, Sendable, CustomStringConvertible {
        /// What was wrong, lower case, as a message quotes it.
        public var reason: String

        /// Creates a failure.
        public init(reason: String) { self.reason = reason }

        /// The reason.
        public var description: String { reason }
    }

    /// Reads the helper's JSON: `{"title","artist","album","duration","synced":[{"ms","text"}],"texts":[{"source","text"}],"notes"}`.
    ///
    /// Missing members and `null` mean "the file does not say". A duration that is negative or longer
    /// than 100 hours is dropped; a synced line's time must be a whole number of milliseconds in
    /// 0…100 h, else the whole answer is refused (the helper never prints one).
    public init(json bytes: [UInt8]) throws(JSONFailure) {
        let value = try JSONValue.parse(bytes) { JSONFailure(reason: "malformed JSON (\($0))") }
        guard case .object = value else { throw JSONFailure(reason: "the answer is not a JSON object") }
        self.init()
        title = try Self.optionalString(value, "title")
        artist = try Self.optionalString(value, "artist")
        album = try Self.optionalString(value, "album")
        if let duration = value["duration"], duration != .null {
            guard let seconds = duration.number else { throw JSONFailure(reason: "'duration' is not a number") }
            self.duration = seconds >= 0 && seconds <= Double(ByteScanner.timeLimit) / 1000 ? seconds : nil
        }
        for (index, entry) in try Self.optionalArray(value, "synced").enumerated() {
            guard index < Self.maximumSyncedLines else {
                notes.append("more than \(Self.maximumSyncedLines) synced lines; the rest are left out")
                break
            }
            guard let milliseconds = entry["ms"]?.integer, (0...ByteScanner.timeLimit).contains(milliseconds) else {
                throw JSONFailure(reason: "synced line \(index + 1) has no time in 0…100 h ('ms')")
            }
            guard let text = entry["text"]?.string else {
                throw JSONFailure(reason: "synced line \(index + 1) has no 'text'")
            }
            syncedLines.append(SyncedLine(milliseconds: milliseconds, text: text))
        }
        for (index, entry) in try Self.optionalArray(value, "texts").enumerated() {
            guard index < Self.maximumLyricTexts else {
                notes.append("more than \(Self.maximumLyricTexts) lyric texts; the rest are left out")
                break
            }
            guard let source = entry["source"]?.string, let text = entry["text"]?.string else {
                throw JSONFailure(reason: "lyric text \(index + 1) has no 'source' or 'text'")
            }
            lyricTexts.append(LyricText(source: source, text: text))
        }
        for note in try Self.optionalArray(value, "notes").prefix(Self.maximumNotes) {
            guard let text = note.string else { throw JSONFailure(reason: "a note is not a string") }
            notes.append(ControlCharacters.strip(text))
        }
    }

    /// The string member `name`; nil when missing or null, a failure for another type.
    private static func optionalString(_ object: JSONValue, _ name: String) throws(JSONFailure) -> String? {
        guard let member = object[name], member != .null else { return nil }
        guard let text = member.string else { throw JSONFailure(reason: "'\(name)' is not a string") }
        return text
    }

    /// The array member `name`; empty when missing or null, a failure for another type.
    private static func optionalArray(_ object: JSONValue, _ name: String) throws(JSONFailure) -> [JSONValue] {
        guard let member = object[name], member != .null else { return [] }
        guard case .array(let elements) = member else { throw JSONFailure(reason: "'\(name)' is not a list") }
        return elements
    }
}
