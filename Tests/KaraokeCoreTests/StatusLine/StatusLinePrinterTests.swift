import Testing
@testable import KaraokeCore

/// A song of four lines: two back to back, a gap of a second, the same text again, and a line with an escape
/// sequence and a tab in it.
private let song = Song(
    metadata: SongMetadata(),
    lines: [
        LyricLine(start: 1000, end: 3000, text: "one"),
        LyricLine(start: 3000, end: 5000, text: "two"),
        LyricLine(start: 6000, end: 8000, text: "two"),
        LyricLine(start: 8000, end: 10000, text: "a\u{1B}[31mb\tc"),
    ], medianLineDuration: 2000)

private let t0 = 1000.0

/// Runs `printer` from `t0` waking only when it asks to, until it has nothing more to wait for or `until`
/// seconds have passed; the outputs with the seconds after `t0` they were written at.
private func run(_ printer: inout StatusLinePrinter, from start: Double = t0, until: Double = 30) -> [(Double, String)]
{
    var written: [(Double, String)] = []
    var now = start
    while now - t0 <= until {
        if let text = printer.output(at: now) { written.append((now - t0, text)) }
        guard let next = printer.nextWake(after: now) else { break }
        // Never a wake that is not after the last one, and never a spin.
        #expect(next > now)
        now = next
    }
    return written
}

/// The texts of `written`, without their times.
private func texts(_ written: [(Double, String)]) -> [String] { written.map(\.1) }

