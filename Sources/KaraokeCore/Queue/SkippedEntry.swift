/// An entry of a queue that cannot be played, and why: what its card, the end card and stderr say
/// (DESIGN §14.2).
///
/// Worded in one place, the file first and then the reason: `skipped tone.wav: no lyrics found (looked
/// beside it, in its tags)`, `skipped missing.lrc: no such file`.
public struct SkippedEntry: Sendable, Equatable {
    /// The file at fault as the playlist means it (`Playlist.shownPath`), control characters removed.
    public var file: String
    /// Why it cannot be played, without the file: `no such file`.
    public var reason: String

    /// The entry whose file is `file` (any path; it is normalised for showing), skipped for `reason`.
    public init(file: String, reason: String) {
        self.file = Playlist.shownPath(ControlCharacters.strip(file))
        self.reason = ControlCharacters.strip(reason)
    }

    /// `skipped FILE: reason`: the words on the cards, and after `karaoke: ` on stderr.
    public var note: String { "skipped \(file): \(reason)" }
}
