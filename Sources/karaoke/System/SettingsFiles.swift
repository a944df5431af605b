import Glibc
import KaraokeCore

/// The config file and the remembered offsets and vocals levels on disk (DESIGN §14.4); what they mean is the
/// core's `ConfigFile` and `OffsetMemory`.
enum SettingsFiles {
    /// The most a config file or the offsets file is read: either is a few kilobytes when sane.
    static let maxSize = 1_048_576

    /// The user's config file, read; nil when there is none. One that cannot be read is a warning.
    static func config() -> ConfigFile? {
        guard let path = ConfigFile.standardPath(environment: TerminalInfo.environment) else { return nil }
        switch LyricFile.read(path, maxSize: maxSize) {
        case .success(let bytes):
            return ConfigFile(path: path, text: String(decoding: bytes, as: UTF8.self))
        case .failure(let failure):
            if errno != ENOENT {
                StandardStreams.err("karaoke: warning: \(ControlCharacters.strip(path)): \(failure.message)")
            }
            return nil
        }
    }

    /// The key of the lyric file at `path` in the offsets memory, or nil when it cannot be read.
    static func offsetKey(lyricFile path: String, maxSize: Int) -> String? {
        guard case .success(let bytes) = LyricFile.read(path, maxSize: maxSize) else { return nil }
        return OffsetMemory.key(content: bytes)
    }

    /// The remembered offsets or vocals levels; empty when there are none yet or the file cannot be read.
    static func memory(of setting: OffsetMemory.Setting) -> OffsetMemory {
        guard let path = OffsetMemory.standardPath(of: setting, environment: TerminalInfo.environment),
            case .success(let bytes) = LyricFile.read(path, maxSize: maxSize)
        else { return OffsetMemory(text: "", setting: setting) }
        return OffsetMemory(text: String(decoding: bytes, as: UTF8.self), setting: setting)
    }

    /// Remembers `value` of `setting` for the song `key` (the neutral value forgets it), read afresh and
    /// written whole through a temporary file and a rename, so another karaoke ending at once loses at most
    /// its own entry.
    static func remember(_ value: Int, of setting: OffsetMemory.Setting, for key: String) {
        guard let path = OffsetMemory.standardPath(of: setting, environment: TerminalInfo.environment),
            let slash = path.lastIndex(of: "/"), TextFile.makeFolders(String(path[..<slash]))
        else { return }
        var memory = memory(of: setting)
        let before = memory.value(for: key)
        memory.remember(value, for: key)
        guard memory.value(for: key) != before else { return }
        let what = setting == .offset ? "offset" : "vocals level"
        if case .failure(let failure) = TextFile.save(memory.text, to: path, replacing: true) {
            StandardStreams.err("karaoke: warning: the \(what) was not remembered: \(failure.message)")
        }
    }
}
