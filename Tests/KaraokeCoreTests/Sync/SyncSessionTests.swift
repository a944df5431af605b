import Testing
@testable import KaraokeCore

/// The monotonic time the fake clock starts at: not 0, so anchoring mistakes show.
private let t0 = 500.0

/// Six short lines, the last two split into syllables for word mode.
private let script = SyncScript.plain("one two\nthree\nfour\nfive\nsi|x\nse|ven\n")

/// A silent session (its own clock runs from 0 at `t0`).
private func session(words: Bool = false, latency: Int = 0) -> SyncSession {
    SyncSession(script: script, wordMode: words, latency: latency, now: t0)
}

@Suite("Tapping along in sync")
struct SyncSessionTests {
    @Test("space stamps each line at the audio's time less the latency", arguments: [0, 120])
    func stampsAtAudioTime(latency: Int) {
        var sync = session(latency: latency)
        for (index, second) in [1.0, 2.5, 4.0].enumerated() {
            sync.apply(.stamp, at: t0 + second)
            #expect(sync.stamps[index] == .init(.line(index), at: Int(second * 1000) - latency))
        }
        #expect(sync.startedLines == 3)
        #expect(sync.selectedLine == 2)
    }

    @Test("a stamp is taken on the audio's clock: mpv's position leads, not the wall clock")
    func stampFollowsAudioPosition() {
        var sync = SyncSession(script: script, wordMode: false, audio: .starting, now: t0)
        sync.apply(.stamp, at: t0 + 0.5) // mpv has not started: the clock waits at 0
        #expect(sync.stamps.last?.time == 0)
        sync.apply(.undo, at: t0 + 0.6)
        sync.receive(.position(10), at: t0 + 1)
        sync.apply(.stamp, at: t0 + 2)
        #expect(sync.stamps.last?.time == 11_000)
    }

    @Test("Backspace removes the last stamp and seeks to 2 s before it")
    func undoRemovesAndSeeksBack() {
        var sync = SyncSession(script: script, wordMode: false, audio: .starting, now: t0)
        sync.receive(.position(0), at: t0)
        sync.apply(.stamp, at: t0 + 5)
        sync.apply(.stamp, at: t0 + 8)
        let commands = sync.apply(.undo, at: t0 + 9)
        #expect(sync.stamps == [.init(.line(0), at: 5000)])
        #expect(commands == [.seek(to: 6)])
        #expect(abs(sync.position(at: t0 + 9) - 6) < 1e-9)
    }

    @Test("the nudge keys move the selected line by 50 ms and 500 ms, never past a neighbour")
    func nudgesMoveTheSelectedLine() {
        var sync = session()
        sync.apply(.stamp, at: t0 + 1)
        sync.apply(.stamp, at: t0 + 2)
        sync.apply(.stamp, at: t0 + 3)
        sync.apply(.select(-1), at: t0 + 3.1)
        #expect(sync.selectedLine == 1)
        sync.apply(.nudge(50), at: t0 + 3.2)
        sync.apply(.nudge(-500), at: t0 + 3.3)
        #expect(sync.stamps[1].time == 1550)
        for _ in 0..<5 { sync.apply(.nudge(-500), at: t0 + 3.4) }
        #expect(sync.stamps[1].time == 1000 + SyncSession.minimumGap)
        for _ in 0..<5 { sync.apply(.nudge(500), at: t0 + 3.5) }
        #expect(sync.stamps[1].time == 3000 - SyncSession.minimumGap)
    }

    @Test("a tap before the last stamp is refused with a notice")
    func earlyTapRefused() {
        var sync = session()
        sync.apply(.stamp, at: t0 + 6)
        sync.apply(.seek(-5), at: t0 + 6.5)
        sync.apply(.stamp, at: t0 + 7)
        #expect(sync.stamps.count == 1)
        #expect(sync.noticeText(at: t0 + 7)?.hasPrefix("too early") == true)
    }

