/// The up-next list the host opens over a song's lyrics with `l` (DESIGN §20.6): the next singers, one of
/// them chosen for x (remove) and u (move up), drawn over the rows just above the status bar.
///
/// Pure: the edge hands it the song's frame and the party's view and paints what comes back; while it is
/// closed the frame passes through unchanged.
public struct PartySongPanel: Sendable, Equatable {
    /// Whether the list is shown.
    public private(set) var isOpen = false
    /// The chosen request, an index into the view's `upNext`.
    public private(set) var selected: Int?

    /// How many requests the list shows.
    public static let listed = PartyCard.listed

    /// A closed list.
    public init() {}

    /// Takes the host's `action` with the party as `view` shows it; returns the change to make to the rotation,
    /// if any.
    public mutating func handle(_ action: PartyHostKeys.SongAction, view: PartyView) -> PartyHostAction? {
        switch action {
        case .toggleList:
            isOpen.toggle()
            if isOpen, selected == nil, !view.upNext.isEmpty { selected = 0 }
        case .select(let step):
            let count = min(view.upNext.count, Self.listed)
            guard count > 0 else { return nil }
            selected = min(max((selected ?? 0) + step, 0), count - 1)
        case .remove, .moveUp:
            guard let selected, selected < view.requestIDs.count else { return nil }
            let id = view.requestIDs[selected]
            return action == .remove ? .remove(id) : .moveUp(id)
        case .toggleRequests:
            return .toggleRequests
        }
        return nil
    }

    /// Keeps the choice on the list after the queue changed.
    public mutating func follow(_ view: PartyView) {
        guard let place = selected else { return }
        let count = min(view.upNext.count, Self.listed)
        selected = count == 0 ? nil : min(place, count - 1)
    }

    /// `frame` with the list over the rows above its status bar, when the list is open.
    public func overlay(on frame: Frame, view: PartyView) -> Frame {
        guard isOpen, frame.rows.count >= 3 else { return frame }
        let columns = frame.columns
        var lines: [(String, RGB)] = [
            (
                "Up next — ↑↓ choose · x remove · u move up · o \(view.paused ? "open" : "close") requests · l close",
                RGB(hex: 0x9E9E9E)
            )
        ]
        if view.upNext.isEmpty { lines.append(("  nothing queued", RGB(hex: 0xE0E0E0))) }
        for (index, entry) in view.upNext.prefix(Self.listed).enumerated() {
            let mark = index == selected ? "▸ " : "  "
            let text =
                "\(mark)\(index + 1). \(ControlCharacters.strip(entry.singer)) — \(ControlCharacters.strip(entry.song))"
            lines.append((text, index == selected ? RGB(hex: 0xFFD75F) : RGB(hex: 0xE0E0E0)))
        }
        // The status bar stays; the list takes the rows just above it, the title row never.
        let room = frame.rows.count - 2
        let shown = lines.suffix(min(lines.count, room))
        var result = frame
        let first = frame.rows.count - 1 - shown.count
        for (offset, line) in shown.enumerated() {
            result.rows[first + offset] = FrameRow(
                kind: .notice,
                cells: FrameComposer.cells(of: line.0, from: 1, limit: columns, role: .notice, color: line.1))
        }
        return result
    }
}

extension PartySongs.Song {
    /// The song at `path` below `folder`, named by the `[ti:]`, `[ar:]` and `[length:]` tags at the start of its
    /// lyric file (`head`, nil when it has none to read), else by an "Artist - Title" file name, else by its name.
    public init(folder: String, path: String, head: [UInt8]?) {
        let tags = head.map(LyricsFolderIndex.HeadTags.init)
        var artist = tags?.artist.flatMap { $0.isEmpty ? nil : $0 }
        var title = tags?.title.flatMap { $0.isEmpty ? nil : $0 }
        if title == nil, let named = NameMatching.artistAndTitle(fromFileName: path) {
            title = named.title
            artist = artist ?? named.artist
        }
        self.init(
            folder: folder, path: path, title: title, artist: artist,
            duration: tags?.length.map { Double($0) / 1000 })
    }
}
