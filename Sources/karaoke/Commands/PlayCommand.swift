import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke play`: the interactive player. The logic (state, keys, pacing, the end, the frame) is the
/// core's `PlayLoop`; this sets up the terminal, mpv and the clock log and carries the loop's effects out.
enum PlayCommand {
    static func run(_ request: PlayRequest) -> Int32 {
        if let form = request.print { return printStatusLines(request, form: form) }
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStreams.err(
                "karaoke: play needs a terminal on stdin and stdout; "
                    + "to print frames without one, use 'karaoke render FILE --at SECONDS'")
            return 2
        }
        if case .file(let audio) = request.audio, let problem = AudioSource.namedFileProblem(audio) {
            StandardStreams.err("karaoke: \(problem)")
            return 1
        }
        if QueueCommand.makesQueue(request) { return QueueCommand.run(request) }
        let prepared: Prepared
        switch prepareReporting(request) {
        case .success(let ready): prepared = ready
        case .failure(let exit): return exit.status
        }
        let loaded = prepared.loaded
        guard let clockLog = openClockLog(request) else { return 1 }
        let request = prepared.withRememberedOffset(request)
        var options = ScreenOptions.of(request.display)
        // Only a CD+G song asks the terminal about pixels, in the same round trip as about graphemes.
        guard
            let (screen, waiter) = openScreen(
                request, asksGraphics: loaded.graphics != nil && request.graphics != .cells)
        else { return 2 }
        options.graphemes = screen.graphemes
        let answer = screen.graphicsAnswer
        var session = PlaySession(
            content: loaded.shown(showsTranslations: request.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, options: options,
            request: request, screen: screen, waiter: waiter, audioFile: prepared.audioFile, clockLog: clockLog,
            offsetWriter: prepared.offsetWriter(for: request), graphics: loaded.graphics,
            pixels: answer.flatMap { answer in
                PixelProtocol.chosen(by: request.graphics, answer: answer).map { ($0, answer.cellSize!) }
            })
        if let pendingLookup = prepared.pendingLookup {
            session.lookup = BackgroundLookup(
                query: pendingLookup.query, server: pendingLookup.server, cache: LRCLIBCache.standard(),
                wake: waiter.wake)
        }
        var status: Int32
        switch session.run() {
        case .exit(let code): status = code
        // Only a queued loop asks for another song.
        case .nextSong, .previousSong: status = 0
        }
        session.stopAudio()
        var scoreEnding = ScoreEnding(output: request.scoring.output, isQueue: false)
        if case .signal(let code) = scoreEnding.finish(
            &session, file: request.display.file, singer: request.queue.singer, options: options)
        {
            status = code
        }
        screen.close()
        prepared.remember(
            session.loop.state.userOffset, startedWith: options.userOffset,
            vocals: session.loop.state.singing.vocalsPercent, startedWithVocals: request.singing.vocalsPercent)
        if clockLog >= 0 { close(clockLog) }
        // Warnings found while curses owned the screen are printed once the terminal is back.
        StandardStreams.report(loaded.diagnostics + session.lateDiagnostics)
        ScreenOptions.reportRomanizationFailure()
        if let problem = scoreEnding.problem {
            StandardStreams.err("karaoke: the score was not saved: \(problem)")
            if status == 0 { status = 1 }
        }
        return status
    }

    /// A song ready to play: its lyrics, its audio, the LRCLIB lookup to start once the screen is up, and
    /// where its offset is saved (`s`) and remembered.
    struct Prepared {
        /// The lyrics read (or a message while LRCLIB is asked).
        var loaded: LyricFile.Loaded
        /// The audio to play; nil plays silently.
        var audioFile: String?
        /// The lookup to start with `--fetch` when nothing was found here.
        var pendingLookup: (query: LRCLIBQuery, server: String)?
        /// Where `s` saves the offset (DESIGN §13.2).
        var offsetSource = OffsetWriter.Source.lrclib
        /// The lyric file's key in the remembered offsets; nil for lyrics from tags or LRCLIB (DESIGN §14.4).
        var offsetKey: String?

        /// `request` with the song's remembered offset and vocals level, each unless the command line gives
        /// it (DESIGN §14.4).
        func withRememberedOffset(_ request: PlayRequest) -> PlayRequest {
            var request = request
            guard let offsetKey else { return request }
            if !request.offsetIsGiven, let remembered = SettingsFiles.memory(of: .offset).value(for: offsetKey) {
                request.display.frame.userOffset = remembered
            }
            if !request.vocalsIsGiven, let remembered = SettingsFiles.memory(of: .vocals).value(for: offsetKey) {
                request.singing.vocalsPercent = remembered
            }
            return request
        }

        /// What `s` writes the offset with, for this song.
        func offsetWriter(for request: PlayRequest) -> OffsetWriter {
            OffsetWriter(
                source: offsetSource, mode: request.appliesOffset ? .stamps : .tag,
                encoding: request.display.encoding, maxSize: request.display.maxSize,
                showsTranslations: request.display.showsTranslations)
        }

        /// Remembers the offset the song ended with, when it is not the one it started with, and the vocals
        /// level it ended with, when it is not the one it started with.
        func remember(_ offset: Int, startedWith start: Int, vocals: Int, startedWithVocals startVocals: Int) {
            guard let offsetKey else { return }
            if offset != start { SettingsFiles.remember(offset, of: .offset, for: offsetKey) }
            if vocals != startVocals { SettingsFiles.remember(vocals, of: .vocals, for: offsetKey) }
        }
    }

    /// Why a song cannot be played: the status to exit with, the reason already said on stderr.
    struct Exit: Error {
        var status: Int32
    }

    /// The song `request` names, prepared and its `--start` checked; or, with the reason said, exit status 1
    /// when it cannot be read and 2 when it starts past its end.
    static func prepareReporting(_ request: PlayRequest) -> Result<Prepared, Exit> {
        switch prepare(request) {
        case .failure(let refusal):
            StandardStreams.report(refusal.diagnostics)
            StandardStreams.err("karaoke: \(refusal.message)")
            return .failure(Exit(status: 1))
        case .success(let prepared):
            let song = prepared.loaded.song
            if let problem = PlayStart.problem(start: request.start, song: song, file: request.display.file) {
                StandardStreams.err("karaoke: \(problem)")
                return .failure(Exit(status: 2))
            }
            return .success(prepared)
        }
    }

    /// Finds and reads the lyrics and the audio of `request`'s FILE; a failure's message follows `karaoke: `.
    static func prepare(_ request: PlayRequest) -> Result<Prepared, LyricFile.Failure> {
        let loaded: LyricFile.Loaded
        var audioFile: String?
        var offsetSource = OffsetWriter.Source.lrclib
        var offsetKey: String?
        // The LRCLIB lookup to start once the screen is up, with `--fetch` when nothing was found here.
        var pendingLookup: (query: LRCLIBQuery, server: String)?
        if let graphics = GraphicsFile.song(
            request.display.file, audio: request.audio, maxSize: request.display.maxSize)
        {
            return graphics.map { Prepared(loaded: $0.loaded, audioFile: $0.audio, offsetSource: .tags) }
        }
        switch AudioSource.choose(for: request, finder: .standard) {
        case .success(let choice):
            switch LyricsFinder.load(
                choice.lyrics, origin: choice.origin, audio: request.display.file,
                maxSize: request.display.maxSize, encoding: request.display.encoding)
            {
            case .success(let result): loaded = result
            case .failure(let failure): return .failure(failure)
            }
            audioFile = choice.audio
            switch choice.lyrics {
            case .file(let path):
                offsetSource = .file(path)
                offsetKey = SettingsFiles.offsetKey(lyricFile: path, maxSize: request.display.maxSize)
            case .supplied:
                if case .lrclib = choice.origin { offsetSource = .lrclib } else { offsetSource = .tags }
            }
            if audioFile == nil, request.audio == .automatic, case .file(let lyrics) = choice.lyrics {
                audioFile = AudioSource.named(by: loaded.song, lyrics: lyrics)
            }
        case .failure(let failure) where failure.isNotFound && request.display.lyrics.fetch:
            // Nothing here: the audio starts at once and LRCLIB is asked meanwhile (DESIGN §11).
            let audio = request.display.file
            switch request.audio {
            case .none: audioFile = nil
            case .file(let chosen): audioFile = chosen
            case .automatic: audioFile = audio
            }
            let name = NameMatching.baseName(of: ControlCharacters.strip(audio))
            let server = LRCLIBLookup.server(request.display.lyrics.server)
            let message: String
            if let query = LRCLIBQuery(tags: LyricsFinder.standard.readTags(audio), audioPath: audio) {
                pendingLookup = (query, server)
                message = LRCLIBAnswer.lookingUp(query, server: server)
            } else {
                message = "no lyrics for \(name): no artist and title in its tags or its name to look up"
            }
            loaded = LyricFile.Loaded(content: .message(message), diagnostics: [], fallbackTitle: name)
        case .failure(let failure):
            // Nothing goes over the network unless asked: say how to ask.
            var refusal = failure
            if failure.isNotFound { refusal.add(hint: "; '--fetch' asks LRCLIB") }
            return .failure(refusal)
        }
        return .success(
            Prepared(
                loaded: loaded, audioFile: audioFile, pendingLookup: pendingLookup, offsetSource: offsetSource,
                offsetKey: offsetKey))
    }

    /// Opens `--clock-log FILE` (-1 without it); nil, after saying why, when it cannot be written.
    static func openClockLog(_ request: PlayRequest) -> Int32? {
        guard let path = request.clockLog else { return -1 }
        let clockLog = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard clockLog >= 0 else {
            StandardStreams.err("karaoke: \(ControlCharacters.strip(path)): \(LyricFile.describe(errno))")
            return nil
        }
        return clockLog
    }

    /// Installs the signal handlers, makes the driver's waiter and takes the terminal, having asked it about
    /// grapheme-cluster mode (and pixels when `asksGraphics`); nil, after saying why, when TERM is unknown or
    /// no pipe can be made.
    static func openScreen(_ request: PlayRequest, asksGraphics: Bool = false) -> (NCursesScreen, PollWaiter)? {
        let colors = request.display.color != .never && !TerminalInfo.noColorRequested
        guard let waiter = PollWaiter.forTerminal() else { return nil }
        guard
            let screen = NCursesScreen.openOrExplain(
                colors: colors, graphemes: request.display.graphemes, asksGraphics: asksGraphics)
        else { return nil }
        return (screen, waiter)
    }
}

/// One run of the player: the core's `PlayLoop` decides, the driver runs it on the terminal, and this
/// carries out its own effects on mpv and the clock log (DESIGN §8, §17).
struct PlaySession {
    let screen: NCursesScreen
    let waiter: PollWaiter
    var loop: PlayLoop
    /// mpv, while it plays; nil when silent or for a MIDI song.
    private(set) var audio: MpvPlayer?
    /// A MIDI song's music, synthesised and then played by mpv (DESIGN §18.3); nil for other songs.
    private(set) var music: SynthesisedMusic?
    let clockLog: Int32
    /// The LRCLIB lookup running while the song plays (`--fetch`), until its answer is shown.
    var lookup: BackgroundLookup?
    /// Warnings about lyrics that arrived while the song played, printed after the terminal is restored.
    var lateDiagnostics: [Diagnostic] { lookup?.lateDiagnostics ?? [] }
    /// The title shown when the lyrics have none.
    private let fallbackTitle: String
    /// Whether translation lines are shown (`--no-translation` hides them), for lyrics that arrive late.
    private let showsTranslations: Bool
    /// Writes the offset into the lyric file when `s` asks.
    private let offsetWriter: OffsetWriter
    /// The singers' microphones with `--score` (DESIGN §15.5); nil when nothing is scored.
    private(set) var microphones: Microphones?
    /// The microphone played to the speakers (`--monitor`, or `e`), while the song plays (DESIGN §24).
    private(set) var monitor: MonitorSwitch
    /// More sources for the song's driver: the party's requests, answered while the song plays (DESIGN §20.6).
    var extraSources: [() -> [PlayLoop.Event]] = []
    /// The screen the driver paints and reads keys through, when not `screen` itself: the party's, which lays
    /// its up-next list over the frames and takes its own keys first.
    var drivenScreen: (any Screen)?

    init(
        content: LyricsContent, fallbackTitle: String, options: FrameOptions, request: PlayRequest,
        screen: NCursesScreen, waiter: PollWaiter, audioFile: String?, clockLog: Int32, offsetWriter: OffsetWriter,
        graphics: [UInt8]? = nil, pixels: (PixelProtocol, TerminalGraphicsAnswer.PixelSize)? = nil,
        queued: Bool = false
    ) {
        self.offsetWriter = offsetWriter
        self.fallbackTitle = fallbackTitle
        showsTranslations = request.display.showsTranslations
        self.screen = screen
        self.waiter = waiter
        self.clockLog = clockLog
        var audioProblem: String?
        if let audioFile, SynthesisedMusic.isMidi(audioFile) {
            // `--melody-channel`, else the channel the song's lyrics follow (the MIDI reader's).
            let melodyChannel = request.melodyChannel ?? content.song.melodyChannel
            switch SynthesisedMusic.start(
                audioFile, melodyChannel: melodyChannel, request: request, wake: waiter.wake,
                otherwise: "playing without sound")
            {
            case .success(let started): music = started
            case .failure(let failure): audioProblem = failure.message
            }
        } else if let audioFile {
            switch MpvPlayer.start(
                audioFile, from: request.start, volume: request.volume, singing: request.singing,
                extraOptions: request.mpvOptions, wake: waiter.wake, otherwise: "playing without sound")
            {
            case .success(let started): audio = started
            case .failure(let failure): audioProblem = failure.message
            }
        }
        let size = screen.size
        loop = PlayLoop(
            content: content, fallbackTitle: fallbackTitle, options: options, columns: size.columns,
            rows: size.rows, start: request.start, framesPerSecond: request.display.framesPerSecond,
            audio: audioFile == nil ? .none : .starting, volume: request.volume,
            audioProblem: audioProblem, logsClock: clockLog >= 0, singing: request.singing, now: monotonicSeconds())
        loop.isQueued = queued
        // The loop's composer romanized the song: KAKASI's failure is said in the status bar too (DESIGN §29.4).
        if let notice = KakasiRomanizer.shared.takeNotice() { loop.post(notice: notice, at: monotonicSeconds()) }
        if let graphics {
            var renderer: (renderer: any PictureRenderer, notice: String?)
            // In pixels the cells are still drawn, in cheap half blocks (the frame stays whole), but the
            // screen sends pixels in their place.
            let pixelRenderer = PixelPictureRenderer(inner: HalfBlockRenderer())
            if let (pixelProtocol, cellSize) = pixels,
                screen.drawPictures(in: pixelProtocol, cellSize: cellSize, renderer: pixelRenderer)
            {
                renderer = (pixelRenderer, nil)
            } else {
                renderer = PictureRenderers.forTerminal()
            }
            loop.showGraphics(CDGTrack(bytes: graphics, renderer: renderer.renderer, depth: screen.depth))
            if let notice = renderer.notice { loop.post(notice: notice, at: monotonicSeconds()) }
        }
        monitor = MonitorSwitch(request: request)
        if let notice = monitor.startIfAsked() { loop.post(notice: notice, at: monotonicSeconds()) }
        if request.scoring.isOn, case .timed(let song) = content {
            let opened = Microphones.open(for: song, options: request.scoring)
            microphones = opened.microphones
            if let session = opened.session { loop.startScoring(session) }
            if let notice = opened.notice { loop.post(notice: notice, at: monotonicSeconds()) }
        }
    }

    /// How a run ended: with an exit status, or (in a queue) asking for another song.
    enum Ending: Equatable {
        case exit(Int32)
        case nextSong, previousSong
    }

    /// Runs until the song ends, q, n or N in a queue, or a signal.
    mutating func run() -> Ending {
        var driver = TerminalDriver<PlayLoop>(screen: drivenScreen ?? screen, waiter: waiter)
        driver.sources = extraSources
        if let audio { driver.sources.append { audio.takeMessages().map(PlaySession.event) } }
        if let music { driver.sources.append { music.events() } }
        if let microphones { driver.sources.append { microphones.events() } }
        let monitor = monitor
        driver.sources.append { monitor.events() }
        if let lookup {
            let fallbackTitle = fallbackTitle, showsTranslations = showsTranslations
            driver.sources.append {
                guard let answer = lookup.take() else { return [] }
                var content = answer.content
                if !showsTranslations, case .timed(let song) = content { content = .timed(song.withoutTranslations()) }
                return [.lyricsArrived(content, fallbackTitle: fallbackTitle, notice: answer.notice)]
            }
        }
        let audio = audio, music = music, offsetWriter = offsetWriter, clockLog = clockLog
        let ending = driver.run(&loop) { effect, loop in
            switch effect {
            case .send(let command):
                audio?.send(command)
                music?.send(command)
            case .log(let line): StandardStreams.write(line + "\n", to: clockLog)
            case .saveOffset(let milliseconds):
                return .report([.offsetSaved(offsetWriter.save(milliseconds, content: loop.content))])
            case .nextSong, .previousSong: return .stop
            case .toggleMonitor: return .report([.notice(monitor.toggle())])
            case .screen: break
            }
            return .done
        }
        switch ending {
        case .exit(let status): return .exit(status)
        case .stopped(.previousSong): return .previousSong
        case .stopped: return .nextSong
        }
    }

    /// Stops mpv, a MIDI song's synthesis if it still runs, and the monitor.
    func stopAudio() {
        monitor.stop()
        audio?.stop()
        music?.stop()
    }

    /// The play loop's event for one of mpv's messages.
    static func event(_ message: MpvPlayer.Message) -> PlayLoop.Event {
        switch message {
        case .event(let event, let at): .audio(event, at: at)
        case .gone(let reason): .audioGone(reason)
        }
    }
}
