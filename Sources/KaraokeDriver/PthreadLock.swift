import Glibc

/// State shared between threads behind a pthread mutex.
///
/// Used instead of `Synchronization.Mutex` for the threads karaoke starts: on Linux
/// `Mutex` locks with futexes in code ThreadSanitizer cannot see, so `make check-tsan` reported every
/// access under it as a race. pthread mutexes are what TSan understands, and cost the same here.
public final class PthreadLock<State>: @unchecked Sendable {
    /// The mutex, at a fixed address as pthreads require.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// The state; touched only with `mutex` held.
    private var state: State

    /// A lock around `state`.
    public init(_ state: State) {
        self.state = state
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` on the state with the lock held.
    public func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
}