    @Test("e stamps an end marker, once, after a line")
    func endMarker() {
        var sync = session()
        sync.apply(.endMarker, at: t0 + 1)
        #expect(sync.stamps.isEmpty)
        sync.apply(.stamp, at: t0 + 1)
        sync.apply(.endMarker, at: t0 + 3)
        sync.apply(.endMarker, at: t0 + 4)
        sync.apply(.stamp, at: t0 + 9)
        #expect(sync.stamps.map(\.mark) == [.line(0), .end(0), .line(1)])
        let song = sync.song()
        #expect(song.lines.map(\.end).first == 3000)
    }

    @Test("the speed keys step from 0.5× to 1×, the clock and mpv following")
    func speedSteps() {
        var sync = SyncSession(script: script, wordMode: false, audio: .starting, now: t0)
        sync.receive(.position(0), at: t0)
        #expect(sync.apply(.changeSpeed(1), at: t0) == [])
        #expect(sync.apply(.changeSpeed(-1), at: t0) == [.setSpeed(0.9)])
        for _ in 0..<10 { sync.apply(.changeSpeed(-1), at: t0) }
        #expect(sync.speed == 0.5)
        #expect(abs(sync.position(at: t0 + 4) - 2) < 1e-9)
    }

    @Test("p pauses the clock and mpv; space does not")
    func pauseIsP() {
        var sync = SyncSession(script: script, wordMode: false, audio: .starting, now: t0)
        sync.receive(.position(0), at: t0)
        #expect(sync.apply(.togglePause, at: t0 + 1) == [.setPaused(true)])
        #expect(sync.position(at: t0 + 5) == 1)
        #expect(sync.apply(.stamp, at: t0 + 5) == [])
        #expect(sync.isPaused)
    }

    @Test("q asks before dropping unsaved stamps; a second q quits")
    func quitAsksFirst() {
        var sync = session()
        sync.apply(.stamp, at: t0 + 1)
        sync.apply(.quit, at: t0 + 2)
        #expect(!sync.hasQuit && sync.confirmsQuit)
        sync.apply(.quit, at: t0 + 3)
        #expect(sync.hasQuit)
        var saved = session()
        saved.apply(.stamp, at: t0 + 1)
        saved.saved(revision: saved.revision)
        saved.apply(.quit, at: t0 + 2)
        #expect(saved.hasQuit)
    }

    @Test("another key after the question keeps the session")
    func quitQuestionCancelled() {
        var sync = session()
        sync.apply(.stamp, at: t0 + 1)
        sync.apply(.quit, at: t0 + 2)
        sync.apply(.togglePause, at: t0 + 3)
        sync.apply(.quit, at: t0 + 4)
        #expect(!sync.hasQuit)
    }

    @Test("word mode stamps each word and syllable in turn; Enter closes a line once its words are stamped")
    func wordMode() {
        var sync = session(words: true)
        sync.apply(.stamp, at: t0 + 1) // one
        sync.apply(.enter, at: t0 + 1.2) // refused: "two" is left
        sync.apply(.stamp, at: t0 + 1.5) // two
        sync.apply(.enter, at: t0 + 2) // close
        sync.apply(.stamp, at: t0 + 3) // three
        #expect(
            sync.stamps.map(\.mark) == [.word(0, 0), .word(0, 1), .close(0), .word(1, 0)])
        let song = sync.song()
        #expect(song.lines.count == 2)
        #expect(song.lines[0].segments.map(\.start) == [1000, 1500])
        #expect(song.lines[0].end == 2000)
    }

    @Test("every stamp taken and then some: the stamp key says so")
    func allStamped() {
        var sync = session()
        for second in 1...6 { sync.apply(.stamp, at: t0 + Double(second)) }
        sync.apply(.stamp, at: t0 + 7)
        #expect(sync.stamps.count == 6)
        #expect(sync.nextMark == nil)
    }
}

