import KaraokeCore

/// GNU Unifont's `.hex` file, the font of big lyrics (DESIGN §23.1): read on first use, through one source
/// that every screen of the run shares.
enum UnifontFile {
    /// Where Debian's `unifont` package puts it.
    static let path = "/usr/share/unifont/unifont.hex"

    /// The source every composer asks; nothing is read until a size of 2 or more is shown.
    static let source = BigFontSource(read: {
        // 64 MB: the file is 4 MB today; a larger one is not a font we know.
        guard case .success(let bytes) = LyricFile.read(path, maxSize: 64 * 1_048_576) else { return nil }
        return bytes
    })

    /// `options` with the font's source set.
    static func withFont(_ options: FrameOptions) -> FrameOptions {
        var options = options
        options.bigFont = source
        return options
    }
}
