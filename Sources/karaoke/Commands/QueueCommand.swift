import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke play` with several FILEs, a folder or a playlist: a queue of songs, a card before each
/// (DESIGN §14.2).
///
/// The order and the moves are the core's `SongQueue`, the card is the core's `QueueCard`, and each
/// song is a `PlaySession` of its own with its own mpv: a new mpv per song starts each from a clean
/// state (filters, pause, the end of the last file) with the lifecycle `play` already has, and its
/// start-up is hidden behind the card.
enum QueueCommand {
    /// Whether `request` makes a queue: several FILEs, a folder or a playlist.
    static func makesQueue(_ request: PlayRequest) -> Bool {
        request.files.count > 1 || AudioSource.isDirectory(request.display.file)
            || Playlist.isPlaylist(request.display.file)
    }

    /// Plays the queue; returns the exit status: 0 at its end or on q, 1 when no song could be read.
    static func run(_ request: PlayRequest) -> Int32 {
        var diagnostics: [Diagnostic] = []
        var entries: [QueueEntry] = []
        // Notes for the next card; every note is printed on stderr at the end too.
        var notes: [String] = [], allNotes: [String] = []
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
        allNotes = notes
        guard !entries.isEmpty else {
            StandardStreams.report(diagnostics)
            for note in allNotes { StandardStreams.err("karaoke: \(note)") }
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
        var queue = SongQueue(entries: entries, seed: seed, loops: request.queue.loops)
        guard let clockLog = PlayCommand.openClockLog(request) else { return 1 }
        let options = request.display.frameOptions(colorFGBG: TerminalInfo.environment("COLORFGBG"))
        guard let (screen, waiter) = PlayCommand.openScreen(request) else { return 2 }

        var status: Int32 = 0
        var scoreEnding = ScoreEnding(output: request.scoring.output, isQueue: true)
        // Whether any song could be read: a queue of nothing but broken files exits 1.
        var readAny = false
        var start = request.start
        evening: while true {
            let entry = queue.current
            var songRequest = request
            songRequest.display.file = entry.path
            songRequest.files = [entry.path]
            songRequest.start = start
            let prepared: PlayCommand.Prepared
            switch PlayCommand.prepare(songRequest) {
            case .success(let ready): prepared = ready
            case .failure(let failure):
                // Not the end of the evening: the song is skipped, and the next card says why.
                allNotes.append("skipped \(failure.message)")
                // The card has less room than stderr: the file's name without its folder.
                let shown = ControlCharacters.strip(entry.path)
                var message = failure.message
                if message.hasPrefix(shown + ": "), let name = shown.split(separator: "/").last {
                    message = "\(name)\(message.dropFirst(shown.count))"
                }
                notes.append("skipped \(message)")
                diagnostics += failure.diagnostics
                if !queue.skipUnreadable() { break evening }
                continue
            }
            readAny = true
            let loaded = prepared.loaded
            let position = queue.position
            let card = QueueCard(
                title: loaded.song.metadata.displayTitle ?? entry.title ?? loaded.fallbackTitle,
                singer: entry.singer ?? request.queue.singer, notes: notes, number: position.number,
                count: position.count, now: monotonicSeconds())
            notes = []
            switch CardScreen.show(card, on: screen, waiter: waiter, options: options) {
            case .answer(.start): break
            case .answer(.next):
                if !queue.advance() { break evening }
                continue
            case .answer(.previous):
                _ = queue.goBack()
                continue
            case .answer(.quit): break evening
            case .signal(let code):
                status = code
                break evening
            }
            songRequest = prepared.withRememberedOffset(songRequest)
            var songOptions = options
            songOptions.userOffset = songRequest.display.frame.userOffset
            songOptions.queuePosition = "\(position.number)/\(position.count)"
            var session = PlaySession(
                content: loaded.shown(showsTranslations: request.display.showsTranslations),
                fallbackTitle: loaded.fallbackTitle, options: songOptions, request: songRequest, screen: screen,
                waiter: waiter, audioFile: prepared.audioFile, clockLog: clockLog,
                offsetWriter: prepared.offsetWriter(for: songRequest),
                queued: true)
            if let pendingLookup = prepared.pendingLookup {
                session.lookup = BackgroundLookup(
                    query: pendingLookup.query, server: pendingLookup.server, cache: LRCLIBCache.standard(),
                    wake: waiter.wake)
            }
            let ending = session.run()
            session.audio?.stop()
            let scoreCard = scoreEnding.finish(
                &session, file: entry.path, singer: entry.singer ?? request.queue.singer, options: songOptions)
            prepared.remember(session.loop.state.userOffset, startedWith: songOptions.userOffset)
            diagnostics += loaded.diagnostics + session.lateDiagnostics
            // `--start` is for the first song only.
            start = 0
            switch scoreCard {
            case .answer(.quit)?: break evening
            case .signal(let code)?:
                status = code
                break evening
            case .answer(.close)?, nil: break
            }
            switch ending {
            case .exit(let code):
                status = code
                break evening
            case .nextSong:
                if !queue.advance() { break evening }
            case .previousSong:
                _ = queue.goBack()
            }
        }
        screen.close()
        if clockLog >= 0 { close(clockLog) }
        StandardStreams.report(diagnostics)
        for note in allNotes { StandardStreams.err("karaoke: \(note)") }
        if let problem = scoreEnding.problem {
            StandardStreams.err("karaoke: the score was not saved: \(problem)")
            if status == 0 { status = 1 }
        }
        return readAny || status != 0 ? status : 1
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
                var failure = failure
                failure.message = "\(ControlCharacters.strip(file)): \(failure.message)"
                return failure
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
