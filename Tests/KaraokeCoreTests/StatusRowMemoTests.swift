import Testing
@testable import KaraokeCore

/// One moment of a simulated play: what the status row is drawn from.
private struct Moment {
    /// Playback time in seconds.
    var time: Double
    /// Whether playback is paused.
    var paused: Bool
    /// The notice shown, if any.
    var notice: String?
    /// The user offset in milliseconds.
    var userOffset: Int
}

/// A play of `seconds` at 30 frames a second with pauses, seeks back and forth, notices that come and go and
/// offset changes, stepping on a scale that is not a whole fraction of a second so bar cells and seconds
/// change between frames at odd moments.
private func moments(seconds: Double, start: Double = -0.5) -> [Moment] {
    var result: [Moment] = []
    var time = start
    var frame = 0
    while time < seconds {
        let paused = (frame / 45) % 4 == 3
        let notice: String? =
            switch (frame / 20) % 5 {
            case 1: "volume 40 %"
            case 3: "mpv not found: playing without sound, which is a rather long notice to fit"
            default: nil
            }
        let userOffset = (frame / 70) % 3 == 1 ? -300 : (frame / 70) % 3 == 2 ? 1_250 : 0
        result.append(Moment(time: time, paused: paused, notice: notice, userOffset: userOffset))
        frame += 1
        if frame % 97 == 0 {
            time -= 4.3 // a seek back
        } else if frame % 131 == 0 {
            time += 9.7 // a seek forward
        } else if !paused {
            time += 1.0 / 30.3
        }
    }
    // Past the end, where the clock and the bar stop.
    result.append(Moment(time: seconds + 5, paused: false, notice: nil, userOffset: 0))
    result.append(Moment(time: seconds + 5.5, paused: false, notice: nil, userOffset: 0))
    return result
}

/// A short song, so on a wide screen the progress bar gains several cells a second.
private let shortSong = "[ti:Short]\n[00:00.50]<00:00.50>one <00:01.20>two\n[00:02.00]three\n[00:03.40]four\n"

@Suite("Status row memo")
struct StatusRowMemoTests {
    @Test(
        "the status row a composer keeps between frames equals the one a fresh composer builds",
        arguments: [nil, shortSong], [(24, 5), (40, 12), (80, 24), (100, 30), (200, 8), (12, 5)])
    func keptRowEqualsFresh(inline: String?, size: (columns: Int, rows: Int)) throws {
        let song = try inline.map { try Fixtures.song(text: $0) } ?? Fixtures.song("lantern-river.lrc")
        var kept = FrameComposer(
            song: song, fallbackTitle: "memo", columns: size.columns, rows: size.rows,
            options: FrameOptions())
        for moment in moments(seconds: Double(song.duration) / 1000) {
            var fresh = FrameComposer(
                song: song, fallbackTitle: "memo", columns: size.columns, rows: size.rows,
                options: FrameOptions())
            let input = FrameInput(
                time: moment.time, paused: moment.paused, notice: moment.notice, userOffset: moment.userOffset)
            let keptRow = kept.frame(input).rows.last
            let freshRow = fresh.frame(input).rows.last
            #expect(keptRow == freshRow, "\(size) at \(moment.time) s, notice \(moment.notice ?? "none")")
            if keptRow != freshRow { return }
        }
    }

    @Test("a song with no length keeps the row its status text gives", arguments: [30, 60, 120])
    func zeroLengthSong(columns: Int) throws {
        // An offset past the song's end leaves it no length: the bar has nothing to fill.
        let song = try Fixtures.song(text: "[offset:600000]\n[00:00.00]only\n")
        #expect(song.duration == 0)
        var kept = FrameComposer(song: song, fallbackTitle: "memo", columns: columns, rows: 10, options: FrameOptions())
        for moment in moments(seconds: 3) {
            let row = kept.frame(at: moment.time, paused: moment.paused, notice: moment.notice).rows.last
            let text = StatusBar.text(
                elapsed: moment.time, total: Double(song.duration) / 1000, paused: moment.paused,
                userOffset: 0, width: columns, notice: moment.notice)
            let cells = FrameComposer.cells(
                of: text, from: 0, limit: columns, role: .status,
                color: FrameOptions().theme.status)
            #expect(row?.cells == cells, "at \(moment.time) s")
        }
    }
}
