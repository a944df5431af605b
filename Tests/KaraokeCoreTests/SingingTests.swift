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

/// A player with mpv starting, or with `audio`, and the singer's `singing`.
private func player(
    audio: AudioStatus = .starting, singing: SingingSettings = SingingSettings()
) throws -> PlayerState {
    PlayerState(song: try Fixtures.song(text: songText), start: 0, now: t0, audio: audio, singing: singing)
}

/// The play request `arguments` (after `play song.lrc`) make.
private func play(_ arguments: [String]) throws -> PlayRequest {
    let invocation = try CommandLineParser.parse(["play", "song.lrc"] + arguments)
    guard case .play(let request) = invocation else {
        Issue.record("expected a play request, got \(invocation)")
        throw UnexpectedInvocation(invocation: invocation)
    }
    return request
}

/// Vocals, key and tempo: the keys, what mpv is told, the lyric clock's rate and the status bar (DESIGN §14.1).
@Suite("Audio for singers")
struct SingingTests {
    @Test(
        "the singer's keys are bound",
        arguments: [
            (key: Key.character("v"), action: PlayerAction.stepVocals),
            (key: .character("<"), action: .changeKey(-1)),
            (key: .character(">"), action: .changeKey(1)),
            (key: .character(","), action: .changeKey(-1)), // < unshifted
            (key: .character("."), action: .changeKey(1)), // > unshifted
            (key: .character("["), action: .changeTempo(-5)),
            (key: .character("]"), action: .changeTempo(5)),
        ])
    func keysAreBound(key: Key, action: PlayerAction) {
        #expect(PlayerAction.bound(to: key) == action)
    }

    @Test("the help lists the vocals, key and tempo keys")
    func helpListsThem() {
        let keys = PlayerAction.help.map(\.keys)
        #expect(keys.contains("v"))
        #expect(keys.contains("< / >"))
        #expect(keys.contains("[ / ]"))
    }

    @Test(
        "v steps the vocals to the next lower of 100, 50 and 0, and from 0 back to 100",
        arguments: [
            (from: 100, to: 50), // the first press: a guide at half
            (from: 50, to: 0), // the second: the centre out
            (from: 0, to: 100), // the third: back to the whole mix
            (from: 75, to: 50), // a level from --vocals: the next step below it
            (from: 30, to: 0),
            (from: 99, to: 50),
            (from: 1, to: 0),
        ])
    func vocalsStep(from: Int, to: Int) throws {
        var state = try player(singing: SingingSettings(vocalsPercent: from))
        state.receive(.position(0), at: t0)
        let commands = state.apply(.stepVocals, at: t0)
        #expect(state.singing.vocalsPercent == to)
        #expect(commands == [.setAudioFilters(SingingSettings.vocalsFilter(percent: to) ?? "")])
    }

