import KaraokeCore
import KaraokeDriver

/// The terminal as a song at the party sees it (DESIGN §20.6): the host's party keys are taken before the
/// player sees them, and the up-next list (`PartySongPanel`) is laid over each frame while it is open.
final class PartySongScreen: Screen {
    private let screen: any Screen
    private let host: PartyHost
    private var panel = PartySongPanel()
    /// The player's last frame, to lay the list over again when only the list changed.
    private var lastFrame: Frame?

    init(over screen: any Screen, host: PartyHost) {
        self.screen = screen
        self.host = host
    }

    var size: (columns: Int, rows: Int) { screen.size }

    func paint(_ frame: Frame) {
        lastFrame = frame
        // The view is made only while the list is open: frames come thirty times a second.
        screen.paint(panel.isOpen ? panel.overlay(on: frame, view: host.view()) : frame)
    }

    func invalidate() { screen.invalidate() }

    func readInput() -> ScreenInput {
        while true {
            let input = screen.readInput()
            guard case .key(let key) = input, let action = PartyHostKeys.inSong(key, listOpen: panel.isOpen) else {
                return input
            }
            if let change = panel.handle(action, view: host.view()) { host.apply(change) }
            panel.follow(host.view())
            repaint()
        }
    }

    /// Paints the last frame again with the list as it is now: the queue changed, or the list did.
    func repaint() {
        if let lastFrame { screen.paint(panel.overlay(on: lastFrame, view: host.view())) }
    }

    func suspend() { screen.suspend() }

    func resume() { screen.resume() }
}
