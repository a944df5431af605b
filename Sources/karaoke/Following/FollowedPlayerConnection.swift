import KaraokeCore

/// A connection to the player `karaoke follow` follows (DESIGN §12).
///
/// A thread of its own talks to the player (the D-Bus session bus, MPD's socket), keeps looking when the
/// player is away, and queues `FollowMessage`s stamped with the monotonic time; it posts `wake` whenever
/// it queues one, so the follow loop sleeps in `poll` until the player says something.
protocol FollowedPlayerConnection: AnyObject, Sendable {
    /// The messages queued since the last call, in order.
    func takeMessages() -> [FollowMessage]
    /// Asks the player to do `command` (queued; the answer, if the player refuses, is a `.notice`).
    func send(_ command: PlayerCommand)
    /// Closes the connection and ends its thread; the player is left as it is (playing on).
    func stop()
}
