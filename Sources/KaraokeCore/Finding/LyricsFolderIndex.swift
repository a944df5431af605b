/// What karaoke knows about the lyric files in one lyric folder, kept in the cache between runs so a
/// folder of 10,000 files is read once (DESIGN §10.3).
///
/// Pure: the edge walks the folder (a `stat` per file) and hands over what it saw; `refreshed` keeps every
/// entry whose size and modification time are unchanged and asks for the head of the others only.
public struct LyricsFolderIndex: Sendable, Equatable {
    /// What a `stat` of one lyric file in the folder says: its path below the folder, size and mtime.
    public struct FileStatus: Sendable, Equatable {
        /// The path below the folder, such as `Queen/Queen - Bohemian Rhapsody.lrc`.
        public var path: String
        /// The size in bytes.
        public var size: Int
        /// The modification time in nanoseconds since the epoch.
        public var modified: Int64

        /// Creates a status.
        public init(path: String, size: Int, modified: Int64) {
            self.path = path
            self.size = size
            self.modified = modified
        }
    }

    /// One lyric file: its status and the keys it is matched by.
    public struct Entry: Sendable, Equatable {
        /// The file's status when it was read.
        public var status: FileStatus
        /// `NameMatching.key` of the file's base name.
        public var nameKey: String
        /// `NameMatching.key(artist:title:)` of its `[ar:]` and `[ti:]` tags, when it has both.
        public var tagKey: String?
        /// Its `[length:]` in milliseconds, when it has one.
        public var length: Int?
    }

    /// How much of a file is read for its tags: `[ar:]`, `[ti:]` and `[length:]` sit at the top.
    public static let headSize = 4096
    /// The first line of an index file; another version is read as no index.
    static let header = "karaoke lyrics index 1"

    /// The folder's absolute path.
    public var folder: String
    /// The lyric files, in the order of their paths.
    public var entries: [Entry]

    /// Creates an index.
    public init(folder: String, entries: [Entry] = []) {
        self.folder = folder
        self.entries = entries
    }

    /// The index for the folder as `statuses` show it now: unchanged files keep their entries, new and
    /// changed ones are read through `readHead` (their first `headSize` bytes; nil or empty when unreadable),
    /// files gone are dropped. `changed` is false when the result equals this index.
    public func refreshed(
        with statuses: [FileStatus], readHead: (String) -> [UInt8]?
    ) -> (index: LyricsFolderIndex, changed: Bool) {
        var known: [String: Entry] = [:]
        for entry in entries { known[entry.status.path] = entry }
        var fresh: [Entry] = []
        fresh.reserveCapacity(statuses.count)
        for status in statuses.sorted(by: { $0.path < $1.path }) {
            if let entry = known[status.path], entry.status == status {
                fresh.append(entry)
            } else {
                fresh.append(Self.entry(for: status, head: readHead(status.path) ?? []))
            }
        }
        let index = LyricsFolderIndex(folder: folder, entries: fresh)
        return (index, index != self)
    }

    /// The entry of a file from its status and the start of its text.
    public static func entry(for status: FileStatus, head: [UInt8]) -> Entry {
        let tags = HeadTags(head)
        let tagKey = tags.artist.flatMap { artist in tags.title.flatMap { NameMatching.key(artist: artist, title: $0) }
        }
        return Entry(
            status: status, nameKey: NameMatching.key(NameMatching.baseName(of: status.path)), tagKey: tagKey,
            length: tags.length)
    }

    /// The `[ar:]`, `[ti:]` and `[length:]` tags of the start of an LRC file.
    struct HeadTags {
        var artist: String?
        var title: String?
        var length: Int?

        /// Reads the tags of `head`, a line at a time, on the bytes (10,000 heads are read on a first run);
        /// the last line of a full head may be cut short and is then ignored.
        init(_ head: [UInt8]) {
            var start = ByteScanner.skipByteOrderMark(head, at: 0, end: head.count)
            while start < head.count {
                var end = start
                while end < head.count, head[end] != 0x0A, head[end] != 0x0D { end += 1 }
                if end == head.count, head.count >= LyricsFolderIndex.headSize { break }
                read(head[start..<end])
                start = end + 1
            }
        }

        /// Keeps the tag of one line, `[key:value]`, when it is one of the three and not seen before.
        mutating func read(_ line: ArraySlice<UInt8>) {
            var line = line
            while let first = line.first, ByteScanner.isBlank(first) { line = line.dropFirst() }
            guard line.first == UInt8(ascii: "["), let colon = line.firstIndex(of: UInt8(ascii: ":")),
                let close = line.lastIndex(of: UInt8(ascii: "]")), colon < close
            else { return }
            let key = line[(line.startIndex + 1)..<colon].map(ByteScanner.lowercased)
            let value = String(decoding: line[(colon + 1)..<close], as: UTF8.self)
            if key.elementsEqual("ar".utf8) {
                artist = artist ?? value
            } else if key.elementsEqual("ti".utf8) {
                title = title ?? value
            } else if key.elementsEqual("length".utf8) {
                length = length ?? LyricsFolderIndex.milliseconds(value)
            }
        }
    }

