/// The host's screen between songs and before the first (DESIGN §22.2): the up-next card, the host's keys on
/// it, and the countdown to the next song.
///
/// With a request waiting the next song starts by itself when the countdown runs out (Enter starts it at once);
/// with nothing queued the card waits, however long it takes. Every change to the queue arrives as `.changed`
/// and is painted at once.
public struct PartyCardProgram: TerminalProgram {
    /// What the card takes: the screen's events, a new view of the party, and a notice for the status row.
    public enum Event: Sendable, Equatable, ProgramEvent {
        /// A tick, a key, a signal or a resize.
        case screen(ScreenEvent)
        /// The party changed: show this from now on.
        case changed(PartyView)
        /// Say this in the status row for a while (a refused change, a guest's request).
        case notice(String)
    }

    /// What the card asks for: the screen's effects, the host's changes and the next song.
    public enum Effect: Sendable, Equatable, ProgramEffect {
        /// Paint, wait, suspend or exit.
        case screen(ScreenEffect)
        /// Change the rotation; the edge reports `.changed` (or a `.notice` saying why not).
        case host(PartyHostAction)
        /// The card is over: sing the next request.
        case sing

        /// The screen's part of the effect; nil for the party's own.
        public var screenEffect: ScreenEffect? {
            if case .screen(let effect) = self { effect } else { nil }
        }
    }

    /// Seconds the card shows the next singer before their song starts by itself.
    public static let countdownSeconds = 15.0
    /// Seconds a notice stays in the status row.
    public static let noticeSeconds = 4.0

    /// What the card shows.
    public private(set) var view: PartyView
    /// The request the host's keys act on, an index into `view.upNext`.
    public private(set) var selected: Int?
    /// The countdown to the next song; nil while nothing is queued or the host holds it.
    public private(set) var countdown: CardCountdown?
    /// Whether the host holds the next song (p): it starts only with Enter.
    public private(set) var isHeld = false
    private var notice: (text: String, until: Double)?
    private var size: (columns: Int, rows: Int)

    /// A card of `view` on a `columns` × `rows` screen.
    public init(view: PartyView, columns: Int, rows: Int) {
        self.view = view
        size = (columns, rows)
    }

    /// The card at once, and the countdown when a request waits.
    public mutating func start(at now: Double) -> [Effect] {
        restartCountdown(at: now)
        return [.paint(frame(at: now)), .wait(until: wake(after: now))]
    }

    /// Takes `event` at monotonic time `now`.
    public mutating func handle(_ event: Event, at now: Double) -> [Effect] {
        switch event {
        case .changed(let view):
            let selectedID = selected.map { self.view.requestIDs[$0] }
            self.view = view
            // The selection stays on its request while it waits, else on the same place.
            if let selectedID, let index = view.requestIDs.firstIndex(of: selectedID) {
                selected = index
            } else if let place = selected {
                selected = view.upNext.isEmpty ? nil : min(place, view.upNext.count - 1)
            }
            if view.upNext.isEmpty {
                countdown = nil
            } else if countdown == nil {
                restartCountdown(at: now)
            }
        case .notice(let text):
            notice = (text, now + Self.noticeSeconds)
        case .screen(.tick):
            if let countdown, countdown.isOver(at: now) { return [.sing] }
            if let shown = notice, now >= shown.until { notice = nil }
        case .screen(.key(let key)):
            guard let action = PartyHostKeys.onCard(key) else { return [.wait(until: wake(after: now))] }
            switch action {
            case .select(let step):
                guard !view.upNext.isEmpty else { return [.wait(until: wake(after: now))] }
                let count = view.upNext.count
                selected = selected.map { min(max($0 + step, 0), count - 1) } ?? (step > 0 ? 0 : count - 1)
            case .remove, .moveUp:
                guard let selected, selected < view.requestIDs.count else {
                    notice = ("choose a request with ↑ ↓ first", now + Self.noticeSeconds)
                    break
                }
                let id = view.requestIDs[selected]
                return [.host(action == .remove ? .remove(id) : .moveUp(id)), .wait(until: wake(after: now))]
            case .toggleRequests:
                return [.host(.toggleRequests), .wait(until: wake(after: now))]
            case .singNow:
                if !view.upNext.isEmpty { return [.sing] }
                notice = ("nothing is queued yet", now + Self.noticeSeconds)
            case .hold:
                isHeld.toggle()
                countdown = nil
                restartCountdown(at: now)
            case .quit:
                return [.exit(0)]
            }
        case .screen(.signal(.suspend)):
            return [.suspend]
        case .screen(.signal(.resumed)):
            break
        case .screen(.signal(let signal)):
            return [.exit(signal.exitStatus)]
        case .screen(.resize(let columns, let rows)):
            size = (columns, rows)
        }
        return [.paint(frame(at: now)), .wait(until: wake(after: now))]
    }

    /// A full countdown from `now` when a request waits and the host does not hold it; else none.
    private mutating func restartCountdown(at now: Double) {
        countdown = view.upNext.isEmpty || isHeld ? nil : CardCountdown(duration: Self.countdownSeconds, from: now)
    }

    /// The card as it is at `now`.
    public func frame(at now: Double) -> Frame {
        view.card(selected: selected, status: status(at: now)).frame(columns: size.columns, rows: size.rows)
    }

    /// The status row: a notice while it lasts, else the countdown and the keys.
    func status(at now: Double) -> String {
        if let notice, now < notice.until { return notice.text }
        if isHeld { return "held: Enter sings the next song, p lets the countdown run · \(PartyHostKeys.cardHelp)" }
        guard let countdown, let next = view.upNext.first else { return PartyHostKeys.cardHelp }
        return "\(next.singer) sings in \(countdown.secondsLeft(at: now)) s · \(PartyHostKeys.cardHelp)"
    }

    /// When the card next changes by itself: the countdown's next second, or a notice's end.
    func wake(after now: Double) -> Double? {
        [countdown?.nextChange(after: now), notice.map(\.until)].compactMap { $0 }.min()
    }
}
