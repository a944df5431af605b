import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke party`: guests request songs from their phones, the rotation decides who sings next, and the
/// terminal shows the up-next card between songs and plays each song as `play` does (DESIGN §20).
///
/// The server answers on its own thread only by handing each request to this thread (`PartyInbox`), so the
/// party's state (`PartyHost`) has one owner; the card and each song run on the one driver, with the inbox
/// as one of their sources.
enum PartyCommand {
    static func run(_ request: PartyRequest) -> Int32 {
        guard isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 else {
            StandardStreams.err("karaoke: party needs a terminal on stdin and stdout")
            return 2
        }
        let found = PartyCatalog.find(in: request.searchedFolders)
        for problem in found.problems { StandardStreams.err("karaoke: \(problem)") }
        guard !found.songs.isEmpty else {
            let named = request.searchedFolders.map(ControlCharacters.strip).joined(separator: ", ")
            StandardStreams.err("karaoke: no songs in \(named): a party needs lyric or karaoke files to offer")
            return 1
        }
        let songs = PartySongs(found.songs)
        let journalPath = PartyJournal.standardPath(environment: TerminalInfo.environment)
        let day = today()
        guard let start = beginning(journalPath: journalPath, day: day, answer: request.resume) else { return 1 }
        let resumed: PartyJournal? = if case .resume(let journal) = start { journal } else { nil }
        var rotation = resumed?.rotation ?? PartyRotation()
        rotation.maximumPerSinger = request.maximumPerSinger
        var notices: [String] = []
        if resumed != nil {
            rotation.putBackCurrent()
            let gone = rotation.removeRequests { songs[$0.song] == nil }
            if !gone.isEmpty { notices.append("\(gone.count) requested songs are no longer in the folders") }
            notices.append("the party goes on where it stopped")
        }
        let code = request.code ?? resumed?.code ?? PartyAPI.roomCode(from: UInt64.random(in: 0...UInt64.max))
        let api = PartyAPI(songs: songs, code: code, page: Array(PartyPage.html.utf8), rotation: rotation)

        // The signals are blocked before the server's thread starts, so they come to this thread's wait.
        guard let waiter = PollWaiter.forTerminal() else { return 2 }
        let inbox = PartyInbox(waking: waiter.wake)
        let server: HTTPServer
        do {
            server = try HTTPServer.start(bind: request.bind, port: request.port) { inbox.handle($0) }
        } catch {
            StandardStreams.err("karaoke: \(error.message)")
            return 1
        }
        defer { server.stop() }
        let address = LocalAddress.guestLink(bind: request.bind, port: server.port)
        var qr: QRModules?
        do {
            qr = try QREncoder.encode(address)
        } catch {
            notices.append("no QR code: \(error)")
        }
        let host = PartyHost(
            api: api, scoreboard: resumed?.scoreboard ?? PartyScoreboard(),
            keys: resumed?.keys ?? SingerKeys(), files: found.files, address: address, qr: qr, inbox: inbox,
            wake: waiter.wake, scores: request.play.scoring.isOn, journalPath: journalPath, day: day)
        host.writeJournal(force: true)
        for notice in notices { host.announce(notice) }

        let colors = request.play.display.color != .never && !TerminalInfo.noColorRequested
        guard let screen = NCursesScreen.openOrExplain(colors: colors, graphemes: request.play.display.graphemes)
        else { return 2 }
        var evening = PartyEvening(request: request, host: host, screen: screen, waiter: waiter)
        let status = evening.run()
        screen.close()
        StandardStreams.report(evening.diagnostics)
        ScreenOptions.reportRomanizationFailure()
        if let problem = host.journalProblem { StandardStreams.err("karaoke: \(problem)") }
        return status
    }

    /// How the evening begins.
    enum Beginning {
        /// A new party.
        case fresh
        /// Today's party, from its journal.
        case resume(PartyJournal)
    }

    /// A new party, or today's unfinished one when `answer` (`--resume`, else the host asked now) says so; nil
    /// when the question was not answered (stdin ended).
    static func beginning(journalPath path: String?, day: String, answer: Bool?) -> Beginning? {
        guard let path, case .success(let bytes) = LyricFile.read(path, maxSize: 16 * 1_048_576) else {
            return .fresh
        }
        let journal: PartyJournal
        do {
            journal = try PartyJournal(decoding: bytes)
        } catch {
            // Kept for a look, never read again: the party starts afresh.
            let aside = path + ".damaged"
            rename(path, aside)
            StandardStreams.err(
                "karaoke: warning: \(ControlCharacters.strip(path)): \(error); kept as \(ControlCharacters.strip(aside))"
            )
            return .fresh
        }
        guard journal.day == day, journal.hasEvening else { return .fresh }
        if let answer { return answer ? .resume(journal) : .fresh }
        let waiting = journal.rotation.requests.count + (journal.rotation.now == nil ? 0 : 1)
        let sung = journal.scoreboard.entries.reduce(0) { $0 + $1.songsSung }
        StandardStreams.out(
            "Today's party stopped with \(waiting) songs waiting and \(sung) sung. Go on with it? [Y/n] ")
        guard let line = readLine() else { return nil }
        let said = line.split(whereSeparator: \.isWhitespace).joined().lowercased()
        return said.isEmpty || said == "y" || said == "yes" ? .resume(journal) : .fresh
    }

    /// The local date as the journal names it: `2026-12-02`.
    static func today() -> String {
        var now = time(nil)
        var parts = tm()
        localtime_r(&now, &parts)
        let month = Int(parts.tm_mon) + 1, day = Int(parts.tm_mday)
        return "\(Int(parts.tm_year) + 1900)-\(month < 10 ? "0" : "")\(month)-\(day < 10 ? "0" : "")\(day)"
    }
}
