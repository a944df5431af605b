import Testing
@testable import KaraokeCore

private let songText = """
    [ti:Clockwork]
    [00:02.00]one
    [00:05.00]two
    [00:09.00]three
    [00:14.00]four
    """

private let t0 = 1_000.0

private func player(start: Double = 0, audio: AudioStatus = .starting) throws -> PlayerState {
    PlayerState(song: try Fixtures.song(text: songText), start: start, now: t0, audio: audio, volume: 80)
}

/// What the player tells mpv, and what mpv's reports do to the lyrics.
@Suite("The player with audio")
struct PlayerAudioTests {
    @Test("while mpv starts, the lyrics wait at the start; the first position starts them")
    func waitsForFirstPosition() throws {
        var state = try player(start: 3)
        #expect(state.position(at: t0 + 2) == 3)
        state.receive(.position(3.01), at: t0 + 2)
        #expect(state.audio == .playing)
        #expect(abs(state.position(at: t0 + 3) - 4.01) < 1e-9)
    }

    @Test("pause and seek keys go to mpv; the offset keys do not")
    func keysBecomeCommands() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        #expect(state.apply(.togglePause, at: t0 + 1) == [.setPaused(true)])
        #expect(state.apply(.togglePause, at: t0 + 2) == [.setPaused(false)])
        #expect(state.apply(.seek(5), at: t0 + 3) == [.seek(to: 7)])
        #expect(state.apply(.nextLine, at: t0 + 3) == [.seek(to: 9.000_001)])
        #expect(state.apply(.restart, at: t0 + 3) == [.seek(to: 0)])
        #expect(state.apply(.adjustOffset(100), at: t0 + 3) == [])
        #expect(state.userOffset == 100)
    }

    @Test("volume keys step by 5 within 0…130, mute toggles, and the status bar says so")
    func volumeAndMute() throws {
        var state = try player()
        #expect(state.apply(.changeVolume(5), at: t0) == [.setMuted(false), .setVolume(85)])
        #expect(state.noticeText(at: t0 + 1) == "volume 85%")
        #expect(state.noticeText(at: t0 + PlayerState.noticeDuration + 0.1) == nil)
        for _ in 0..<20 { state.apply(.changeVolume(-5), at: t0) }
        #expect(state.volume == 0)
        for _ in 0..<40 { state.apply(.changeVolume(5), at: t0) }
        #expect(state.volume == 130)
        #expect(state.apply(.toggleMute, at: t0 + 2) == [.setMuted(true)])
        #expect(state.noticeText(at: t0 + 2) == "muted")
    }

    @Test("without audio no command is sent, and the volume keys say there is no audio")
    func silentSendsNothing() throws {
        var state = try player(audio: .none)
        #expect(state.apply(.togglePause, at: t0) == [])
        #expect(state.apply(.seek(5), at: t0) == [])
        #expect(state.apply(.changeVolume(5), at: t0) == [])
        #expect(state.noticeText(at: t0) == "no audio")
    }

    @Test("the song ends when the audio has ended and the lyrics too, not before")
    func endsWithTheAudio() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        state.receive(.duration(30), at: t0)
        #expect(state.duration == 30, "the audio is longer than the lyrics' own estimate")
        #expect(!state.hasEnded(at: t0 + 31), "mpv has not said the audio ended")
        state.receive(.reachedEnd, at: t0 + 31)
        #expect(state.hasEnded(at: t0 + 31))
    }

    @Test("audio shorter than the lyrics: the lyrics go on to their own end after the audio's")
    func lyricsOutlastAudio() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        state.receive(.duration(4), at: t0)
        state.receive(.reachedEnd, at: t0 + 4)
        #expect(!state.hasEnded(at: t0 + 5))
        #expect(state.hasEnded(at: t0 + state.duration + 0.01))
    }

    @Test("seeking back after the audio's end plays it again")
    func seekBackAfterEnd() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        state.receive(.duration(10), at: t0)
        state.receive(.reachedEnd, at: t0 + 10)
        #expect(state.apply(.seek(-5), at: t0 + 10) == [.seek(to: 5), .setPaused(false)])
        #expect(state.audio == .playing)
    }

    @Test("mpv failing or dying: a notice, and the lyrics go on silently from where they were")
    func losingTheAudio() throws {
        var state = try player()
        state.receive(.position(1), at: t0)
        state.receive(.failed("unrecognized file format"), at: t0 + 2)
        #expect(state.audio == .lost)
        #expect(state.noticeText(at: t0 + 2)?.contains("unrecognized file format") == true)
        #expect(abs(state.position(at: t0 + 4) - 5) < 1e-9)
        #expect(state.apply(.togglePause, at: t0 + 4) == [])
        state.receive(.position(50), at: t0 + 5)
        #expect(state.position(at: t0 + 5) == 5, "a lost mpv's reports are ignored")
    }

    @Test("mpv that never starts: the waiting lyrics start from where they waited")
    func neverStarts() throws {
        var state = try player(start: 2)
        state.lose("mpv did not start; playing without sound", at: t0 + 10)
        #expect(state.position(at: t0 + 11) == 3)
    }
}
