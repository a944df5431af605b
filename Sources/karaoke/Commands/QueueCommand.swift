import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke play` with several FILEs, a folder or a playlist: a queue of songs, a card before each
/// (DESIGN §14.2).
///
/// What comes next is the core's `QueueEvening` (over a `SongQueue`), the cards are the core's (`QueueCard`,
/// `SkippedCard`, `EndCard`), and each song is a `PlaySession` of its own with its own mpv: a new mpv per
/// song starts each from a clean state (filters, pause, the end of the last file) with the lifecycle `play`
/// already has, and its start-up is hidden behind the card.
enum QueueCommand {
    /// Whether `request` makes a queue: several FILEs, a folder or a playlist.
    static func makesQueue(_ request: PlayRequest) -> Bool {
        request.files.count > 1 || AudioSource.isDirectory(request.display.file)
            || Playlist.isPlaylist(request.display.file)
    }

    /// Plays the queue; returns the exit status: 0 on q, 1 when no song could be read (DESIGN §14.2).
    ///
    /// The core's `QueueEvening` says what comes next; this only reads songs, shows cards and plays.
    static func run(_ request: PlayRequest) -> Int32 {
        var diagnostics: [Diagnostic] = []
        var entries: [QueueEntry] = []
        // Notes for the first card about the FILEs themselves; printed on stderr at the end too.
        var notes: [String] = []
        for file in request.files {
            switch expand(file, maxSize: request.display.maxSize) {
            case .success(let found):
                entries += found.entries
                diagnostics += found.diagnostics
                if found.entries.isEmpty { notes.append("\(ControlCharacters.strip(file)): no songs in it") }
            case .failure(let failure):
                notes.append(failure.message)
            }
        }
        let fileNotes = notes
        guard !entries.isEmpty else {
            StandardStreams.report(diagnostics)
            for note in fileNotes { StandardStreams.err("karaoke: \(note)") }
            StandardStreams.err("karaoke: the queue is empty")
            return 1
        }
        // Playlist warnings join the notes of the first card.
        notes += diagnostics.map(\.description)
        var seed: UInt64?
        if request.queue.shuffles {
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            seed = request.queue.seed ?? UInt64(truncatingIfNeeded: now.tv_sec &* 1_000_000_007 &+ now.tv_nsec)
        }
        var evening = QueueEvening(
            queue: SongQueue(entries: entries, seed: seed, loops: request.queue.loops), notes: notes,
            singer: request.queue.singer)
        guard let clockLog = PlayCommand.openClockLog(request) else { return 1 }
        var options = ScreenOptions.of(request.display)
        guard let (screen, waiter) = PlayCommand.openScreen(request) else { return 2 }
        options.graphemes = screen.graphemes

        var scoreEnding = ScoreEnding(output: request.scoring.output, isQueue: true)
        var start = request.start
        // The song read last: what a card's answer plays.
        var ready: (request: PlayRequest, prepared: PlayCommand.Prepared)?
        var step = evening.firstStep
        var status: Int32 = 0
        steps: while true {
            switch step {
            case .read(let entry):
                var songRequest = request
                songRequest.display.file = entry.path
                songRequest.files = [entry.path]
                songRequest.start = start
                switch PlayCommand.prepare(songRequest) {
                case .success(let prepared):
                    ready = (songRequest, prepared)
                    let loaded = prepared.loaded
                    step = evening.read(
                        title: loaded.song.metadata.displayTitle, fallbackTitle: loaded.fallbackTitle,
                        now: monotonicSeconds())
                case .failure(let failure):
                    // Not the end of the evening: the entry has its own card, and the queue goes on.
                    diagnostics += failure.diagnostics
                    let skip = SkippedEntry(file: failure.file ?? entry.path, reason: failure.reason)
                    step = evening.unreadable(skip, now: monotonicSeconds())
                }
            case .card(let card):
                switch CardScreen.show(card, on: screen, waiter: waiter, options: options) {
                case .answer(let answer): step = evening.answer(answer)
                case .signal(let code): step = evening.quit(status: code)
                }
            case .skipped(let card):
                switch CardScreen.show(card, on: screen, waiter: waiter, options: options) {
                case .answer(let answer): step = evening.answer(answer)
                case .signal(let code): step = evening.quit(status: code)
                }
            case .end(let card):
                switch CardScreen.show(card, on: screen, waiter: waiter, options: options) {
                case .answer(let answer): step = evening.answer(answer)
                case .signal(let code): step = evening.quit(status: code)
                }
            case .play(let entry):
                guard let (readRequest, prepared) = ready else { preconditionFailure("a song is played once read") }
                step = play(
                    entry, prepared: prepared, request: readRequest, evening: &evening, scoreEnding: &scoreEnding,
                    diagnostics: &diagnostics, screen: screen, waiter: waiter, options: options, clockLog: clockLog)
                // `--start` is for the first song only.
                start = 0
            case .exit(let code):
                status = code
                break steps
            }
        }
        screen.close()
        if clockLog >= 0 { close(clockLog) }
        StandardStreams.report(diagnostics)
        ScreenOptions.reportRomanizationFailure()
        for note in fileNotes + evening.skipped.map(\.note) { StandardStreams.err("karaoke: \(note)") }
        if let problem = scoreEnding.problem {
            StandardStreams.err("karaoke: the score was not saved: \(problem)")
            if status == 0 { status = 1 }
        }
        return status
    }

    /// Plays `entry`, read as `prepared` for `request`, with its own mpv; then its score card, when it was
    /// scored to its end. Returns what the evening does next.
    private static func play(
        _ entry: QueueEntry, prepared: PlayCommand.Prepared, request: PlayRequest, evening: inout QueueEvening,
        scoreEnding: inout ScoreEnding, diagnostics: inout [Diagnostic], screen: NCursesScreen, waiter: PollWaiter,
        options: FrameOptions, clockLog: Int32
    ) -> QueueEvening.Step {
        let loaded = prepared.loaded
        let position = evening.queue.position
        let songRequest = prepared.withRememberedOffset(request)
        var songOptions = options
        songOptions.userOffset = songRequest.display.frame.userOffset
        songOptions.queuePosition = "\(position.number)/\(position.count)"
        var session = PlaySession(
            content: loaded.shown(showsTranslations: request.display.showsTranslations),
            fallbackTitle: loaded.fallbackTitle, options: songOptions, request: songRequest, screen: screen,
            waiter: waiter, audioFile: prepared.audioFile, clockLog: clockLog,
            offsetWriter: prepared.offsetWriter(for: songRequest), graphics: loaded.graphics,
            queued: true)
        if let pendingLookup = prepared.pendingLookup {
            session.lookup = BackgroundLookup(
                query: pendingLookup.query, server: pendingLookup.server, cache: LRCLIBCache.standard(),
                wake: waiter.wake)
        }
        let ending = session.run()
        session.stopAudio()
        let singer = entry.singer ?? request.queue.singer
        let scoreCard = scoreEnding.finish(&session, file: entry.path, singer: singer, options: songOptions)
        prepared.remember(
            session.loop.state.userOffset, startedWith: songOptions.userOffset,
            vocals: session.loop.state.singing.vocalsPercent, startedWithVocals: songRequest.singing.vocalsPercent)
        diagnostics += loaded.diagnostics + session.lateDiagnostics
        switch scoreCard {
        case .answer(.quit)?: return evening.quit()
        case .signal(let code)?: return evening.quit(status: code)
        case .answer(.close)?, nil: break
        }
        switch ending {
        case .exit(let code): return evening.quit(status: code)
        case .nextSong: return evening.nextSong()
        case .previousSong: return evening.previousSong()
        }
    }

    /// The songs FILE stands for: a folder's, a playlist's, or FILE itself.
    static func expand(_ file: String, maxSize: Int) -> Result<
        (entries: [QueueEntry], diagnostics: [Diagnostic]), LyricFile.Failure
    > {
        if AudioSource.isDirectory(file) {
            return .success((Playlist.songs(inFolder: file, names: names(in: file)), []))
        }
        if Playlist.isPlaylist(file) {
            return LyricFile.read(file, maxSize: maxSize).map { bytes in
                let parsed = Playlist.parse(bytes, file: file)
                return (parsed.entries, parsed.diagnostics)
            }.mapError { failure in
                LyricFile.Failure(file: ControlCharacters.strip(file), reason: failure.message)
            }
        }
        return .success(([QueueEntry(path: file)], []))
    }

    /// The names of the entries of `folder` (unsorted; the core sorts and filters them).
    static func names(in folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            names.append(
                withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
                })
        }
        return names
    }
}
