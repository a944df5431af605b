import KaraokeCore
import KaraokeDriver

/// A card on the terminal (the queue's card before a song, the score card after one): the core's
/// `CardProgram` run by the driver until a key, the card's time or a signal ends it (DESIGN §17.1).
enum CardScreen {
    /// How a card ended.
    enum Ending<Answer: Equatable>: Equatable {
        case answer(Answer)
        /// A signal that ends the player, with its exit status.
        case signal(Int32)
    }

    /// Shows `card` until it is answered, or a signal ends the player.
    static func show<Card: ScreenCard>(
        _ card: Card, on screen: NCursesScreen, waiter: PollWaiter, options: FrameOptions
    ) -> Ending<Card.Answer> {
        let size = screen.size
        var program = CardProgram(card: card, options: options, columns: size.columns, rows: size.rows)
        var driver = TerminalDriver<CardProgram<Card>>(screen: screen, waiter: waiter)
        switch driver.run(&program, perform: { _, _ in .stop }) {
        case .exit(let status): return .signal(status)
        case .stopped(.answer(let answer)): return .answer(answer)
        // The card's only own effect is its answer.
        case .stopped(.screen): return .signal(1)
        }
    }
}