    @Test("v's levels show in the status bar; only the return to 100 is a notice, taken back by the next press")
    func vocalsNotices() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        state.apply(.stepVocals, at: t0)
        #expect(state.singing.statusText == "vocals 50 %")
        #expect(state.noticeText(at: t0) == nil, "the status bar says it; a notice would say it twice")
        #expect(state.apply(.stepVocals, at: t0 + 1) == [.setAudioFilters("lavfi=[pan=mono|c0=c0-c1]")])
        #expect(state.singing.statusText == "vocals 0 %")
        #expect(state.noticeText(at: t0 + 1) == nil)
        #expect(state.apply(.stepVocals, at: t0 + 2) == [.setAudioFilters("")])
        #expect(state.singing.statusText == nil)
        #expect(state.noticeText(at: t0 + 2) == "vocals normal")
        state.apply(.stepVocals, at: t0 + 3)
        #expect(state.noticeText(at: t0 + 3) == nil, "the notice is taken back when the level changes again")
    }

    @Test("a key change is rubberband's pitch scale, a semitone a step, and stops at ±6")
    func keySteps() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        #expect(state.apply(.changeKey(1), at: t0) == [.setAudioFilters("rubberband=pitch-scale=1.059463")])
        #expect(state.singing.statusText == "key +1")
        for _ in 0..<10 { state.apply(.changeKey(1), at: t0) }
        #expect(state.singing.key == 6)
        #expect(state.noticeText(at: t0) == "the key goes no higher")
        for _ in 0..<20 { state.apply(.changeKey(-1), at: t0) }
        #expect(state.singing.key == -6)
        #expect(state.noticeText(at: t0) == "the key goes no lower")
        #expect(state.singing.audioFilters == "rubberband=pitch-scale=0.707107")
        for _ in 0..<6 { state.apply(.changeKey(1), at: t0 + 1) }
        #expect(state.noticeText(at: t0 + 1) == "key 0", "back to the original key, which the bar no longer shows")
    }

    @Test("the status bar mentions a changed setting once: no notice repeats what it shows")
    func oneMention() throws {
        var state = try player()
        state.receive(.position(3), at: t0)
        var composer = FrameComposer(
            song: try Fixtures.song(text: songText), fallbackTitle: "", columns: 100, rows: 10,
            options: FrameOptions())
        func status(_ at: Double) -> String {
            composer.frame(state.frameInput(at: at, titleTime: 0)).rows.last?.text ?? ""
        }
        state.apply(.stepVocals, at: t0)
        #expect(status(t0).hasSuffix("  vocals 50 %  ␣ pause  ←→ seek  ? help  q quit"))
        state.apply(.stepVocals, at: t0 + 1)
        state.apply(.stepVocals, at: t0 + 2)
        state.apply(.stepVocals, at: t0 + 3)
        #expect(!status(t0 + 3).contains("vocals normal"), "a notice taken back when the setting changes again")
        state.apply(.changeKey(1), at: t0 + 3)
        state.apply(.changeTempo(-5), at: t0 + 3)
        let shown = status(t0 + 3)
        #expect(shown.hasSuffix("───────  key +1  tempo 0.95×  vocals 50 %  ␣ pause  ←→ seek  ? help  q quit"))
        for text in ["key +1", "tempo 0.95×", "vocals"] {
            #expect(shown.components(separatedBy: text).count == 2, "'\(text)' once in '\(shown)'")
        }
    }

    @Test("vocals and key together make one filter list, the vocals first")
    func filtersCombine() {
        let settings = SingingSettings(vocalsPercent: 0, key: -2)
        #expect(settings.audioFilters == "lavfi=[pan=mono|c0=c0-c1],rubberband=pitch-scale=0.890899")
        #expect(
            SingingSettings(vocalsPercent: 50, key: 1).audioFilters
                == "lavfi=[pan=stereo|c0=0.750*c0-0.250*c1|c1=0.750*c1-0.250*c0],rubberband=pitch-scale=1.059463")
    }

    @Test(
        "the pitch scale is two to the power of semitones over twelve",
        arguments: SingingSettings.keyRange)
    func pitchScale(key: Int) {
        let scale = SingingSettings(key: key).pitchScale
        var expected = 1.0
        for _ in 0..<abs(key) { expected *= key > 0 ? 1.059_463_094_359_295_3 : 1 / 1.059_463_094_359_295_3 }
        #expect(abs(scale - expected) < 1e-9)
    }

    @Test("tempo keys step by 0.05 within 0.5…1.5 and set mpv's speed")
    func tempoSteps() throws {
        var state = try player()
        state.receive(.position(0), at: t0)
        #expect(state.apply(.changeTempo(-5), at: t0) == [.setSpeed(0.95)])
        #expect(state.singing.statusText == "tempo 0.95×")
        for _ in 0..<20 { state.apply(.changeTempo(-5), at: t0) }
        #expect(state.singing.tempoPercent == 50)
        #expect(state.noticeText(at: t0) == "the tempo goes no slower")
        for _ in 0..<30 { state.apply(.changeTempo(5), at: t0) }
        #expect(state.singing.tempoPercent == 150)
        #expect(state.noticeText(at: t0) == "the tempo goes no faster")
    }

    @Test(
        "the lyric clock runs at the tempo, between mpv's reports",
        arguments: [-5, -25, 25, 50])
    func clockFollowsTempo(percent: Int) throws {
        var state = try player()
        state.receive(.position(1), at: t0)
        state.apply(.changeTempo(percent), at: t0 + 1)
        let rate = 1 + Double(percent) / 100
        // One second at 1×, then five at the new rate.
        #expect(abs(state.position(at: t0 + 6) - (2 + 5 * rate)) < 1e-9)
    }

    @Test("a tempo given at the start runs the clock at that rate from mpv's first position")
    func startingTempo() throws {
        var state = try player(singing: SingingSettings(tempoPercent: 75))
        #expect(state.position(at: t0 + 1) == 0, "waits for mpv")
        state.receive(.position(0.2), at: t0 + 1)
        #expect(abs(state.position(at: t0 + 5) - (0.2 + 4 * 0.75)) < 1e-9)
    }

    @Test("with audio at a slower tempo, the song ends when the audio ends, not at the lyrics' own end")
    func endsWithTheAudio() throws {
        var state = try player(singing: SingingSettings(tempoPercent: 50))
        state.receive(.position(0), at: t0)
        state.receive(.duration(16), at: t0)
        // 16 s of audio at half speed take 32 s; the lyrics alone would end at 16 s of wall time.
        #expect(!state.hasEnded(at: t0 + 20))
        #expect(abs(state.position(at: t0 + 20) - 10) < 1e-9)
        state.receive(.reachedEnd, at: t0 + 32)
        #expect(state.hasEnded(at: t0 + 32.001))
    }

    @Test(
        "without audio the singer's keys change nothing and say there is no audio",
        arguments: [AudioStatus.none, .lost])
    func noAudio(audio: AudioStatus) throws {
        var state = try player(audio: audio)
        for action in [PlayerAction.stepVocals, .changeKey(1), .changeTempo(5)] {
            #expect(state.apply(action, at: t0) == [])
            #expect(state.noticeText(at: t0) == "no audio")
        }
        #expect(state.singing == SingingSettings())
        #expect(state.position(at: t0 + 2) == 2, "the clock runs at one second a second")
    }

    @Test("mpv that never started leaves the lyrics at one second a second, whatever the tempo")
    func lostBeforeStartingRunsAtOne() throws {
        var state = try player(singing: SingingSettings(tempoPercent: 80))
        state.lose("mpv: missing", at: t0)
        #expect(abs(state.position(at: t0 + 3) - 3) < 1e-9)
    }

    @Test(
        "the status bar shows what the singer changed, in a fixed order",
        arguments: [
            (SingingSettings(), nil),
            (SingingSettings(vocalsPercent: 0), "vocals 0 %"),
            (SingingSettings(vocalsPercent: 50), "vocals 50 %"),
            (SingingSettings(vocalsPercent: 100), nil),
            (SingingSettings(vocalsPercent: 50, key: 2, tempoPercent: 85), "key +2  tempo 0.85×  vocals 50 %"),
            (SingingSettings(key: -3), "key −3"),
            (SingingSettings(tempoPercent: 105), "tempo 1.05×"),
        ] as [(SingingSettings, String?)])
    func statusText(settings: SingingSettings, expected: String?) {
        #expect(settings.statusText == expected)
    }

    @Test("the status row carries the singer's settings after the offset")
    func statusRowShowsThem() throws {
        let text = StatusBar.text(
            elapsed: 30, total: 120, paused: false, userOffset: 200, width: 100, singing: "key +2  tempo 0.85×")
        #expect(text.contains("offset +0.2s  key +2  tempo 0.85×"))
        var composer = FrameComposer(
            song: try Fixtures.song(text: songText), fallbackTitle: "", columns: 100, rows: 10,
            options: FrameOptions())
        var state = try player(singing: SingingSettings(key: 2))
        state.receive(.position(3), at: t0)
        let frame = composer.frame(state.frameInput(at: t0, titleTime: 0))
        let status = frame.rows.last?.text ?? ""
        #expect(status.contains("key +2"))
    }

    @Test("mpv's lines for the filters and the speed")
    func mpvLines() {
        #expect(
            MpvProtocol.line(for: .setAudioFilters("lavfi=[pan=mono|c0=c0-c1]"))
                == #"{"command":["set_property","af","lavfi=[pan=mono|c0=c0-c1]"]}"#)
        #expect(MpvProtocol.line(for: .setAudioFilters("")) == #"{"command":["set_property","af",""]}"#)
        #expect(MpvProtocol.line(for: .setSpeed(0.85)) == #"{"command":["set_property","speed",0.850]}"#)
    }

    @Test("--vocals, --key and --tempo set the singer's settings")
    func options() throws {
        let request = try play(["--vocals", "reduced", "--key", "-2", "--tempo", "0.85"])
        #expect(request.singing == SingingSettings(vocalsPercent: 0, key: -2, tempoPercent: 85))
        #expect(try play([]).singing == SingingSettings())
    }

    @Test(
        "--vocals takes a percent or the words normal and reduced, and says it was given",
        arguments: [
            (value: "50", percent: 50), // a guide at half
            (value: "0", percent: 0),
            (value: "100", percent: 100),
            (value: "normal", percent: 100), // today's words still work
            (value: "reduced", percent: 0),
        ])
    func vocalsOption(value: String, percent: Int) throws {
        let request = try play(["--vocals", value])
        #expect(request.singing.vocalsPercent == percent)
        #expect(request.vocalsIsGiven, "it then beats the song's remembered level")
        #expect(try !play([]).vocalsIsGiven)
    }

    @Test(
        "--vocals out of 0…100 or neither a number nor a word is refused, saying what it takes",
        arguments: [
            (
                value: "101",
                message: "bad value '101' for '--vocals'; expected a whole number from 0 to 100, normal or reduced"
            ),
            (
                value: "-1",
                message: "bad value '-1' for '--vocals'; expected a whole number from 0 to 100, normal or reduced"
            ),
            (
                value: "50.5",
                message: "bad value '50.5' for '--vocals'; expected a whole number from 0 to 100, normal or reduced"
            ),
            (
                value: "reduce",
                message:
                    "bad value 'reduce' for '--vocals'; expected a whole number from 0 to 100, normal or reduced, "
                    + "did you mean 'reduced'?"
            ),
        ])
    func vocalsRefused(value: String, message: String) {
        let error = #expect(throws: UsageError.self) { try play(["--vocals", value]) }
        #expect(error?.message == message)
    }

    @Test("the help, the completions and the config listing show --vocals as a percent")
    func vocalsDocumented() throws {
        let option = try #require(CommandLineOption.named("--vocals"))
        #expect(option.label == "--vocals PERCENT")
        #expect(option.helpWithDetails.hasSuffix("normal is 100, reduced 0 (0…100, default 100)"))
        #expect(ShellCompletion.valueKind(of: option) == .choices(["normal", "reduced"]))
        #expect(option.commands == [.play, .party, .config])
    }

    @Test(
        "bad singer options are usage errors",
        arguments: [
            ["--vocals", "off"], ["--vocals", "101"], ["--key", "7"], ["--key", "1.5"], ["--tempo", "0.4"],
            ["--tempo", "2"],
            ["--tempo", "fast"],
        ])
    func badOptions(arguments: [String]) {
        #expect(throws: UsageError.self) { try play(arguments) }
    }
}

