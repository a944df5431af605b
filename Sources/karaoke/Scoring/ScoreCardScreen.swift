import Glibc
import KaraokeCore

/// The end of a scored song on the screen (DESIGN §15.5): the score card, until a key answers it.
enum ScoreCardScreen {
    /// How the card ended.
    enum Ending: Equatable {
        case answer(ScoreCard.Answer)
        /// A signal that ends the player, with its exit status.
        case signal(Int32)
    }

    /// Shows `card` until a key answers it or a signal ends the player; it has no deadline, since nothing on it
    /// moves: the loop sleeps in the key read (at most `PlayLoop.longestWait` at a time, for the signals).
    static func show(_ card: ScoreCard, on screen: NCursesScreen, options: FrameOptions) -> Ending {
        var painted = false
        while true {
            if !painted {
                let size = screen.size
                screen.paint(card.frame(columns: size.columns, rows: size.rows, options: options))
                painted = true
            }
            if let number = Signals.take() {
                guard number == SIGTSTP else { return .signal(128 + number) }
                screen.suspend()
                Signals.suspendSelf()
                screen.resume()
                painted = false
                continue
            }
            switch screen.readInput(timeout: Int(PlayLoop.longestWait * 1000)) {
            case .key(let key):
                if let answer = ScoreCard.answer(to: key) { return .answer(answer) }
            case .resize:
                screen.invalidate()
                painted = false
            case .none:
                break
            }
        }
    }
}
