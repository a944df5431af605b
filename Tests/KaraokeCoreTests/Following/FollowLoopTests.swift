import Testing
@testable import KaraokeCore

/// The monotonic time the fake clock starts at: not 0, so anchoring mistakes show.
private let t0 = 500.0

private let track = FollowedTrack(
    id: "/org/mpd/1", title: "Clockwork", artist: "The Gears", album: "Springs", length: 120,
    file: "/music/clockwork.flac")

private func report(
    _ playback: FollowedPlayback, at position: Double?, track: FollowedTrack? = track, rate: Double = 1
) -> FollowMessage.Report {
    FollowMessage.Report(PlayerReport(player: "mpv", track: track, playback: playback, position: position, rate: rate))
}

extension FollowMessage {
    /// A report made at a time given later (only to keep the tests short).
    fileprivate struct Report {
        var report: PlayerReport
        init(_ report: PlayerReport) { self.report = report }
        func at(_ time: Double) -> FollowLoop.Event { .player(.report(report, at: time)) }
    }
}

private func loop(reduceMotion: Bool = false) -> FollowLoop {
    var options = FrameOptions()
    options.reduceMotion = reduceMotion
    var loop = FollowLoop(options: options, columns: 60, rows: 16, framesPerSecond: 30, now: t0)
    _ = loop.start(at: t0)
    return loop
}

private func song() throws -> Song { try Fixtures.song(text: Fixtures.clockwork) }

private func lookUps(_ effects: [FollowLoop.Effect]) -> [FollowedTrack] {
    effects.compactMap { if case .lookUp(let track) = $0 { track } else { nil } }
}

private func commands(_ effects: [FollowLoop.Effect]) -> [PlayerCommand] {
    effects.compactMap { if case .command(let command) = $0 { command } else { nil } }
}

private func lastFrame(_ effects: [FollowLoop.Effect]) -> Frame? {
    effects.compactMap { if case .screen(.paint(let frame)) = $0 { frame } else { nil } }.last
}

private func waits(_ effects: [FollowLoop.Effect]) -> [Double?] {
    effects.compactMap { if case .screen(.wait(let until)) = $0 { until } else { nil } }
}

@Suite struct FollowLoopTests {
    @Test func beforeAnyReportTheScreenSaysItIsLookingForAPlayer() {
        var loop = FollowLoop(options: FrameOptions(), columns: 60, rows: 16, framesPerSecond: 30, now: t0)
        let frame = lastFrame(loop.start(at: t0))
        #expect(frame?.rows.contains { $0.text.contains(FollowLoop.lookingForPlayer) } == true)
    }

    @Test func aNewTrackIsLookedUpOnceAndItsLyricsReplaceTheMessage() throws {
        var loop = loop()
        let first = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        #expect(lookUps(first) == [track])
        #expect(lastFrame(first)?.rows.contains { $0.text.contains("The Gears — Clockwork") } == true)
        // Reports of the same track look nothing up again.
        let again = loop.handle(report(.playing, at: 11).at(t0 + 2), at: t0 + 2)
        #expect(lookUps(again).isEmpty)
        let answer = loop.handle(.lyrics(.timed(try song()), title: "x", notice: nil, for: track), at: t0 + 2)
        #expect(loop.content == .timed(try song()))
        #expect(lastFrame(answer)?.rows.contains { $0.kind == .lyric } == true)
    }

    @Test func anAnswerForATrackNoLongerPlayingIsIgnored() throws {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        var next = track
        next.id = "/org/mpd/2"
        next.title = "Pendulum"
        _ = loop.handle(report(.playing, at: 0, track: next).at(t0 + 2), at: t0 + 2)
        _ = loop.handle(.lyrics(.timed(try song()), title: "x", notice: nil, for: track), at: t0 + 3)
        guard case .message(let text) = loop.content else {
            Issue.record("the stale answer replaced the message: \(loop.content)")
            return
        }
        #expect(text.contains("Pendulum"))
    }

    @Test func aTitleThatChangesForTheSameTrackIsLookedUpAgain() {
        // mpv-mpris first gives the file name as the title, then the tag's.
        var loop = loop()
        var early = track
        early.title = "clockwork.flac"
        _ = loop.handle(report(.playing, at: 0.1, track: early).at(t0 + 1), at: t0 + 1)
        let later = loop.handle(report(.playing, at: 1.1).at(t0 + 2), at: t0 + 2)
        #expect(lookUps(later) == [track])
    }

    @Test(arguments: [0.0, 7.5, 61.25])
    func theClockExtrapolatesFromTheLastReportWhilePlaying(position: Double) {
        var loop = loop()
        _ = loop.handle(report(.playing, at: position).at(t0 + 1), at: t0 + 1.01)
        #expect(abs(loop.position(at: t0 + 3) - (position + 2)) < 1e-9)
    }

