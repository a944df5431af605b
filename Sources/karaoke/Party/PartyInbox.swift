import Glibc
import KaraokeCore
import KaraokeDriver

/// The guests' requests on their way from the server's thread to the driver's (DESIGN §21.2): the server's
/// handler posts each one and waits for the driver to answer it, at most `patience` seconds, then answers
/// 503 itself. The party's state is only ever touched on the driver's thread.
final class PartyInbox: Sendable {
    /// How long a guest's request waits for the driver (which may be starting a song) before the 503.
    static let patience = 3.0

    /// One request waiting for its reply.
    final class Pending: Sendable {
        let request: HTTPRequest
        /// The reply once made; `given` says whether anybody still waits for it.
        private let state = PthreadLock<(reply: HTTPReply?, abandoned: Bool)>((nil, false))
        private let ready = Semaphore()

        init(_ request: HTTPRequest) { self.request = request }

        /// Hands over the reply; false when the server gave up waiting (the request is then not carried out).
        func answer(_ make: () -> HTTPReply) -> Bool {
            let taken = state.withLock { state -> Bool in
                guard !state.abandoned else { return false }
                state.reply = make()
                return true
            }
            if taken { ready.signal() }
            return taken
        }

        /// Whether the server still waits for the reply.
        var isWanted: Bool { state.withLock { !$0.abandoned } }

        /// The reply, waiting at most `seconds`; nil (and the request abandoned) when none came in time.
        func reply(within seconds: Double) -> HTTPReply? {
            if ready.wait(seconds: seconds) { return state.withLock { $0.reply } }
            return state.withLock { state -> HTTPReply? in
                // The answer may have come just as the wait ended.
                if let reply = state.reply { return reply }
                state.abandoned = true
                return nil
            }
        }
    }

    private let mailbox: Mailbox<Pending>

    /// An inbox waking `wake`'s poller with every request.
    init(waking wake: WakePipe) {
        mailbox = Mailbox(waking: wake, keepingAtMost: 256)
    }

    /// The server's handler: the request to the driver, its reply back, or 503 when the driver is too slow.
    func handle(_ request: HTTPRequest) -> HTTPReply {
        let pending = Pending(request)
        mailbox.post(pending)
        return pending.reply(within: Self.patience)
            ?? PartyAPI.errorReply(503, "the host's screen is busy; try again in a moment")
    }

    /// The requests posted since the last call, still wanted.
    func take() -> [Pending] { mailbox.take().filter(\.isWanted) }
}

/// A POSIX semaphore, for the one wait with a deadline the inbox needs.
final class Semaphore: @unchecked Sendable {
    // sem_t is only reached through this pointer, which sem_* functions synchronise.
    private let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)

    init() { sem_init(semaphore, 0, 0) }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    func signal() { sem_post(semaphore) }

    /// Waits until signalled or `seconds` pass; true when signalled.
    func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let whole = Int(seconds)
        deadline.tv_sec += whole
        deadline.tv_nsec += Int((seconds - Double(whole)) * 1e9)
        if deadline.tv_nsec >= 1_000_000_000 {
            deadline.tv_sec += 1
            deadline.tv_nsec -= 1_000_000_000
        }
        while sem_timedwait(semaphore, &deadline) != 0 {
            if errno != EINTR { return false }
        }
        return true
    }
}
