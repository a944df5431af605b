import Glibc
import KaraokeCore

/// A WAV of clicks in a private folder of its own (0700, under /tmp), removed with `remove()`: what `sync
/// --calibrate` and `calibrate` play through mpv.
struct ClickTrack {
    /// The WAV's path.
    let path: String
    /// The folder that holds it.
    private let folder: String

    /// Writes `wav` to a new private folder; the failure's message follows `karaoke: `.
    static func write(_ wav: [UInt8]) -> Result<ClickTrack, LyricFile.Failure> {
        var template = Array("/tmp/karaoke-clicks-XXXXXX".utf8CString)
        guard let folderPointer = mkdtemp(&template) else {
            return .failure(.init(message: "cannot make a folder for the clicks in /tmp: \(LyricFile.describe(errno))"))
        }
        let track = ClickTrack(
            path: String(cString: folderPointer) + "/clicks.wav", folder: String(cString: folderPointer))
        if case .failure(let failure) = TextFile.save(wav, to: track.path, replacing: false) {
            track.remove()
            return .failure(failure)
        }
        return .success(track)
    }

    /// Removes the WAV and its folder.
    func remove() {
        unlink(path)
        rmdir(folder)
    }
}