@Suite("StatusLine: the current line for status bars, as a value")
struct StatusLinePrinterTests {
    @Test(
        "playing through, each change is written once, at its time, and nothing else wakes",
        arguments: [
            // The text alone; an empty line before the first, in the gap and after the last.
            (
                StatusLineForm.lines,
                ["\n", "one\n", "two\n", "\n", "two\n", "a[31mb c\n", "\n"]
            ),
            // waybar: the next line as the tooltip, the class.
            (
                .waybar,
                [
                    #"{"text":"","tooltip":"one","class":"playing"}"# + "\n",
                    #"{"text":"one","tooltip":"two","class":"playing"}"# + "\n",
                    #"{"text":"two","tooltip":"two","class":"playing"}"# + "\n",
                    #"{"text":"","tooltip":"two","class":"playing"}"# + "\n",
                    #"{"text":"two","tooltip":"a[31mb c","class":"playing"}"# + "\n",
                    #"{"text":"a[31mb c","tooltip":"","class":"playing"}"# + "\n",
                    #"{"text":"","tooltip":"","class":"playing"}"# + "\n",
                ]
            ),
            // json: the time, the line's index, the texts, the pause.
            (
                .json,
                [
                    #"{"time":0.0,"line":null,"text":"","next":"one","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":1.0,"line":0,"text":"one","next":"two","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":3.0,"line":1,"text":"two","next":"two","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":5.0,"line":null,"text":"","next":"two","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":6.0,"line":2,"text":"two","next":"a[31mb c","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":8.0,"line":3,"text":"a[31mb c","next":"","paused":false,"lyrics":true}"# + "\n",
                    #"{"time":10.0,"line":null,"text":"","next":"","paused":false,"lyrics":true}"# + "\n",
                ]
            ),
        ])
    func playsThrough(form: StatusLineForm, expected: [String]) {
        var printer = StatusLinePrinter(form: form, playback: .playing, now: t0)
        printer.show(song)
        let written = run(&printer)
        #expect(texts(written) == expected)
        // Each at its line's start or end, a microsecond late at most.
        let times = [0, 1, 3, 5, 6, 8, 10.0]
        #expect(written.count == times.count)
        for ((time, _), expected) in zip(written, times) { #expect(abs(time - expected) < 0.000_01) }
        // Nothing left to change: no wake at all.
        #expect(printer.nextWake(after: t0 + 11) == nil)
    }

    @Test(
        "a seek writes where it lands, once; a seek within the line writes nothing",
        arguments: [
            // Back before the first line, then forward into the repeated line.
            ([(0.5, "\n"), (7.0, "two\n"), (7.5, nil)] as [(Double, String?)]),
            // Back to the first line, then on to the line it was on.
            ([(1.5, "one\n"), (3.5, "two\n"), (4.0, nil)]),
            // Forward over the gap into the last line, then into the gap.
            ([(9.0, "a[31mb c\n"), (5.5, "\n"), (5.6, nil)]),
        ])
    func seeks(landings: [(Double, String?)]) {
        var printer = StatusLinePrinter(form: .lines, playback: .playing, now: t0)
        printer.show(song)
        #expect(printer.output(at: t0) == "\n")
        var now = t0 + 3.5
        #expect(printer.output(at: now) == "two\n")
        for (position, expected) in landings {
            now += 0.1
            printer.move(to: position, at: now)
            #expect(printer.output(at: now) == expected, "landing at \(position)")
        }
    }

    @Test(
        "a pause stops the wakes; lines writes nothing for it, waybar and json write the state",
        arguments: [
            (StatusLineForm.lines, nil, nil),
            (
                .waybar, #"{"text":"two","tooltip":"two","class":"paused"}"# + "\n",
                #"{"text":"two","tooltip":"two","class":"playing"}"# + "\n"
            ),
            (
                .json, #"{"time":3.5,"line":1,"text":"two","next":"two","paused":true,"lyrics":true}"# + "\n",
                #"{"time":3.5,"line":1,"text":"two","next":"two","paused":false,"lyrics":true}"# + "\n"
            ),
        ] as [(StatusLineForm, String?, String?)])
    func pauses(form: StatusLineForm, paused: String?, resumed: String?) throws {
        var printer = StatusLinePrinter(form: form, playback: .playing, position: 3.5, now: t0)
        printer.show(song)
        #expect(printer.output(at: t0) != nil)
        printer.set(.paused, at: t0)
        #expect(printer.output(at: t0) == paused)
        // Paused, nothing is due: the edge sleeps until something happens.
        #expect(printer.nextWake(after: t0) == nil)
        #expect(printer.output(at: t0 + 60) == nil)
        printer.set(.playing, at: t0 + 60)
        #expect(printer.output(at: t0 + 60) == resumed)
        // Playing on from where it stopped: the line ends 1.5 s later.
        let wake = try #require(printer.nextWake(after: t0 + 60))
        #expect(abs(wake - (t0 + 61.5)) < 0.000_01)
    }

    @Test(
        "the same text twice in a row is two changes, each written",
        arguments: [StatusLineForm.lines, .waybar, .json])
    func repeatedLine(form: StatusLineForm) {
        let chorus = Song(
            metadata: SongMetadata(),
            lines: [LyricLine(start: 0, end: 1000, text: "la"), LyricLine(start: 1000, end: 2000, text: "la")],
            medianLineDuration: 1000)
        var printer = StatusLinePrinter(form: form, playback: .playing, now: t0)
        printer.show(chorus)
        let written = run(&printer)
        // The first line, the second (same text), and nothing sung after.
        #expect(written.count == 3)
        if form == .lines { #expect(texts(written) == ["la\n", "la\n", "\n"]) }
    }

    @Test(
        "no lyrics: one empty line, waybar's nolyrics class, and no wake",
        arguments: [
            (LyricsContent.message("no lyrics for A — T"), StatusLineForm.lines, "\n"),
            (.message("no lyrics"), .waybar, #"{"text":"","tooltip":"","class":"nolyrics"}"# + "\n"),
            (
                .plain(PlainLyrics(metadata: SongMetadata(), lines: ["untimed"])), .waybar,
                #"{"text":"","tooltip":"","class":"nolyrics"}"# + "\n"
            ),
            (
                .message("no lyrics"), .json,
                #"{"time":0.0,"line":null,"text":"","next":"","paused":false,"lyrics":false}"# + "\n"
            ),
        ] as [(LyricsContent, StatusLineForm, String)])
    func noLyrics(content: LyricsContent, form: StatusLineForm, expected: String) {
        var printer = StatusLinePrinter(form: form, playback: .playing, now: t0)
        printer.show(content)
        #expect(printer.output(at: t0) == expected)
        #expect(printer.output(at: t0 + 5) == nil)
        #expect(printer.nextWake(after: t0) == nil)
    }

    @Test(
        "texts are JSON-escaped and never carry a control character",
        arguments: [
            // Quotes and backslashes escaped.
            (#"say "hi" \o/"#, #"{"text":"say \"hi\" \\o/","tooltip":"","class":"playing"}"#),
            // C0, DEL, C1 and bidi controls dropped; a tab becomes a space.
            ("a\u{7}b\u{7F}c\u{85}d\u{202E}e\tf\r\ng", #"{"text":"abcde fg","tooltip":"","class":"playing"}"#),
            // Other characters as they are.
            ("ünïcödé 歌 👩‍👩‍👧", #"{"text":"ünïcödé 歌 👩‍👩‍👧","tooltip":"","class":"playing"}"#),
        ])
    func escaping(text: String, expected: String) {
        var printer = StatusLinePrinter(form: .waybar, playback: .playing, position: 0.5, now: t0)
        printer.show(
            Song(metadata: SongMetadata(), lines: [LyricLine(start: 0, end: 1000, text: text)], medianLineDuration: nil)
        )
        #expect(printer.output(at: t0) == expected + "\n")
        var lines = StatusLinePrinter(form: .lines, playback: .playing, position: 0.5, now: t0)
        lines.show(printer.song)
        let written = lines.output(at: t0) ?? ""
        // One output line, with no control character but its line feed.
        #expect(written.last == "\n")
        #expect(!written.dropLast().unicodeScalars.contains { ControlCharacters.isForbidden($0.value) })
    }

    @Test("offsets move the changes: the file's [offset:] and the user's, as on the screen")
    func offsets() throws {
        var shifted = song
        shifted.metadata.offset = 200
        var printer = StatusLinePrinter(form: .lines, userOffset: 300, playback: .playing, now: t0)
        printer.show(shifted)
        #expect(printer.output(at: t0) == "\n")
        let wake = try #require(printer.nextWake(after: t0))
        // The first line at 1.0 s of file time is shown 0.5 s sooner.
        #expect(abs(wake - (t0 + 0.5)) < 0.000_01)
        #expect(printer.output(at: wake) == "one\n")
    }

    @Test("a stopped player shows nothing sung")
    func stopped() {
        var printer = StatusLinePrinter(form: .waybar, playback: .playing, position: 1.5, now: t0)
        printer.show(song)
        #expect(printer.output(at: t0) == #"{"text":"one","tooltip":"two","class":"playing"}"# + "\n")
        printer.set(.stopped, at: t0 + 1)
        #expect(printer.output(at: t0 + 1) == #"{"text":"","tooltip":"","class":"paused"}"# + "\n")
        #expect(printer.nextWake(after: t0 + 1) == nil)
    }
}

@Suite("StatusLine: following another player's reports")
struct StatusLineFollowingTests {
    let trackA = FollowedTrack(id: "a", title: "A", artist: "X", length: 20)
    let trackB = FollowedTrack(id: "b", title: "B", artist: "X", length: 20)

    func report(_ track: FollowedTrack?, _ playback: FollowedPlayback, at position: Double?) -> PlayerReport {
        PlayerReport(player: "MPD", track: track, playback: playback, position: position, rate: 1)
    }

    @Test("a track's lyrics are looked up once, shown when they come, and a late answer for another is dropped")
    func trackChange() {
        var printer = StatusLinePrinter(form: .lines, now: t0)
        var followed = StatusLinePrinter.Followed()
        #expect(
            printer.receive(.report(report(trackA, .playing, at: 3.5), at: t0), following: &followed, at: t0) == trackA)
        #expect(printer.output(at: t0) == "\n")
        printer.receive(lyrics: .timed(song), for: trackA, following: followed)
        #expect(printer.output(at: t0 + 0.1) == "two\n")
        // The same track again: no lookup, no output.
        #expect(
            printer.receive(
                .report(report(trackA, .playing, at: 3.6), at: t0 + 0.1), following: &followed, at: t0 + 0.1)
                == nil)
        #expect(printer.output(at: t0 + 0.1) == nil)
        // Another track: nothing sung until its lyrics come.
        #expect(
            printer.receive(.report(report(trackB, .playing, at: 1.5), at: t0 + 1), following: &followed, at: t0 + 1)
                == trackB)
        #expect(printer.output(at: t0 + 1) == "\n")
        printer.receive(lyrics: .timed(song), for: trackA, following: followed)
        #expect(printer.output(at: t0 + 1.1) == nil)
        printer.receive(lyrics: .timed(song), for: trackB, following: followed)
        #expect(printer.output(at: t0 + 1.1) == "one\n")
    }

    @Test(
        "reports move the clock: a seek at once, a pause stops it, a player gone or stopped shows nothing",
        arguments: [
            // A seek back while playing.
            ((FollowedPlayback.playing, 1.2), "one\n", true),
            // Paused where it is: the line stays, no wake.
            ((.paused, 3.6), nil, false),
            // Stopped: nothing sung.
            ((.stopped, 0), "\n", false),
        ] as [((FollowedPlayback, Double), String?, Bool)])
    func reports(change: (FollowedPlayback, Double), expected: String?, wakes: Bool) {
        var printer = StatusLinePrinter(form: .lines, now: t0)
        var followed = StatusLinePrinter.Followed()
        _ = printer.receive(.report(report(trackA, .playing, at: 3.5), at: t0), following: &followed, at: t0)
        printer.receive(lyrics: .timed(song), for: trackA, following: followed)
        #expect(printer.output(at: t0) == "two\n")
        _ = printer.receive(
            .report(report(trackA, change.0, at: change.1), at: t0 + 0.1), following: &followed, at: t0 + 0.1)
        #expect(printer.output(at: t0 + 0.1) == expected)
        #expect((printer.nextWake(after: t0 + 0.1) != nil) == wakes)
    }

    @Test("the player gone: nothing sung, no wake, until it reports again")
    func gone() {
        var printer = StatusLinePrinter(form: .waybar, now: t0)
        var followed = StatusLinePrinter.Followed()
        _ = printer.receive(.report(report(trackA, .playing, at: 1.5), at: t0), following: &followed, at: t0)
        printer.receive(lyrics: .timed(song), for: trackA, following: followed)
        #expect(printer.output(at: t0) == #"{"text":"one","tooltip":"two","class":"playing"}"# + "\n")
        _ = printer.receive(.gone("waiting for MPD…"), following: &followed, at: t0 + 1)
        #expect(printer.output(at: t0 + 1) == #"{"text":"","tooltip":"","class":"nolyrics"}"# + "\n")
        #expect(printer.nextWake(after: t0 + 1) == nil)
        // Back: the track is looked up again.
        #expect(
            printer.receive(.report(report(trackA, .playing, at: 1.5), at: t0 + 2), following: &followed, at: t0 + 2)
                == trackA)
    }
}

@Suite("StatusLine: play's clock, silent or on the audio")
struct StatusLinePlayTests {
    @Test("silent, the run ends with the song, and the end is a wake")
    func silentEnd() {
        var printer = StatusLinePrinter(form: .lines, playback: .playing, endsWithSong: true, now: t0)
        printer.show(song)
        let written = run(&printer)
        #expect(texts(written).last == "\n")
        #expect(!printer.isOver(at: t0 + 9.9))
        #expect(printer.isOver(at: t0 + 10.000_01))
        #expect(printer.nextWake(after: t0 + 10.000_01) == nil)
    }

    @Test("with audio, the clock stands until mpv's first position, then follows it; its end is the end")
    func audio() throws {
        var printer = StatusLinePrinter(form: .lines, playback: .playing, endsWithSong: true, now: t0)
        printer.show(song)
        printer.waitForAudio(at: t0)
        #expect(printer.output(at: t0) == "\n")
        #expect(printer.nextWake(after: t0) == nil)
        #expect(printer.receive(.duration(30), at: t0 + 0.2) == nil)
        #expect(printer.receive(.position(0.9), at: t0 + 0.5) == nil)
        let wake = try #require(printer.nextWake(after: t0 + 0.5))
        #expect(abs(wake - (t0 + 0.6)) < 0.000_01)
        #expect(printer.output(at: wake) == "one\n")
        // The song's own end is not the end: the audio's is.
        #expect(!printer.isOver(at: t0 + 20))
        _ = printer.receive(.reachedEnd, at: t0 + 29)
        #expect(printer.isOver(at: t0 + 29))
    }

    @Test("audio that fails: the clock runs on alone, and the song's end is the end")
    func audioFails() throws {
        var printer = StatusLinePrinter(form: .lines, playback: .playing, endsWithSong: true, now: t0)
        printer.show(song)
        printer.waitForAudio(at: t0)
        #expect(printer.receive(.failed("unsupported format"), at: t0 + 1) == "unsupported format")
        let wake = try #require(printer.nextWake(after: t0 + 1))
        #expect(abs(wake - (t0 + 2)) < 0.000_01)
        #expect(printer.isOver(at: t0 + 11.000_01))
    }
}