/// The filter that keeps a percent of the centre of the mix and all of its side (DESIGN §25).
@Suite("The vocal guide level's filter")
struct VocalsFilterTests {
    /// The gains `filter`'s stereo pan gives: the left from the left, the left from the right (negative),
    /// the right from the right and the right from the left.
    func gains(_ filter: String) throws -> (ll: Double, lr: Double, rr: Double, rl: Double) {
        let prefix = "lavfi=[pan=stereo|c0=", middle = "*c0-", between = "*c1|c1=", last = "*c1-", end = "*c0]"
        #expect(filter.hasPrefix(prefix) && filter.hasSuffix(end), "'\(filter)'")
        var rest = filter.dropFirst(prefix.count).dropLast(end.count)
        var numbers: [Double] = []
        for separator in [middle, between, last] {
            let range = try #require(rest.range(of: separator), "'\(separator)' in '\(filter)'")
            numbers.append(try #require(Double(rest[..<range.lowerBound])))
            rest = rest[range.upperBound...]
        }
        numbers.append(try #require(Double(rest)))
        return (numbers[0], -numbers[1], numbers[2], -numbers[3])
    }

    @Test(
        "between 0 and 100 the pan keeps p of the mid and all of the side: L' = (1+p)/2 L − (1−p)/2 R",
        arguments: 1...99)
    func coefficients(percent: Int) throws {
        let filter = try #require(SingingSettings.vocalsFilter(percent: percent))
        let gains = try gains(filter)
        let p = Double(percent) / 100
        #expect(abs(gains.ll - (1 + p) / 2) < 1e-9 && abs(gains.rr - (1 + p) / 2) < 1e-9)
        #expect(abs(gains.lr - (p - 1) / 2) < 1e-9 && abs(gains.rl - (p - 1) / 2) < 1e-9)
        // Equal channels (the centre, M) come out as p·M; opposite ones (the side, S) as S.
        #expect(abs((gains.ll + gains.lr) - p) < 1e-9, "the centre scaled by p")
        #expect(abs((gains.ll - gains.lr) - 1) < 1e-9, "the side kept whole")
    }

    @Test(
        "the gains are written with a point and three decimals, never a locale's comma",
        arguments: 0...100)
    func fixedDecimals(percent: Int) throws {
        let filter = SingingSettings.vocalsFilter(percent: percent) ?? ""
        #expect(!filter.contains(","), "a comma would end the filter in mpv's list")
        #expect(!filter.contains(" "), "no spaces")
        for match in filter.split(whereSeparator: { !"0123456789.".contains($0) }) where match.contains(".") {
            #expect(match.split(separator: ".").last?.count == 3, "'\(match)' in '\(filter)'")
        }
        #expect(SingingSettings.isVocalsFilter(filter) == (percent != 100))
    }

    @Test("at 100 there is no filter, and at 0 the channels' difference of before")
    func ends() {
        #expect(SingingSettings.vocalsFilter(percent: 100) == nil)
        #expect(SingingSettings(vocalsPercent: 100).audioFilters.isEmpty)
        #expect(SingingSettings.vocalsFilter(percent: 0) == "lavfi=[pan=mono|c0=c0-c1]")
        #expect(
            SingingSettings.vocalsFilter(percent: 50)
                == "lavfi=[pan=stereo|c0=0.750*c0-0.250*c1|c1=0.750*c1-0.250*c0]")
    }

    @Test("a MIDI song plays its accompaniment track at any level below 100")
    func midiAtAGuideLevel() {
        let filters = SingingSettings(vocalsPercent: 50, key: 1).audioFilters
        #expect(
            SingingSettings.withAccompanimentTrack(.setAudioFilters(filters))
                == [.setAudioTrack(2), .setAudioFilters("rubberband=pitch-scale=1.059463")])
    }
}
