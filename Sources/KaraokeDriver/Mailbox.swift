/// A locked queue a background thread posts into and the driver takes from, waking the driver as it
/// posts (DESIGN §17.3): every event source of a screen (mpv's reader, a player's connection, a lookup,
/// the microphones) hands its events over through one.
public final class Mailbox<Message: Sendable>: Sendable {
    private let messages = PthreadLock<[Message]>([])
    private let wake: WakePipe?
    /// The most messages kept for a taker that is late; past it the oldest are dropped.
    private let limit: Int

    /// An empty mailbox that wakes `wake`'s poller on every post (none: nobody sleeps on it) and keeps at
    /// most `limit` messages (a source that never stops, such as a microphone, must not grow without end
    /// while nobody takes).
    public init(waking wake: WakePipe?, keepingAtMost limit: Int = .max) {
        precondition(limit > 0, "a mailbox keeps at least one message")
        self.wake = wake
        self.limit = limit
    }

    /// Adds `message`; with `wakes` false it waits for the driver's next wake rather than causing one
    /// (a reading that matters only when the next frame is painted).
    public func post(_ message: Message, wakes: Bool = true) {
        messages.withLock { queued in
            if queued.count == limit { queued.removeFirst() }
            queued.append(message)
        }
        if wakes { wake?.post() }
    }

    /// Every message posted since the last call, oldest first.
    public func take() -> [Message] {
        messages.withLock { queued in
            defer { queued.removeAll() }
            return queued
        }
    }
}
