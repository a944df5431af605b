import Glibc
import KaraokeCore

/// Carries out `play`'s `s` (DESIGN §13.2): reads the lyric file again, has the core rewrite it with
/// the user offset, keeps a backup, writes it through `TextFile` and reads the new file back.
struct OffsetWriter {
    /// Where the lyrics played came from, as far as saving goes.
    enum Source {
        /// A lyric file, at this path.
        case file(String)
        /// The audio's tags: no file to write.
        case tags
        /// LRCLIB (`--fetch`): no file to write.
        case lrclib
    }

    let source: Source
    /// Into `[offset:]`, or into the stamps (`--apply-offset`).
    let mode: LRCOffsetRewrite.Mode
    /// `--encoding`, which the file was read with.
    let encoding: String?
    /// `--max-size`, in bytes.
    let maxSize: Int
    /// Whether translation lines are shown (`--no-translation` hides them in the song read back).
    let showsTranslations: Bool

    /// Saves `milliseconds` of user offset into the file of `content` (the lyrics shown) and says what
    /// came of it. Nothing is written unless the whole rewrite can be; the old file stays whole otherwise.
    func save(_ milliseconds: Int, content: LyricsContent) -> OffsetSave {
        // Nothing timed (plain lyrics, or a message while LRCLIB is asked) is said first: it holds wherever
        // the lyrics came from.
        if case .graphics = content { return .refused(notice: OffsetSave.graphicsNotice) }
        guard case .timed = content else { return .refused(notice: OffsetSave.untimedNotice) }
        let path: String
        switch source {
        case .tags: return .refused(notice: OffsetSave.notAFileNotice(fromLRCLIB: false))
        case .lrclib: return .refused(notice: OffsetSave.notAFileNotice(fromLRCLIB: true))
        case .file(let file): path = file
        }
        let shownPath = ControlCharacters.strip(path)
        let name = lastComponent(path)
        if let encoding, !["utf-8", "utf8"].contains(encoding.lowercased()) {
            return .refused(notice: OffsetSave.notUTF8Notice(shownPath))
        }
        // A link is followed: the file it names is rewritten, and the link stays.
        guard let resolved = realpath(path, nil) else {
            return .refused(notice: OffsetSave.failedNotice("\(shownPath): \(LyricFile.describe(errno))"))
        }
        let target = String(cString: resolved)
        free(resolved)
        let bytes: [UInt8]
        switch LyricFile.read(target, maxSize: maxSize) {
        case .success(let data): bytes = data
        case .failure(let failure): return .refused(notice: OffsetSave.failedNotice("\(shownPath): \(failure.message)"))
        }
        // A MIDI file is binary: say what it is rather than that it is not UTF-8.
        if LyricFormat.isMIDI(bytes: bytes, fileName: path) {
            return .refused(notice: OffsetSave.formatRefusedNotice(LyricFormat.midi.displayName, path: shownPath))
        }
        guard case .success(let utf8) = SourceText.utf8(from: bytes) else {
            return .refused(notice: OffsetSave.notUTF8Notice(shownPath))
        }
        let format = LyricFormat.detect(utf8: utf8, fileName: path)
        guard format == .lrc else {
            return .refused(notice: OffsetSave.formatRefusedNotice(format.displayName, path: shownPath))
        }
        let rewritten: LRCOffsetRewrite.Rewritten
        switch LRCOffsetRewrite.rewrite(bytes, adding: milliseconds, mode: mode) {
        case .success(let result): rewritten = result
        case .failure(.notUTF8): return .refused(notice: OffsetSave.notUTF8Notice(shownPath))
        case .failure(.offsetTooLarge(let offset)): return .refused(notice: OffsetSave.tooLargeNotice(offset))
        }
        guard rewritten.changed else { return .unchanged(file: name) }
        var info = stat()
        guard stat(target, &info) == 0 else {
            return .refused(notice: OffsetSave.failedNotice("\(shownPath): \(LyricFile.describe(errno))"))
        }
        // The rename would replace a file its owner made read-only: that says "leave it".
        guard access(target, W_OK) == 0 else {
            return .refused(notice: OffsetSave.failedNotice("\(shownPath): \(LyricFile.describe(errno))"))
        }
        let permissions = info.st_mode & 0o7777
        // The first save keeps the file as it was; a backup already there (an older save's) is never replaced.
        let backup = target + ".bak"
        var backupMade = false
        var backupInfo = stat()
        if lstat(backup, &backupInfo) != 0 {
            if case .failure(let failure) = TextFile.save(bytes, to: backup, replacing: false, mode: permissions) {
                return .refused(notice: OffsetSave.failedNotice(shown(failure.message, target, as: shownPath)))
            }
            backupMade = true
        }
        if case .failure(let failure) = TextFile.save(rewritten.bytes, to: target, replacing: true, mode: permissions) {
            return .refused(notice: OffsetSave.failedNotice(shown(failure.message, target, as: shownPath)))
        }
        let notice = OffsetSave.savedNotice(
            milliseconds, to: name, mode: mode, clampedStamps: rewritten.clampedStamps,
            backup: backupMade ? lastComponent(backup) : nil)
        // Read back as it was read at the start, so what plays is what the file now says.
        switch LyricFile.load(target, maxSize: maxSize, encoding: encoding) {
        case .success(let loaded):
            guard case .timed(let song) = loaded.shown(showsTranslations: showsTranslations) else { break }
            return .saved(song, notice: notice)
        case .failure:
            break
        }
        return .refused(notice: notice + "; reading it back failed, so the lyrics keep the old timing")
    }

    /// `message` naming the file as the user named it rather than by its resolved path (`/tmp/x/…`),
    /// which the status bar has no room for.
    private func shown(_ message: String, _ resolved: String, as given: String) -> String {
        let resolvedShown = ControlCharacters.strip(resolved)
        guard message.hasPrefix(resolvedShown) else { return message }
        return given + message.dropFirst(resolvedShown.count)
    }

    /// The last component of `path`, as shown: a backup is named by its own name, which is a link's
    /// target's, not the link's.
    private func lastComponent(_ path: String) -> String {
        let shown = ControlCharacters.strip(path)
        return shown.split(separator: "/").last.map(String.init) ?? shown
    }
}
