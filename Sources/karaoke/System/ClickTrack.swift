import Glibc
import KaraokeCore
import KaraokeDriver

/// A WAV of clicks in a private folder of its own (0700, under /tmp), removed with `remove()`, and mpv playing
/// it: how `sync --calibrate` and `calibrate` start.
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

    /// Writes `wav` and starts `executable` (mpv) playing it from the start with `extraOptions`; the failure's
    /// message follows `karaoke: `, and nothing is left behind then.
    static func play(
        _ wav: [UInt8], executable: String, extraOptions: [String], wake: WakePipe? = nil
    ) -> Result<(track: ClickTrack, audio: MpvPlayer), LyricFile.Failure> {
        write(wav).flatMap { track in
            do throws(MpvPlayer.Failure) {
                let audio = try MpvPlayer(
                    executable: executable, audioFile: track.path, start: 0, paused: false, volume: 100,
                    extraOptions: extraOptions, wake: wake)
                return .success((track, audio))
            } catch {
                track.remove()
                return .failure(.init(message: error.message))
            }
        }
    }

    /// Removes the WAV and its folder.
    func remove() {
        unlink(path)
        rmdir(folder)
    }
}
