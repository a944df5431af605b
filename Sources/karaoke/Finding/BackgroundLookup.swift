import Glibc
import KaraokeCore
import KaraokeDriver

/// An LRCLIB lookup on a thread of its own, for `play --fetch` (DESIGN §11): the player keeps painting
/// and reading keys, and takes the answer when it is there.
final class BackgroundLookup: Sendable {
    /// The song asked for.
    let query: LRCLIBQuery
    /// The server asked.
    let server: String
    private let cache: LRCLIBCache?
    /// The answer, once the lookup is over; taken once.
    private let answer: Mailbox<LRCLIBAnswer>

    /// Starts looking `query` up on `server`, through `cache`; the answer wakes `wake`'s poller.
    init(query: LRCLIBQuery, server: String, cache: LRCLIBCache?, wake: WakePipe?) {
        self.query = query
        self.server = server
        self.cache = cache
        answer = Mailbox(waking: wake)
        // A thread of its own: the request blocks in libcurl for up to its time limit.
        do {
            try BackgroundThread.detach { [self] in run() }
        } catch {
            answer.post(
                LRCLIBAnswer(failure: "cannot start the lookup: \(LyricFile.describe(error.code))", query: query))
        }
    }

    /// The answer, the first time it is asked for after the lookup ended; nil before and after.
    func take() -> LRCLIBAnswer? {
        let taken = answer.take().last
        if let taken { diagnostics.withLock { $0 = taken.diagnostics } }
        return taken
    }

    /// The warnings about the lyrics the answer brought, once it was taken; printed after the terminal is back.
    var lateDiagnostics: [Diagnostic] { diagnostics.withLock { $0 } }
    private let diagnostics = PthreadLock<[Diagnostic]>([])

    /// Asks the cache, then the server, and keeps what the player will show.
    private func run() {
        let made: LRCLIBAnswer
        switch LRCLIBLookup.records(for: query, server: server, cache: cache) {
        case .success(let records): made = LRCLIBAnswer(records: records, query: query)
        case .failure(let failure): made = LRCLIBAnswer(failure: failure.message, query: query)
        }
        answer.post(made)
    }
}
