/// What a lyrics screen shows over the song besides its position: a notice in the status bar with its
/// end, the help box, reduce motion and the user offset (DESIGN §8, §12, §13.1).
///
/// `PlayerState`, `FollowLoop` and `SyncSession` each keep one; the keys that change it are the same on
/// every screen, and the frame reads it whole (`FrameInput`).
public struct Overlay: Sendable, Equatable {
    /// The largest user offset either way, in milliseconds: an hour. `--offset`, the offset keys and the
    /// remembered offsets (`OffsetMemory`) all hold to it.
    public static let offsetLimit = 3_600_000

    /// A status-bar notice and when it goes.
    public struct Notice: Sendable, Equatable {
        /// What it says.
        public var text: String
        /// The monotonic time it goes away; nil: it stays until another replaces it.
        public var until: Double?
    }

    /// The notice posted last, shown while it lasts.
    public private(set) var notice: Notice?
    /// Whether the help box is shown; closing it goes back to its first page.
    public var showsHelp = false {
        didSet { if !showsHelp { helpPage = 0 } }
    }
    /// The page of the help box shown, from 0.
    public private(set) var helpPage = 0
    /// Whether the sweep is replaced by whole units lighting and the title stands still.
    public var reduceMotion: Bool
    /// The user's offset in milliseconds (`--offset`, the offset keys), within ±`offsetLimit`.
    public private(set) var userOffset: Int
    /// Whether `t` has hidden the romanization rows (DESIGN §29.3); `--no-romanization` hides them anyway.
    public var hidesRomanization = false

    /// An overlay with no notice and the help closed.
    public init(reduceMotion: Bool = false, userOffset: Int = 0) {
        self.reduceMotion = reduceMotion
        self.userOffset = Overlay.clampedOffset(userOffset)
    }

    /// `milliseconds` held within ±`offsetLimit`.
    public static func clampedOffset(_ milliseconds: Int) -> Int {
        max(-offsetLimit, min(offsetLimit, milliseconds))
    }

    /// What a key shared by the lyrics screens does to the overlay.
    public enum Change: Sendable, Equatable {
        /// Moves the user offset by this many milliseconds (+ / −).
        case adjustOffset(Int)
        /// Turns reduce motion on or off (`r`).
        case toggleReduceMotion
        /// Hides or shows the romanization rows (`t`, DESIGN §29.3).
        case toggleRomanization
        /// Opens or closes the help box (`?`, and Esc while it is open).
        case toggleHelp
        /// Shows the help box's next page, or closes it after the last (any other key while it is open).
        case turnHelpPage
    }

    /// The shared keys, the same on `play` and `follow`: + and − move the offset by a tenth of a second, r
    /// turns reduce motion on or off, ? and h open or close the help.
    ///
    /// While the help is open (DESIGN §4.2) ?, h and Esc close it, q is left to the screen (it quits), and
    /// any other key turns its page, closing it after the last: a key pressed to read on does nothing else.
    public static func change(boundTo key: Key, helpShown: Bool) -> Change? {
        if helpShown {
            switch key {
            case .escape, .character("?"), .character("h"): return .toggleHelp
            case .character("q"), .character("Q"): return nil
            default: return .turnHelpPage
            }
        }
        return switch key {
        case .character("+"), .character("="): .adjustOffset(100)
        case .character("-"), .character("_"), .character("−"): .adjustOffset(-100)
        case .character("r"), .character("R"): .toggleReduceMotion
        case .character("t"), .character("T"): .toggleRomanization
        case .character("?"), .character("h"): .toggleHelp
        default: nil
        }
    }

    /// Applies what a shared key does at monotonic `now`. Turning reduce motion on or off says so in a
    /// notice for `seconds`, as the other toggles do, since nothing else on a still screen shows it; the
    /// offset shows in the status bar by itself. `helpPages` is how many pages the help box has on the
    /// screen now (`FrameComposer.helpPageCount`), for `.turnHelpPage`.
    public mutating func apply(_ change: Change, at now: Double, noticeFor seconds: Double, helpPages: Int = 1) {
        switch change {
        case .adjustOffset(let milliseconds): adjustOffset(by: milliseconds)
        case .toggleReduceMotion:
            reduceMotion.toggle()
            post(Overlay.reduceMotionNotice(reduceMotion), at: now, for: seconds)
        case .toggleRomanization:
            hidesRomanization.toggle()
            post("romanization \(hidesRomanization ? "off" : "on")", at: now, for: seconds)
        case .toggleHelp: showsHelp.toggle()
        case .turnHelpPage: turnHelpPage(of: helpPages)
        }
    }

    /// Shows the help box's next page of `pages`, or closes it when the last was shown.
    public mutating func turnHelpPage(of pages: Int) {
        helpPage += 1
        if helpPage >= pages { showsHelp = false }
    }

    /// The notice of `r`: `reduce motion on` or `reduce motion off`.
    public static func reduceMotionNotice(_ isOn: Bool) -> String { "reduce motion \(isOn ? "on" : "off")" }

    /// Moves the user offset by `milliseconds`, no further than the limit.
    public mutating func adjustOffset(by milliseconds: Int) {
        userOffset = Overlay.clampedOffset(userOffset + milliseconds)
    }

    /// Sets the user offset back to 0 (the lyric file holds it now, DESIGN §13.2).
    public mutating func clearOffset() {
        userOffset = 0
    }

    /// Shows `text` from `now` for `seconds` (nil: until another notice replaces it).
    public mutating func post(_ text: String, at now: Double, for seconds: Double?) {
        notice = Notice(text: text, until: seconds.map { now + $0 })
    }

    /// Takes the notice away when it still says `text`: what it said is no longer so.
    public mutating func withdraw(_ text: String) {
        if notice?.text == text { notice = nil }
    }

    /// The notice to show at `now`, if any.
    public func noticeText(at now: Double) -> String? {
        guard let notice, notice.until.map({ now < $0 }) ?? true else { return nil }
        return notice.text
    }

    /// When the notice shown at `now` goes; nil when none is shown or it stays until replaced.
    public func noticeEnd(after now: Double) -> Double? {
        guard let until = notice?.until, until > now else { return nil }
        return until
    }
}

/// A screen's key actions that carry the overlay's shared keys in one case, `.overlay` (`PlayerAction`,
/// `FollowAction`): the spellings `.adjustOffset(ms)`, `.toggleReduceMotion` and `.toggleHelp` are written
/// once, here, and each screen applies them with one `Overlay.apply`.
public protocol OverlayActions {
    /// The action for a shared key's change to the overlay.
    static func overlay(_ change: Overlay.Change) -> Self
}

extension OverlayActions {
    /// Moves the user offset by `milliseconds`.
    public static func adjustOffset(_ milliseconds: Int) -> Self { .overlay(.adjustOffset(milliseconds)) }
    /// Turns reduce motion on or off.
    public static var toggleReduceMotion: Self { .overlay(.toggleReduceMotion) }
    /// Opens or closes the help box.
    public static var toggleHelp: Self { .overlay(.toggleHelp) }
    /// Turns the help box's page, closing it after the last.
    public static var turnHelpPage: Self { .overlay(.turnHelpPage) }
}
