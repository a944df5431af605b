extension Playlist {
    /// `path` as a playlist means it, for messages: lexically normalised, so `pl/../tone.wav` reads `tone.wav`.
    ///
    /// Only the text changes, and only in these ways:
    /// 1. Empty components and `.` go (`a//./b` → `a/b`), and so does a trailing `/`.
    /// 2. `..` takes away the component before it (`pl/../tone.wav` → `tone.wav`).
    /// 3. `..` at the root stays the root (`/../a` → `/a`); at the start of a relative path it stays
    ///    (`../a` → `../a`), since nothing before it is known.
    /// 4. A relative path that comes to nothing is `.`.
    ///
    /// The file is still opened by the path as written: `a/..` is not `.` when `a` is a symbolic link.
    public static func shownPath(_ path: String) -> String {
        guard !path.isEmpty else { return path }
        let isAbsolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..":
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append(part)
                }
            default: parts.append(part)
            }
        }
        let joined = parts.joined(separator: "/")
        if isAbsolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }
}
