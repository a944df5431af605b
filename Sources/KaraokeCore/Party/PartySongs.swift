/// The evening's songs as guests find them: an id for each, and a search over title, artist and file name
/// (DESIGN §20.2).
///
/// Guests choose songs by id only, never by path: the id is a hash of the song's folder and its path below
/// it, so it says nothing about the host's files and stays the same when the party is started again with the
/// same folders (a resumed queue still names its songs).
public struct PartySongs: Sendable, Equatable {
    /// One song on offer.
    public struct Song: Sendable, Equatable, Identifiable {
        /// The opaque id: 16 lower-case hexadecimal digits, safe in a URL.
        public var id: String
        /// The title, cleaned of control characters; the file's base name when the song has none.
        public var title: String
        /// The artist, cleaned of control characters; empty when unknown.
        public var artist: String
        /// The length in seconds, when known.
        public var duration: Double?
        /// The file's name (last path component), searched too.
        public var fileName: String
        /// The path below its folder, for the edge to open; never sent to a guest.
        public var path: String
        /// Title, artist and file name folded for searching, one a line.
        let searchText: String
        /// Title and artist folded, for ranking matches there first.
        let tagText: String

        /// A song at `path` below `folder` (the folder as the host named it).
        public init(folder: String, path: String, title: String?, artist: String?, duration: Double?) {
            self.path = path
            let fileName = String(path.split(separator: "/").last ?? Substring(path))
            self.fileName = SingerName.cleaned(fileName)
            let cleanedTitle = SingerName.cleaned(title ?? "")
            self.title = cleanedTitle.isEmpty ? SingerName.cleaned(NameMatching.baseName(of: path)) : cleanedTitle
            self.artist = SingerName.cleaned(artist ?? "")
            self.duration = duration
            // A NUL cannot occur in a path, so folder and path cannot run into one another.
            id = StableHash.name(of: folder + "\u{0}" + path)
            tagText = SearchFolding.folded(self.title) + "\n" + SearchFolding.folded(self.artist)
            searchText = tagText + "\n" + SearchFolding.folded(self.fileName)
        }
    }

    /// How many songs a search gives when the guest does not say.
    public static let defaultLimit = 20
    /// The most songs a search gives.
    public static let maximumLimit = 100

    /// The songs in a stable order: by artist, title and file name, folded, then id.
    public let songs: [Song]
    /// The index in `songs` of each id.
    let indexByID: [String: Int]

    /// The index of `songs`; of two songs with one id (the same file listed twice) the first is kept.
    public init(_ songs: [Song]) {
        var seen: Set<String> = []
        let unique = songs.filter { seen.insert($0.id).inserted }
        // Folded once a song, not once a comparison: folding looks up Unicode names.
        let keyed = unique.map { song in
            (
                key: (SearchFolding.folded(song.artist), SearchFolding.folded(song.title), song.fileName, song.id),
                song: song
            )
        }
        self.songs = keyed.sorted { $0.key < $1.key }.map(\.song)
        var indexByID: [String: Int] = [:]
        for (index, song) in self.songs.enumerated() { indexByID[song.id] = index }
        self.indexByID = indexByID
    }

    /// The song with `id`, or nil.
    public subscript(id: String) -> Song? {
        indexByID[id].map { songs[$0] }
    }

    /// The songs matching every word of `query`, at most `limit` (clamped to 1…`maximumLimit`).
    ///
    /// A word matches when it occurs, folded, in the song's title, artist or file name; songs matched on
    /// title and artist alone come before those that needed the file name, each group in `songs` order. An
    /// empty query gives the first songs.
    public func search(_ query: String, limit: Int = PartySongs.defaultLimit) -> [Song] {
        let limit = min(max(limit, 1), Self.maximumLimit)
        let words = SearchFolding.folded(query).split(whereSeparator: \.isWhitespace)
        var byTags: [Song] = []
        var byFileName: [Song] = []
        for song in songs where words.allSatisfy({ song.searchText.includes($0) }) {
            if words.allSatisfy({ song.tagText.includes($0) }) {
                byTags.append(song)
                if byTags.count == limit { break }
            } else if byFileName.count < limit {
                byFileName.append(song)
            }
        }
        return Array((byTags + byFileName).prefix(limit))
    }
}
