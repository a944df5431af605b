import Foundation
import Testing

@testable import KaraokeCore

/// `FrameComposer.nextChange` against the frames themselves: whatever it says, the frame must not change
/// before the change it names (or ever, for `.never`). It may change later than that, or not at all at it.
@Suite("The composer knows when its frame next changes")
struct FrameChangeTests {
    @Test(
        "no frame changes before the change the composer names",
        arguments: [
            ("lantern-river.lrc", false), ("lantern-river.lrc", true), ("paper-boats.lrc", true),
            ("desert-stars.lrc", true), ("harbour-bells.txt", true), ("harbour-bells.srt", false),
            ("sakura-station.lrc", true), ("paper-boats.lrc", false),
        ])
    func noChangeBeforeTheNamedOne(file: String, reduceMotion: Bool) throws {
        let url = Fixtures.repository.appendingPathComponent("lyrics/\(file)")
        guard FileManager.default.fileExists(atPath: url.path) else { return }
        let bytes = Array(try Data(contentsOf: url))
        let song = try #require(LyricsReader.parse(bytes, file: file).song)
        var options = FrameOptions()
        options.reduceMotion = reduceMotion
        for (columns, rows) in [(80, 24), (40, 12), (100, 30)] {
            var composer = FrameComposer(
                song: song, fallbackTitle: file, columns: columns, rows: rows, options: options)
            var time = -1.0
            let end = Double(song.duration) / 1000 + 2
            var checked = 0
            while time < end {
                let change = composer.nextChange(after: time, userOffset: 0, reduceMotion: reduceMotion)
                let frame = composer.frame(at: time, titleTime: 0, reduceMotion: reduceMotion)
                switch change {
                case .continuous:
                    #expect(!reduceMotion, "reduce motion never sweeps, at \(time) in \(file)")
                    time += 0.37
                case .never:
                    let later = composer.frame(at: end + 10, titleTime: 0, reduceMotion: reduceMotion)
                    #expect(later.rows == frame.rows, "\(file) changed after .never at \(time)")
                    time = end
                case .at(let next):
                    #expect(next > time, "\(file): a change at \(next) is not after \(time)")
                    // Just before the change (its margin off), and half-way there, the frame is the same; a change
                    // due at `time` itself is named a margin later and has no moment before it to probe.
                    let last = next - 2 * FrameComposer.changeMargin
                    for probe in [time + (last - time) / 2, last] where probe > time {
                        let before = composer.frame(at: probe, titleTime: 0, reduceMotion: reduceMotion)
                        #expect(
                            before.rows == frame.rows, "\(file) \(columns)×\(rows) changed at \(probe) before \(next)")
                    }
                    checked += 1
                    time = max(next, time + 0.001)
                }
            }
            if reduceMotion { #expect(checked > 20) }
        }
    }
}

extension FrameComposer {
    /// The frame at `time` with the title held and reduce motion as given (the options' user offset).
    fileprivate mutating func frame(at time: Double, titleTime: Double, reduceMotion: Bool) -> Frame {
        frame(FrameInput(time: time, titleTime: titleTime, reduceMotion: reduceMotion))
    }
}
