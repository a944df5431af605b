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
        try check(file: file, reduceMotion: reduceMotion, shown: FrameInput(time: 0))
    }

    @Test(
        "with a notice, an offset and the singer's settings in the status bar, the change named is still exact",
        arguments: [
            ("lantern-river.lrc", true), ("paper-boats.lrc", true), ("harbour-bells.srt", true),
        ])
    func noChangeBeforeTheNamedOneWithMessages(file: String, reduceMotion: Bool) throws {
        for notice in ["volume 85%", "mpv: audio output initialization failed; playing without sound"] {
            try check(
                file: file, reduceMotion: reduceMotion,
                shown: FrameInput(time: 0, notice: notice, userOffset: 300, singing: "key +2  tempo 0.85×"))
        }
    }

    /// Walks `file`'s song from change to change as the composer names them, the frame showing what `shown`
    /// shows besides its time, and checks that the frame is the same up to each change.
    private func check(file: String, reduceMotion: Bool, shown: FrameInput) throws {
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
            func input(_ time: Double) -> FrameInput {
                var input = shown
                input.time = time
                input.titleTime = 0
                input.reduceMotion = reduceMotion
                return input
            }
            while time < end {
                let change = composer.nextChange(for: input(time))
                let frame = composer.frame(input(time))
                switch change {
                case .continuous:
                    #expect(!reduceMotion, "reduce motion never sweeps, at \(time) in \(file)")
                    time += 0.37
                case .never:
                    let later = composer.frame(input(end + 10))
                    #expect(later.rows == frame.rows, "\(file) changed after .never at \(time)")
                    time = end
                case .at(let next):
                    #expect(next > time, "\(file): a change at \(next) is not after \(time)")
                    // Just before the change (its margin off), and half-way there, the frame is the same; a change
                    // due at `time` itself is named a margin later and has no moment before it to probe.
                    let last = next - 2 * FrameComposer.changeMargin
                    for probe in [time + (last - time) / 2, last] where probe > time {
                        let before = composer.frame(input(probe))
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
