import Testing
@testable import KaraokeCore

/// A word-timed duet with a long wrapped line, a pause long enough for a count-in and a right-to-left line,
/// so the kept rows meet every way a line is placed.
private let mixedSong = """
    [ti:Kept rows]
    [00:01.00]v1: <00:01.00>first <00:01.40>line <00:01.90>of <00:02.20>the <00:02.60>duet
    [00:03.00]v2: <00:03.00>a <00:03.20>second <00:03.60>line <00:04.00>that <00:04.40>wraps <00:04.80>over \
    <00:05.20>several <00:05.60>rows <00:06.00>on <00:06.40>a <00:06.80>narrow <00:07.20>screen <00:07.60>indeed
    [00:14.00]שלום <00:14.60>עולם <00:15.20>ושוב
    [00:16.00]v1: last one
    [00:18.00]
    """

@Suite("Kept lyric rows")
struct KeptLyricRowsTests {
    /// Moments of a play at about 30 frames a second with pauses and seeks both ways, on a step that is no
    /// whole fraction of a second, so lines start and glides end between frames at odd moments.
    static func moments(seconds: Double) -> [(time: Double, paused: Bool)] {
        var result: [(Double, Bool)] = []
        var time = -0.4
        var frame = 0
        while time < seconds + 1 {
            let paused = (frame / 40) % 5 == 4
            result.append((time, paused))
            frame += 1
            if frame % 89 == 0 {
                time -= 3.1
            } else if frame % 151 == 0 {
                time += 6.7
            } else if !paused {
                time += 1.0 / 30.3
            }
        }
        return result
    }

    /// Composes `moments` with `kept` and with `placed`, whose kept rows are dropped before every frame so
    /// each of its frames is placed from scratch (its laid-out lines, title and status memos stay, as they
    /// are checked elsewhere), and records the frames that differ. Returns how many frames `kept` composed
    /// from its kept rows.
    static func compare(
        _ kept: inout FrameComposer, _ placed: inout FrameComposer, moments: [(time: Double, paused: Bool)],
        reduceMotion: Bool = false, label: String
    ) -> Int {
        var reused = 0
        var mismatches = 0
        for moment in moments {
            let input = FrameInput(time: moment.time, paused: moment.paused, reduceMotion: reduceMotion)
            let before = kept.lastLyricRows?.key
            let keptFrame = kept.frame(input)
            if before != nil && kept.lastLyricRows?.key == before { reused += 1 }
            placed.lastLyricRows = nil
            let placedFrame = placed.frame(input)
            if keptFrame != placedFrame {
                mismatches += 1
                let rows = keptFrame.rows.indices.filter { keptFrame.rows[$0] != placedFrame.rows[$0] }
                Issue.record("\(label), at \(moment.time) s: rows \(rows) differ")
                if mismatches > 3 { break }
            }
        }
        return reused
    }

    @Test(
        "with note lanes, a composer that keeps the last frame's rows composes the frame placed from scratch",
        arguments: [(80, 24), (60, 12)])
    func keptEqualsPlacedWithLanes(size: (columns: Int, rows: Int)) throws {
        let parts = LaneFixtures.duet
        let song = try LaneFixtures.song(title: "Two Voices", parts: parts)
        let track = LaneFixtures.track(parts: parts)
        func composer() -> FrameComposer {
            FrameComposer(
                song: song, fallbackTitle: "lanes.txt", columns: size.columns, rows: size.rows,
                options: FrameOptions(), lanes: NoteLanes(track: track, parts: [.part(0), .part(1)]))
        }
        var kept = composer()
        var placed = composer()
        #expect(kept.laneRows > 0)
        let moments = Self.moments(seconds: Double(song.duration) / 1000)
        let reused = Self.compare(&kept, &placed, moments: moments, label: "\(size)")
        #expect(reused > moments.count / 4, "\(reused) of \(moments.count) frames from kept rows")
    }

    @Test(
        "a composer that keeps the last frame's lyric rows composes the frame placed from scratch",
        arguments: [
            "lantern-river.lrc", "desert-stars.lrc", "natsu-no-yoru.lrc", "paper-boats.lrc", "hangang-night.lrc", nil,
        ],
        [(100, 30), (40, 12), (24, 6), (14, 5)])
    func keptEqualsPlaced(file: String?, size: (columns: Int, rows: Int)) throws {
        let song = try file.map { try Fixtures.song($0) } ?? Fixtures.song(text: mixedSong)
        let moments = Self.moments(seconds: min(60, Double(song.duration) / 1000))
        for reduceMotion in [false, true] {
            var options = FrameOptions()
            options.reduceMotion = reduceMotion
            var kept = FrameComposer(
                song: song, fallbackTitle: "kept", columns: size.columns, rows: size.rows, options: options)
            var placed = kept
            let reused = Self.compare(
                &kept, &placed, moments: moments, reduceMotion: reduceMotion,
                label: "\(size) reduce motion \(reduceMotion)")
            #expect(reused > moments.count / 4, "\(reused) of \(moments.count) frames from kept rows")
        }
    }

    @Test("a composer placing every frame from scratch makes the frames a fresh composer makes")
    func placedEqualsFresh() throws {
        // `compare` reuses the reference composer's laid-out lines and memos; a fresh composer for a sample
        // of moments shows those keep nothing that changes a frame.
        let song = try Fixtures.song(text: mixedSong)
        var placed = FrameComposer(song: song, fallbackTitle: "kept", columns: 40, rows: 12, options: FrameOptions())
        for (index, moment) in Self.moments(seconds: Double(song.duration) / 1000).enumerated() where index % 7 == 0 {
            var fresh = FrameComposer(song: song, fallbackTitle: "kept", columns: 40, rows: 12, options: FrameOptions())
            let input = FrameInput(time: moment.time, paused: moment.paused)
            placed.lastLyricRows = nil
            #expect(placed.frame(input) == fresh.frame(input), "at \(moment.time) s")
        }
    }
}
