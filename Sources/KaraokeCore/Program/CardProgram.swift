/// A card that fills the screen until a key answers it: the queue's card before each song, the card of an
/// entry it skips, its end card, the score card after a scored song (DESIGN §14.2, §15.5).
public protocol ScreenCard: Sendable {
    /// What a key, or the card's time running out, answers.
    associatedtype Answer: Sendable, Equatable

    /// The card as a frame of `columns` × `rows` at monotonic time `now`.
    func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame
    /// The answer bound to `key`, or nil for keys that do nothing on the card.
    func answer(to key: Key) -> Answer?
    /// The answer the card gives by itself at `now` (its time is up), or nil.
    func timeUp(at now: Double) -> Answer?
    /// When the card next changes after `now` (nil: never by itself).
    func wake(after now: Double) -> Double?
}

/// The program of a card's screen: paints the card when it changes, and ends with its answer
/// (DESIGN §17.1).
public struct CardProgram<Card: ScreenCard>: TerminalProgram {
    /// What the card's screen asks for: the screen's effects, and the answer that ends it.
    public enum Effect: Sendable, Equatable, ProgramEffect {
        /// Paint, wait, suspend or exit.
        case screen(ScreenEffect)
        /// The card was answered (or its time ran out): the screen is over.
        case answer(Card.Answer)

        /// The screen's part of the effect; nil for the answer.
        public var screenEffect: ScreenEffect? {
            if case .screen(let effect) = self { effect } else { nil }
        }
    }

    /// The card shown.
    public let card: Card
    private let options: FrameOptions
    private var size: (columns: Int, rows: Int)

    /// A program showing `card` on a `columns` × `rows` screen.
    public init(card: Card, options: FrameOptions, columns: Int, rows: Int) {
        self.card = card
        self.options = options
        size = (columns, rows)
    }

    /// The card at once, and the wait for its next change.
    public mutating func start(at now: Double) -> [Effect] {
        if let answer = card.timeUp(at: now) { return [.answer(answer)] }
        return [paint(at: now), wait(after: now)]
    }

    /// Takes `event` at monotonic time `now`.
    public mutating func handle(_ event: ScreenEvent, at now: Double) -> [Effect] {
        switch event {
        case .tick:
            if let answer = card.timeUp(at: now) { return [.answer(answer)] }
        case .key(let key):
            if let answer = card.answer(to: key) { return [.answer(answer)] }
            return [wait(after: now)]
        case .signal(.suspend):
            return [.screen(.suspend)]
        case .signal(.resumed):
            break
        case .signal(let signal):
            return [.screen(.exit(signal.exitStatus))]
        case .resize(let columns, let rows):
            size = (columns, rows)
        }
        return [paint(at: now), wait(after: now)]
    }

    private func paint(at now: Double) -> Effect {
        .screen(.paint(card.frame(at: now, columns: size.columns, rows: size.rows, options: options)))
    }

    private func wait(after now: Double) -> Effect {
        .screen(.wait(until: card.wake(after: now)))
    }
}

extension QueueCard: ScreenCard {
    /// The answer bound to `key` (`QueueCard.answer(to:)`).
    public func answer(to key: Key) -> Answer? { QueueCard.answer(to: key) }
    /// The song starts by itself when the countdown ends.
    public func timeUp(at now: Double) -> Answer? { isOver(at: now) ? .start : nil }
    /// The countdown's next second, or its end.
    public func wake(after now: Double) -> Double? { nextChange(after: now) }
}

extension SkippedCard: ScreenCard {
    /// The answer bound to `key` (`SkippedCard.answer(to:)`).
    public func answer(to key: Key) -> Answer? { SkippedCard.answer(to: key) }
    /// The queue goes on by itself when the countdown ends.
    public func timeUp(at now: Double) -> Answer? { countdown.isOver(at: now) ? .goOn : nil }
    /// The countdown's next second, or its end.
    public func wake(after now: Double) -> Double? { countdown.nextChange(after: now) }
}

extension EndCard: ScreenCard {
    /// The card, which does not change with time.
    public func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame {
        frame(columns: columns, rows: rows, options: options)
    }
    /// The end card waits for q however long it takes.
    public func timeUp(at now: Double) -> Answer? { nil }
    /// Nothing on it moves.
    public func wake(after now: Double) -> Double? { nil }
}

extension ScoreCard: ScreenCard {
    /// The card, which does not change with time.
    public func frame(at now: Double, columns: Int, rows: Int, options: FrameOptions) -> Frame {
        frame(columns: columns, rows: rows, options: options)
    }
    /// The answer bound to `key` (`ScoreCard.answer(to:)`).
    public func answer(to key: Key) -> Answer? { ScoreCard.answer(to: key) }
    /// The score card waits for a key however long it takes.
    public func timeUp(at now: Double) -> Answer? { nil }
    /// Nothing on it moves.
    public func wake(after now: Double) -> Double? { nil }
}