    /// A `[length:]` value in milliseconds: `mm:ss`, `mm:ss.xx`, `h:mm:ss` or plain seconds; nil otherwise.
    static func milliseconds(_ text: String) -> Int? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map {
            String($0.filter { $0 != " " })
        }
        guard (1...3).contains(parts.count), let last = parts.last, let seconds = Double(last),
            seconds.isFinite, seconds >= 0, seconds < (parts.count == 1 ? 360_000 : 60)
        else { return nil }
        var total = seconds
        for (place, part) in parts.dropLast().reversed().enumerated() {
            guard !part.isEmpty, part.allSatisfy(\.isASCII), let whole = Int(part), whole >= 0, whole < 100_000 else {
                return nil
            }
            total += Double(whole) * (place == 0 ? 60 : 3600)
        }
        return Int((total * 1000).rounded())
    }
}

extension LyricsFolderIndex {
    /// The index as the text of its cache file: a header line, the folder, then a line per file with its
    /// fields separated by tabs (tabs, newlines and backslashes in a field escaped with a backslash).
    public func encoded() -> String {
        var text = Self.header + "\n" + Self.escaped(folder) + "\n"
        for entry in entries {
            let fields = [
                Self.escaped(entry.status.path), String(entry.status.size), String(entry.status.modified),
                Self.escaped(entry.nameKey), entry.tagKey.map(Self.escaped) ?? "-",
                entry.length.map { String($0) } ?? "-",
            ]
            text += fields.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// Reads the text `encoded()` wrote; nil when it is not one (another version, a cut or damaged file),
    /// so the caller builds the index anew.
    public init?(decoding text: String) {
        self.init(decoding: Array(text.utf8))
    }

    /// Reads the bytes of an index file; nil when they are not one. Works on the bytes, without a
    /// `Character` split of the whole file, since an index of 10,000 files is read on every run.
    public init?(decoding bytes: [UInt8]) {
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        for (position, byte) in bytes.enumerated() where byte == 0x0A {
            lines.append(bytes[start..<position])
            start = position + 1
        }
        // The last line must end with its newline: a file cut short is no index.
        guard start == bytes.count, lines.count >= 2, lines[0].elementsEqual(Self.header.utf8),
            let folder = Self.unescaped(lines[1])
        else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count - 2)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: 0x09, omittingEmptySubsequences: false)
            guard fields.count == 6, let path = Self.unescaped(fields[0]), !path.isEmpty,
                let size = Self.integer(fields[1]), size >= 0, let modified = Self.integer(fields[2]),
                let nameKey = Self.unescaped(fields[3])
            else { return nil }
            var tagKey: String? = nil
            if !fields[4].elementsEqual("-".utf8) {
                guard let key = Self.unescaped(fields[4]), !key.isEmpty else { return nil }
                tagKey = key
            }
            var length: Int? = nil
            if !fields[5].elementsEqual("-".utf8) {
                guard let value = Self.integer(fields[5]), value >= 0, value <= Int(Int32.max) else { return nil }
                length = Int(value)
            }
            entries.append(
                Entry(
                    status: FileStatus(path: path, size: Int(size), modified: modified), nameKey: nameKey,
                    tagKey: tagKey, length: length))
        }
        self.init(folder: folder, entries: entries)
    }

    /// A decimal integer, optionally negative, that fits in 64 bits; nil for anything else.
    static func integer(_ field: ArraySlice<UInt8>) -> Int64? {
        var digits = field[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: Int64 = 0
        for byte in digits {
            guard ByteScanner.isDigit(byte) else { return nil }
            let (times, overflowTimes) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflowTimes, !overflowSum else { return nil }
            value = sum
        }
        return negative ? -value : value
    }

    /// `field` with backslash, tab, newline and carriage return escaped as `\\`, `\t`, `\n` and `\r`.
    static func escaped(_ field: String) -> String {
        field.replacingCharacters(["\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"])
    }

    /// The field `escaped` wrote, or nil for a backslash followed by anything else or bytes that are
    /// not UTF-8.
    static func unescaped(_ field: ArraySlice<UInt8>) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(field.count)
        var escaping = false
        for byte in field {
            if escaping {
                switch byte {
                case UInt8(ascii: "\\"): bytes.append(byte)
                case UInt8(ascii: "t"): bytes.append(0x09)
                case UInt8(ascii: "n"): bytes.append(0x0A)
                case UInt8(ascii: "r"): bytes.append(0x0D)
                default: return nil
                }
                escaping = false
            } else if byte == UInt8(ascii: "\\") {
                escaping = true
            } else {
                bytes.append(byte)
            }
        }
        guard !escaping else { return nil }
        return String(validating: bytes, as: UTF8.self)
    }
}
