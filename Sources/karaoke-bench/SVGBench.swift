import Foundation
import KaraokeCore

/// The row for an animated SVG (DESIGN §27.2): composing and recording 20 s of `songPath` at 80×24 and 30 fps,
/// what `render --format svg` does for a README's picture, and the picture's size.
func svgRows(songPath: String, runs: Int) -> [(String, String, String, String)] {
    guard let songBytes = FileManager.default.contents(atPath: songPath).map({ [UInt8]($0) }),
        let song = LyricsReader.parse(
            songBytes, file: songPath, format: LyricFormat.detect(utf8: songBytes, fileName: songPath)
        ).song
    else { return [("SVG recording", "not run", "cannot read \(songPath)", "")] }
    let name = (songPath as NSString).lastPathComponent
    var bytes = 0
    let times = measure(runs) {
        var composer = FrameComposer(song: song, fallbackTitle: name, columns: 80, rows: 24, options: FrameOptions())
        var recording = SVGRecording(columns: 80, rows: 24, options: FrameOptions())
        for k in 0..<600 {
            let seconds = Double(k) / 30
            recording.append(composer.frame(at: seconds), at: seconds)
        }
        bytes = recording.svg(duration: 20).utf8.count
    }
    return [
        (
            "SVG of \(name) 0–20 s, 80×24, 30 fps (600 frames)", "\(fixed(median(times) * 1e3)) ms median",
            "\(fixed(Double(bytes) / 1000)) KB, \(count(600 / median(times))) frames/s", "under 1 MB"
        )
    ]
}
