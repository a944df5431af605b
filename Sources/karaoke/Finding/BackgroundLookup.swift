import Glibc
import KaraokeCore

/// An LRCLIB lookup on a thread of its own, for `play --fetch` (DESIGN §11): the player keeps painting
/// and reading keys, and takes the answer when it is there.
final class BackgroundLookup: Sendable {
    /// The song asked for.
    let query: LRCLIBQuery
    /// The server asked.
    let server: String
    private let cache: LRCLIBCache?
    /// The answer, once the lookup is over; taken once.
    private let answer = PthreadLock<LRCLIBAnswer?>(nil)

    /// Starts looking `query` up on `server`, through `cache`.
    init(query: LRCLIBQuery, server: String, cache: LRCLIBCache?) {
        self.query = query
        self.server = server
        self.cache = cache
        // A plain pthread, as for mpv's reader: the request blocks in libcurl for up to its time limit.
        let box = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let lookup = Unmanaged<BackgroundLookup>.fromOpaque(context!).takeRetainedValue()
                lookup.run()
                return nil
            }, box)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<BackgroundLookup>.fromOpaque(box).release()
            answer.withLock {
                $0 = LRCLIBAnswer(failure: "cannot start the lookup: \(LyricFile.describe(started))", query: query)
            }
        }
    }

    /// The answer, the first time it is asked for after the lookup ended; nil before and after.
    func take() -> LRCLIBAnswer? {
        answer.withLock { state in
            defer { state = nil }
            return state
        }
    }

    /// Asks the cache, then the server, and keeps what the player will show.
    private func run() {
        let made: LRCLIBAnswer
        switch LRCLIBLookup.records(for: query, server: server, cache: cache) {
        case .success(let records): made = LRCLIBAnswer(records: records, query: query)
        case .failure(let failure): made = LRCLIBAnswer(failure: failure.message, query: query)
        }
        answer.withLock { $0 = made }
    }
}
