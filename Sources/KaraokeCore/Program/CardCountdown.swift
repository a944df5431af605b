/// A card's countdown: when it runs out, the whole seconds it shows, and when it next changes (DESIGN §14.2).
///
/// Shared by the cards that go by themselves: the queue's card before a song (5 s) and the card of an entry
/// that cannot be played (3 s).
public struct CardCountdown: Sendable, Equatable {
    /// How long it runs, in seconds.
    public let duration: Double
    /// The monotonic time it runs out.
    public let endsAt: Double

    /// A countdown of `duration` seconds from monotonic time `now`.
    public init(duration: Double, from now: Double) {
        self.duration = duration
        endsAt = now + duration
    }

    /// Whether it has run out at `now`.
    public func isOver(at now: Double) -> Bool { now >= endsAt }

    /// The whole seconds left at `now`, rounded up, as a card counts them down.
    public func secondsLeft(at now: Double) -> Int {
        let left = (endsAt - now).rounded(.up)
        return left.isFinite ? Int(max(0, min(left, duration))) : 0
    }

    /// When the shown seconds next change after `now`: the next whole second, or the end.
    public func nextChange(after now: Double) -> Double {
        let left = endsAt - now
        guard left > 0 else { return now }
        let fraction = left - left.rounded(.down)
        return now + (fraction > 0 ? fraction : 1)
    }
}
