import Glibc
import KaraokeCore
import KaraokeDriver

/// The party's state on the driver's thread (DESIGN §20.6): the API's value (queue, rotation, rate limit), the
/// scoreboard, the singers' keys, and the journal written after every change. The screens see it through
/// `view()`; guests reach it only through `PartyAPI`, answered here from the inbox.
final class PartyHost {
    private(set) var api: PartyAPI
    private(set) var scoreboard: PartyScoreboard
    private(set) var keys: SingerKeys
    /// Each song's file, by id: guests never see these.
    let files: [String: String]
    let address: String
    let qr: QRModules?
    let inbox: PartyInbox
    /// Whether `--score` is on: the card then shows the scoreboard.
    let scores: Bool
    /// Where the journal goes, and the day it names; nil path: the journal is not kept (no home folder).
    private let journalPath: String?
    private let day: String
    /// The revision last written to the journal.
    private var writtenRevision = -1
    /// Why the journal could not be written, once, for the card and the end.
    private(set) var journalProblem: String?
    /// Notices for the screen that is up (a guest's request, a refused key); each wakes the driver.
    private var notices: [String] = [] {
        didSet { if notices.count > oldValue.count { wake.post() } }
    }
    private let wake: WakePipe

    init(
        api: PartyAPI, scoreboard: PartyScoreboard, keys: SingerKeys, files: [String: String], address: String,
        qr: QRModules?, inbox: PartyInbox, wake: WakePipe, scores: Bool, journalPath: String?, day: String
    ) {
        self.wake = wake
        self.api = api
        self.scoreboard = scoreboard
        self.keys = keys
        self.files = files
        self.address = address
        self.qr = qr
        self.inbox = inbox
        self.scores = scores
        self.journalPath = journalPath
        self.day = day
    }

    /// What the screens show now.
    func view() -> PartyView {
        PartyView(
            rotation: api.rotation, songs: api.songs, address: address, code: api.code, qr: qr,
            best: scores ? scoreboard.ranking : [])
    }

    /// Answers every request waiting in the inbox; true when the queue changed. A guest's new request is
    /// announced in the notices.
    func answerRequests(at now: Double) -> Bool {
        let before = api.revision
        for pending in inbox.take() {
            let lastID = api.rotation.nextID
            _ = pending.answer { api.respond(to: pending.request, at: now) }
            if api.rotation.nextID != lastID, let added = api.rotation.requests.last(where: { $0.id == lastID }) {
                notices.append("\(added.singer.shown) asked for \(api.songs.shownName(of: added.song))")
            }
        }
        guard api.revision != before else { return false }
        writeJournal()
        return true
    }

    /// Carries out one of the host's keys; a refusal becomes a notice.
    func apply(_ action: PartyHostAction) {
        do {
            try api.rotation.apply(action)
            if case .toggleRequests = action {
                notices.append(api.rotation.isPaused ? "requests are closed" : "requests are open again")
            }
        } catch {
            notices.append(error.hostMessage)
        }
        writeJournal()
    }

    /// Says `text` on the screen that is up.
    func announce(_ text: String) { notices.append(text) }

    /// The song being sung could not be played: its turn is spent, nothing is recorded.
    func dropCurrent() {
        api.rotation.skipCurrent()
        writeJournal(force: true)
    }

    /// The notices since the last call.
    func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// Takes the next request as the song being sung.
    func startNext() -> PartyRotation.Request? {
        let request = api.rotation.next()
        writeJournal()
        return request
    }

    /// The song being sung is over: its singer's turn is spent, their score and key are kept.
    func finishCurrent(score: Int?, key: Int) {
        guard let current = api.rotation.skipCurrent() else { return }
        scoreboard.record(songBy: current.singer, score: score)
        keys[current.singer] = key
        writeJournal(force: true)
    }

    /// The key `singer` chose last.
    func key(of singer: SingerName) -> Int { keys[singer] }

    /// Writes the journal when something changed since it was last written: a temporary file and a rename,
    /// so a stop at any moment leaves the old journal or the new one.
    func writeJournal(force: Bool = false) {
        guard let journalPath, force || api.revision != writtenRevision else { return }
        writtenRevision = api.revision
        let journal = PartyJournal(
            day: day, code: api.code, rotation: api.rotation, scoreboard: scoreboard, keys: keys)
        let folder = String(journalPath[..<(journalPath.lastIndex(of: "/") ?? journalPath.endIndex)])
        guard TextFile.makeFolders(folder) else {
            note("\(ControlCharacters.strip(folder)): cannot make the folder")
            return
        }
        if case .failure(let failure) = TextFile.save(journal.encoded(), to: journalPath, replacing: true) {
            note(failure.message)
        }
    }

    private func note(_ problem: String) {
        guard journalProblem == nil else { return }
        journalProblem = "the party's journal was not written: \(problem)"
        notices.append(journalProblem!)
    }
}
