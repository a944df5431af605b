import Glibc
import KaraokeCore
import KaraokeDriver

/// The party's evening on the terminal (DESIGN §20.6): the up-next card until the next song is due, the song,
/// the card again, until the host ends it (q) or a signal does.
struct PartyEvening {
    let request: PartyRequest
    let host: PartyHost
    let screen: NCursesScreen
    let waiter: PollWaiter
    /// Warnings about the songs, printed once the terminal is given back.
    private(set) var diagnostics: [Diagnostic] = []

    init(request: PartyRequest, host: PartyHost, screen: NCursesScreen, waiter: PollWaiter) {
        self.request = request
        self.host = host
        self.screen = screen
        self.waiter = waiter
    }

    /// Runs the evening; returns the exit status: 0 when the host ended it, 128 + N for a signal.
    mutating func run() -> Int32 {
        while true {
            switch showCard() {
            case .exit(let status): return status
            case .stopped: break
            }
            guard let next = host.startNext() else { continue }
            if let status = sing(next) { return status }
        }
    }

    /// The up-next card until the next song is due or the party ends.
    private func showCard() -> TerminalDriver<PartyCardProgram>.Ending {
        let size = screen.size
        var program = PartyCardProgram(view: host.view(), columns: size.columns, rows: size.rows)
        var driver = TerminalDriver<PartyCardProgram>(screen: screen, waiter: waiter)
        let host = host, waiter = waiter
        driver.sources = [
            {
                let changed = host.answerRequests(at: waiter.now())
                return (changed ? [.changed(host.view())] : []) + host.takeNotices().map { .notice($0) }
            }
        ]
        return driver.run(&program) { effect, _ in
            switch effect {
            case .host(let action):
                host.apply(action)
                return .report([.changed(host.view())] + host.takeNotices().map { .notice($0) })
            case .sing: return .stop
            case .screen: return .done
            }
        }
    }

    /// Sings `next`; returns the exit status when the party ends with it (q or a signal), nil to go on.
    private mutating func sing(_ next: PartyRotation.Request) -> Int32? {
        guard let file = host.files[next.song] else {
            host.dropCurrent()
            return nil
        }
        var songRequest = request.play
        songRequest.display.file = file
        songRequest.files = [file]
        songRequest.singing.key = min(
            max(host.key(of: next.singer), SingingSettings.keyRange.lowerBound), SingingSettings.keyRange.upperBound)
        let prepared: PlayCommand.Prepared
        switch PlayCommand.prepare(songRequest) {
        case .success(let ready): prepared = ready
        case .failure(let failure):
            diagnostics += failure.diagnostics
            host.dropCurrent()
            host.announce("\(next.singer.shown)'s song could not be played: \(failure.message)")
            return nil
        }
        let loaded = prepared.loaded
        let songRequestWithOffset = prepared.withRememberedOffset(songRequest)
        var options = ScreenOptions.of(songRequestWithOffset.display)
        options.queuePosition = "♪ " + String(next.singer.shown.prefix(16))
        options.graphemes = screen.graphemes
        var session = PlaySession(
            content: loaded.shown(showsTranslations: songRequest.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, options: options, request: songRequestWithOffset, screen: screen,
            waiter: waiter, audioFile: prepared.audioFile, clockLog: -1,
            offsetWriter: prepared.offsetWriter(for: songRequestWithOffset), graphics: loaded.graphics, queued: true)
        session.loop.extraHelp = PartyHostKeys.help
        let songScreen = PartySongScreen(over: screen, host: host)
        let host = host, waiter = waiter
        session.drivenScreen = songScreen
        session.extraSources = [
            {
                if host.answerRequests(at: waiter.now()) { songScreen.repaint() }
                return host.takeNotices().map { .notice($0) }
            }
        ]
        let ending = session.run()
        session.stopAudio()
        session.microphones?.stop()
        let score = session.loop.reachedEnd ? session.loop.scoring?.keepers.map(\.progress.points.total).max() : nil
        host.finishCurrent(score: score, key: session.loop.state.singing.key)
        prepared.remember(
            session.loop.state.userOffset, startedWith: options.userOffset,
            vocals: session.loop.state.singing.vocalsPercent,
            startedWithVocals: songRequestWithOffset.singing.vocalsPercent)
        diagnostics += loaded.diagnostics
        if case .exit(let status) = ending { return status }
        return nil
    }
}