    @Test(arguments: [0.5, 1.5, 2.0])
    func theClockRunsAtThePlayersRate(rate: Double) {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10, rate: rate).at(t0 + 1), at: t0 + 1)
        #expect(abs(loop.position(at: t0 + 5) - (10 + 4 * rate)) < 1e-9)
    }

    @Test func aPauseStopsTheClockWhereThePlayerSays() {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        _ = loop.handle(report(.paused, at: 14.2).at(t0 + 5), at: t0 + 5)
        #expect(loop.position(at: t0 + 5) == 14.2)
        #expect(loop.position(at: t0 + 50) == 14.2)
        #expect(!loop.isPlaying)
    }

    @Test func aSeekFromOutsideIsFollowedAtOnce() {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        _ = loop.handle(report(.playing, at: 40).at(t0 + 2), at: t0 + 2)
        #expect(abs(loop.position(at: t0 + 2) - 40) < 1e-9)
    }

    @Test func aSmallDisagreementIsAbsorbedWithoutAJump() {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        _ = loop.handle(report(.playing, at: 11.1).at(t0 + 2), at: t0 + 2)
        // The clock said 11.0; the player 11.1: absorbed at most 0.1 s a second.
        #expect(abs(loop.position(at: t0 + 2) - 11.0) < 1e-9)
        #expect(abs(loop.position(at: t0 + 3) - 12.1) < 1e-9)
    }

    @Test(arguments: [
        (Key.character(" "), PlayerCommand.playPause), (.left, .jump(by: -5)), (.right, .jump(by: 5)),
        (.character("n"), .next), (.character("N"), .previous), (.home, .seek(to: 0)),
    ])
    func thePlayersKeysGoToThePlayer(key: Key, command: PlayerCommand) {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        #expect(commands(loop.handle(.key(key), at: t0 + 2)) == [command])
    }

    @Test func theLineKeysAskThePlayerForTheLinesStart() throws {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 0).at(t0), at: t0)
        _ = loop.handle(.lyrics(.timed(try song()), title: "x", notice: nil, for: track), at: t0)
        let song = try song()
        let next = (LyricClock.currentLine(in: song, at: 0) ?? -1) + 1
        let expected = Double(song.lines[next].start - song.metadata.offset) / 1000 + 0.000_001
        #expect(commands(loop.handle(.key(.down), at: t0)) == [.seek(to: expected)])
    }

    @Test func withoutAPlayerTheKeysDoNothingButSaySo() {
        var loop = loop()
        let effects = loop.handle(.key(.character(" ")), at: t0 + 1)
        #expect(commands(effects).isEmpty)
        #expect(lastFrame(effects)?.rows.last?.text.contains("no player") == true)
    }

    @Test func rSaysWhetherReduceMotionIsOnOrOff() {
        var loop = loop()
        let on = loop.handle(.key(.character("r")), at: t0 + 1)
        #expect(lastFrame(on)?.rows.last?.text.hasSuffix("reduce motion on") == true)
        let off = loop.handle(.key(.character("r")), at: t0 + 2)
        #expect(lastFrame(off)?.rows.last?.text.hasSuffix("reduce motion off") == true)
    }

    @Test func quittingLeavesThePlayerAlone() {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        #expect(loop.handle(.key(.character("q")), at: t0 + 2) == [.exit(0)])
    }

    @Test func whenThePlayerGoesTheScreenWaitsForOne() {
        var loop = loop()
        _ = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        let effects = loop.handle(.player(.gone("waiting for a player…")), at: t0 + 2)
        #expect(loop.report == nil)
        #expect(lastFrame(effects)?.rows.contains { $0.text.contains("waiting for a player…") } == true)
        // It comes back: the track is looked up again.
        #expect(lookUps(loop.handle(report(.playing, at: 10).at(t0 + 3), at: t0 + 3)) == [track])
    }

    @Test func theStatusBarNamesThePlayerItsStateAndTheTrack() {
        var loop = loop()
        let effects = loop.handle(report(.paused, at: 10).at(t0 + 1), at: t0 + 1)
        let status = lastFrame(effects)?.rows.last?.text ?? ""
        #expect(status.contains("⏸"))
        #expect(status.contains("mpv: The Gears — Clockwork"))
    }

    @Test func pausedUnderReduceMotionTheLoopSleepsUntilSomethingHappens() {
        var loop = loop(reduceMotion: true)
        let effects = loop.handle(report(.paused, at: 10).at(t0 + 1), at: t0 + 1)
        #expect(waits(effects) == [nil])
    }

    @Test func pausedUnderReduceMotionANoticeIsClearedWhenItsTimeIsUp() throws {
        var loop = loop(reduceMotion: true)
        _ = loop.handle(report(.paused, at: 10).at(t0 + 1), at: t0 + 1)
        let shown = loop.handle(.player(.notice("mpv refused Seek")), at: t0 + 2)
        #expect(lastFrame(shown)?.rows.last?.text.contains("mpv refused Seek") == true)
        let until = try #require(waits(shown).last ?? nil)
        #expect(until == t0 + 2 + FollowLoop.noticeDuration)
        let cleared = loop.handle(.tick, at: until)
        #expect(lastFrame(cleared)?.rows.last?.text.contains("mpv: The Gears — Clockwork") == true)
        #expect(waits(cleared) == [nil])
    }

    /// A message on screen does not sweep: the next change is the title's next colour step.
    @Test func playingTheLoopWaitsForTheNextChange() {
        var loop = loop()
        let effects = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        guard let until = waits(effects).last ?? nil else {
            Issue.record("expected a deadline")
            return
        }
        #expect(until > t0 + 1 && until <= t0 + 1 + 1.0 / LoopClock.titleStepsPerSecond + 1e-9)
    }

    @Test func theStatusTotalIsTheTracksLength() {
        var loop = loop()
        let effects = loop.handle(report(.playing, at: 10).at(t0 + 1), at: t0 + 1)
        #expect(lastFrame(effects)?.rows.last?.text.contains("/ 2:00") == true)
    }

    @Test(arguments: [
        (FollowedTrack(id: "1", title: "T", artist: "A"), "A — T"),
        (FollowedTrack(id: "1", title: "T"), "T"),
        (FollowedTrack(id: "1", file: "/m/x/song.ogg"), "song.ogg"),
        (FollowedTrack(id: "1", location: "http://radio/stream"), "stream"),
    ])
    func aTrackIsNamedByWhatIsKnown(track: FollowedTrack, name: String) {
        #expect(FollowLoop.name(of: track) == name)
    }
}
