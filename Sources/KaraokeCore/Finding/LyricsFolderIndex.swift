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

        /// Creates an entry.
        public init(status: FileStatus, nameKey: String, tagKey: String? = nil, length: Int? = nil) {
            self.status = status
            self.nameKey = nameKey
            self.tagKey = tagKey
            self.length = length
        }
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
        let tagKey = tags.artist.flatMap { artist in tags.title.flatMap { NameMatching.key(artist: artist, title: $0) } }
        return Entry(
            status: status, nameKey: NameMatching.key(NameMatching.baseName(of: status.path)), tagKey: tagKey,
            length: tags.length)
    }

    /// The `[ar:]`, `[ti:]` and `[length:]` tags of the start of an LRC file.
    struct HeadTags {
        var artist: String?
        var title: String?
        var length: Int?

        /// Reads the tags of `head`, a line at a time; the last line may be cut short and is then ignored.
        init(_ head: [UInt8]) {
            let text = String(decoding: head, as: UTF8.self)
            let lines = text.split(omittingEmptySubsequences: true) { $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
            let complete = head.count < LyricsFolderIndex.headSize ? lines[...] : lines.dropLast()
            for line in complete {
                var line = Substring(line)
                while let first = line.first, first == " " || first == "\t" || first == "\u{FEFF}" {
                    line.removeFirst()
                }
                guard line.first == "[", let colon = line.firstIndex(of: ":"),
                    let close = line.lastIndex(of: "]"), colon < close
                else { continue }
                let key = line[line.index(after: line.startIndex)..<colon].lowercased()
                let value = String(line[line.index(after: colon)..<close])
                switch key {
                case "ar": artist = artist ?? value
                case "ti": title = title ?? value
                case "length": length = length ?? LyricsFolderIndex.milliseconds(value)
                default: continue
                }
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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 3, lines.first == Substring(Self.header), lines.last == "" else { return nil }
        lines.removeLast()
        guard let folder = Self.unescaped(lines[1]) else { return nil }
        var entries: [Entry] = []
        entries.reserveCapacity(lines.count - 2)
        for line in lines.dropFirst(2) {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count == 6, let path = Self.unescaped(fields[0]), !path.isEmpty,
                let size = Int(fields[1]), size >= 0, let modified = Int64(fields[2]),
                let nameKey = Self.unescaped(fields[3])
            else { return nil }
            var tagKey: String? = nil
            if fields[4] != "-" {
                guard let key = Self.unescaped(fields[4]), !key.isEmpty else { return nil }
                tagKey = key
            }
            var length: Int? = nil
            if fields[5] != "-" {
                guard let value = Int(fields[5]), value >= 0 else { return nil }
                length = value
            }
            entries.append(
                Entry(
                    status: FileStatus(path: path, size: size, modified: modified), nameKey: nameKey,
                    tagKey: tagKey, length: length))
        }
        self.init(folder: folder, entries: entries)
    }

    /// `field` with backslash, tab and newline escaped as `\\`, `\t` and `\n`.
    static func escaped(_ field: String) -> String {
        var result = ""
        for character in field {
            switch character {
            case "\\": result += "\\\\"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: result.append(character)
            }
        }
        return result
    }

    /// The field `escaped` wrote, or nil for a backslash followed by anything else.
    static func unescaped(_ field: Substring) -> String? {
        guard field.contains("\\") else { return String(field) }
        var result = ""
        var escaping = false
        for character in field {
            if escaping {
                switch character {
                case "\\": result += "\\"
                case "t": result += "\t"
                case "n": result += "\n"
                case "r": result += "\r"
                default: return nil
                }
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                result.append(character)
            }
        }
        return escaping ? nil : result
    }
}
