/// What came of `s` in `play`, saving the user offset into the lyric file (DESIGN §13.2), with the
/// status bar's notice about it worded here, in one place.
public enum OffsetSave: Sendable, Equatable {
    /// The file was rewritten; `song` is the rewritten file as read back, shown from now on without a
    /// user offset.
    case saved(Song, notice: String)
    /// Nothing to add to the file (a user offset of 0): nothing was written. `file` is its name as shown.
    case unchanged(file: String)
    /// Nothing was written: the lyrics cannot be rewritten in place, or writing failed.
    case refused(notice: String)

    /// The status bar's notice.
    public var notice: String {
        switch self {
        case .saved(_, let notice), .refused(let notice): notice
        case .unchanged(let file): OffsetSave.unchangedNotice(file)
        }
    }

    /// The status bar's notice when an offset was saved before in this song (`savedBefore`): a save that
    /// added nothing then says the offset is in the file already; before any save there was nothing to save.
    public func notice(savedBefore: Bool) -> String {
        if case .unchanged = self, !savedBefore { return OffsetSave.nothingToSaveNotice }
        return notice
    }

    /// Whether the notice stays three times as long: a refusal comes with a hint worth the time to read.
    public var isLong: Bool {
        if case .refused = self { return true }
        return false
    }

    /// `offset +0.2s saved to song.lrc`, naming how it was saved and what could not be kept.
    ///
    /// - Parameters:
    ///   - milliseconds: the user offset saved.
    ///   - name: the file's name as shown (its last path component).
    ///   - mode: into the tag or into the stamps.
    ///   - clampedStamps: stamps held at 0:00.
    ///   - backup: the backup's name when this save made it.
    public static func savedNotice(
        _ milliseconds: Int, to name: String, mode: LRCOffsetRewrite.Mode, clampedStamps: Int, backup: String?
    ) -> String {
        var notice = "offset \(StatusBar.signedSeconds(milliseconds)) saved to \(name)"
        var notes: [String] = []
        if mode == .stamps { notes.append("stamps moved") }
        if clampedStamps > 0 { notes.append("\(clampedStamps) stamp\(clampedStamps == 1 ? "" : "s") held at 0:00") }
        if let backup { notes.append("backup \(backup)") }
        if !notes.isEmpty { notice += " (" + notes.joined(separator: "; ") + ")" }
        return notice
    }

    /// The notice when the file already holds the offset: `s` again after a save.
    public static func unchangedNotice(_ name: String) -> String {
        "offset already saved in \(name); nothing written"
    }

    /// The notice of `s` with no offset to save: the offset is 0 and none was saved before.
    public static let nothingToSaveNotice = "no offset to save"

    /// The notice for lyrics in `format` (its display name), which cannot be rewritten in place: the
    /// command that makes an LRC of them beside them (short: the status bar is one row).
    public static func formatRefusedNotice(_ format: String, path: String) -> String {
        var lrc = path
        if let dot = lrc.lastIndex(of: "."), !lrc[dot...].contains("/") { lrc = String(lrc[..<dot]) }
        lrc += ".lrc"
        return "cannot save into \(format); karaoke convert \(quotedPath(path)) --to lrc -o \(quotedPath(lrc))"
    }

    /// The notice for lyrics that are no file: from the audio's tags, or from LRCLIB (`fromLRCLIB`),
    /// which `karaoke fetch --save` can write beside the audio.
    public static func notAFileNotice(fromLRCLIB: Bool) -> String {
        fromLRCLIB
            ? "lyrics from lrclib.net are no file to save the offset into; 'karaoke fetch AUDIO --save' writes one"
            : "lyrics from the audio's tags are no file to save the offset into"
    }

    /// The notice for plain lyrics or a message: nothing is timed.
    public static let untimedNotice = "these lyrics are not timed; there is no offset to save"

    /// The notice for `s` in a CD+G song: the offset moves the picture while it plays, with no file to keep it.
    public static let graphicsNotice = "a CD+G song has no lyric file to save an offset into"

    /// The notice when the file is not UTF-8 (read with `--encoding`, or guessed).
    public static func notUTF8Notice(_ path: String) -> String {
        "cannot save the offset: the file is not UTF-8; 'karaoke convert \(quotedPath(path)) --to lrc' writes UTF-8"
    }

    /// The notice when the offset would be an hour or more.
    public static func tooLargeNotice(_ milliseconds: Int) -> String {
        "cannot save the offset: \(StatusBar.signedSeconds(milliseconds)) is over the [offset:] limit of an hour"
    }

    /// The notice when reading or writing failed; `reason` names the file and the system's reason.
    public static func failedNotice(_ reason: String) -> String {
        "cannot save the offset: \(reason); nothing changed"
    }

    /// `path` as a shell word: in single quotes when it holds anything but plain name characters.
    static func quotedPath(_ path: String) -> String {
        let plain = path.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "/._-+,@%:".unicodeScalars.contains(scalar)
        }
        guard !plain || path.isEmpty else { return path }
        var quoted = "'"
        for character in path { quoted += character == "'" ? "'\\''" : String(character) }
        return quoted + "'"
    }
}
