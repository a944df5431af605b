import Glibc
import KaraokeCore

/// LRCLIB's answers kept on disk under `$XDG_CACHE_HOME/karaoke/lrclib/` (DESIGN §11), hits and misses,
/// so a song is asked for once and a cached one needs no network.
struct LRCLIBCache {
    /// The folder of the entries.
    let folder: String

    /// The cache of this user: `$XDG_CACHE_HOME/karaoke/lrclib`, else `~/.cache/karaoke/lrclib`; nil
    /// without a home folder (no cache then, every lookup asks).
    static func standard() -> LRCLIBCache? {
        let environment = { (name: String) -> String? in getenv(name).map { String(cString: $0) } }
        // The XDG base directory rules: a relative path is ignored.
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") {
            return LRCLIBCache(folder: cache + "/karaoke/lrclib")
        }
        guard let home = environment("HOME"), home.hasPrefix("/") else { return nil }
        return LRCLIBCache(folder: home + "/.cache/karaoke/lrclib")
    }

    /// The entry for `key`, when there is a readable one that has not expired; a corrupt entry is as none.
    func entry(_ key: String) -> LRCLIBCacheEntry? {
        let path = folder + "/" + key
        guard case .success(let bytes) = LyricFile.read(path, maxSize: 2 * HTTPClient.sizeLimit),
            let entry = LRCLIBCacheEntry.decode(bytes)
        else { return nil }
        if entry == .missing {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let age = Double(time(nil) - info.st_mtim.tv_sec)
            if age > LRCLIBCacheEntry.missExpiry { return nil }
        }
        return entry
    }

    /// Keeps `bytes` (an encoded `LRCLIBCacheEntry`) as the entry for `key`, written whole or not at all;
    /// a cache that cannot be written is no reason to fail the lookup, so failures are ignored.
    func store(_ key: String, _ bytes: [UInt8]) {
        guard TextFile.makeFolders(folder) else { return }
        _ = TextFile.save(bytes, to: folder + "/" + key, replacing: true)
    }
}
