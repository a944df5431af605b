import Glibc

/// The one way karaoke starts a thread (DESIGN §17.3): a plain pthread, for work that blocks in a read
/// or a library call for a long time (mpv's socket, a D-Bus or MPD connection, a microphone, a lookup),
/// with every signal blocked in it so that signals reach only the thread that waits for them.
public final class BackgroundThread: Sendable {
    private let thread: pthread_t

    private init(thread: pthread_t) {
        self.thread = thread
    }

    /// Why the system refused a thread: `pthread_create`'s error number.
    public struct Refusal: Error {
        /// The error number (EAGAIN: too many threads).
        public let code: Int32
    }

    /// Runs `body` on a new thread that the caller joins (`join()`).
    public static func start(_ body: @escaping @Sendable () -> Void) throws(Refusal) -> BackgroundThread {
        BackgroundThread(thread: try spawn(body))
    }

    /// Runs `body` on a new thread that nobody waits for.
    public static func detach(_ body: @escaping @Sendable () -> Void) throws(Refusal) {
        pthread_detach(try spawn(body))
    }

    /// Waits for the thread's body to return.
    public func join() {
        pthread_join(thread, nil)
    }

    /// Gives up waiting for a started thread: it ends on its own, or with the process (a body stuck in a
    /// call nothing can interrupt, such as `getaddrinfo`). Neither `join` nor `detach` may follow.
    public func detach() {
        pthread_detach(thread)
    }

    /// The body, kept alive across the start.
    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    private static func spawn(_ body: @escaping @Sendable () -> Void) throws(Refusal) -> pthread_t {
        // Blocked around the start, so the new thread begins with every signal blocked (it inherits the
        // mask) and no signal can land in it before it could block them itself.
        var all = sigset_t()
        sigfillset(&all)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                return nil
            }, box)
        guard started == 0 else {
            Unmanaged<Body>.fromOpaque(box).release()
            throw Refusal(code: started)
        }
        return thread
    }
}
