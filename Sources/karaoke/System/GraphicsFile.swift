import KaraokeCore

/// The CD+G graphics a FILE names: a `.cdg` file's bytes, or the one `.cdg` inside a zipped MP3+G song, read
/// into memory through libarchive (DESIGN §19.6).
enum GraphicsFile {
    /// The graphics' bytes, and for a zip the audio entry beside them.
    struct Loaded {
        var bytes: [UInt8]
        /// The name of the audio file inside the zip; nil for a `.cdg` file.
        var audioEntry: String?
    }

    /// The graphics of `file`, at most `maxSize` bytes, or the reason (the words after `karaoke: FILE: `).
    static func read(_ file: String, maxSize: Int) -> Result<Loaded, LyricFile.Failure> {
        guard MP3GFiles.isArchive(file) else {
            return LyricFile.read(file, maxSize: maxSize).map { Loaded(bytes: $0, audioEntry: nil) }
        }
        do throws(ZipArchive.Failure) {
            let pair: MP3GFiles.ArchivePair
            switch MP3GFiles.pair(in: try ZipArchive.entries(of: file)) {
            case .success(let found): pair = found
            case .failure(let problem): return .failure(LyricFile.Failure(message: problem.message))
            }
            let limit = min(maxSize, MP3GFiles.largestGraphics)
            let bytes = try ZipArchive.contents(of: pair.graphics, in: file, limit: limit)
            return .success(Loaded(bytes: bytes, audioEntry: pair.audio))
        } catch {
            return .failure(LyricFile.Failure(message: error.reason))
        }
    }
}