@Suite("The song sync writes")
struct SyncSongTests {
    @Test("line mode writes LRC that reads back to the same stamps")
    func lineModeRoundTrip() throws {
        var sync = session()
        for second in [1.0, 2.34, 4.0] { sync.apply(.stamp, at: t0 + second) }
        sync.apply(.endMarker, at: t0 + 5)
        sync.apply(.stamp, at: t0 + 9)
        let text = sync.savedText()
        #expect(text.contains("[00:01.00]one two\n[00:02.34]three\n[00:04.00]four\n[00:05.00]\n[00:09.00]five"))
        let song = try #require(LRCParser.parse(Array(text.utf8), file: "x.lrc").song)
        #expect(SyncSession.stamps(from: song, script: script, wordMode: false) == sync.stamps)
    }

    @Test("word mode writes Enhanced LRC with word tags in order, and reads back to the same stamps")
    func wordModeRoundTrip() throws {
        var sync = session(words: true)
        // one, two, three, four, five, si, x, se, ven
        for second in [1.0, 1.5, 2.0, 4.0, 5.0, 6.0, 6.5, 7.0, 7.5] { sync.apply(.stamp, at: t0 + second) }
        sync.apply(.enter, at: t0 + 8)
        let text = sync.savedText()
        #expect(text.contains("[00:01.00]<00:01.00>one <00:01.50>two<00:02.00>\n[00:02.00]<00:02.00>three"))
        #expect(text.contains("[00:06.00]<00:06.00>si<00:06.50>x<00:07.00>\n"))
        #expect(text.hasSuffix("[00:07.00]<00:07.00>se<00:07.50>ven<00:08.00>\n[00:08.00]\n"))
        let song = try #require(LRCParser.parse(Array(text.utf8), file: "x.lrc").song)
        #expect(SyncSession.stamps(from: song, script: script, wordMode: true) == sync.stamps)
    }

    @Test("a half-stamped line in word mode is saved with its stamped words and resumed to them")
    func halfStampedLine() throws {
        var sync = session(words: true)
        // one, two, three, four, five, then "si" of "six" and not "x"
        for second in [1.0, 1.5, 2.0, 3.0, 4.0, 5.0] { sync.apply(.stamp, at: t0 + second) }
        #expect(sync.stamps.last?.mark == .word(4, 0))
        let song = try #require(LRCParser.parse(Array(sync.savedText().utf8), file: "x.lrc").song)
        #expect(SyncSession.stamps(from: song, script: script, wordMode: true) == sync.stamps)
    }

    @Test("a saved song that does not fit the script is not resumed")
    func foreignSongNotResumed() throws {
        let other = SyncScript.plain("one\n")
        let lrc = "[00:01.00]a\n[00:02.00]b\n"
        let song = try #require(LRCParser.parse(Array(lrc.utf8), file: "x.lrc").song)
        #expect(SyncSession.stamps(from: song, script: other, wordMode: false) == nil)
    }

    @Test("shown in word mode, a word lights as soon as it is stamped, the line's last word too")
    func stampedWordLightsAtOnce() {
        var sync = session(words: true)
        sync.apply(.stamp, at: t0 + 1) // one
        var line = sync.song(pendingFrom: 100_000).lines[0]
        #expect(line.segments[0].end == 1001)
        #expect(line.segments[1].start >= 100_000)
        sync.apply(.stamp, at: t0 + 2) // two, the last word: nothing ends it yet
        line = sync.song(pendingFrom: 100_000).lines[0]
        #expect(line.segments.map(\.end) == [2000, 2001])
    }

    @Test("the shown song keeps the lines not stamped yet, after the horizon, in order")
    func pendingLinesShown() {
        var sync = session()
        sync.apply(.stamp, at: t0 + 1)
        let song = sync.song(pendingFrom: 200_000)
        #expect(song.lines.map(\.text) == script.lines.map(\.text))
        #expect(song.lines[1].start >= 200_000)
        #expect(zip(song.lines, song.lines.dropFirst()).allSatisfy { $0.start < $1.start })
    }
}
