/// A key as the player sees it, after the terminal edge has decoded it.
public enum Key: Sendable, Equatable {
    /// A text key: letters, digits, space, punctuation.
    case character(Character)
    case up, down, left, right, home, end, escape
    /// Backspace (or Delete as a terminal sends it for Backspace); only `sync` binds it (DESIGN §13.1).
    case backspace
}

/// The actions of a lyric screen (`play`, `follow`) that every such screen binds to the same keys: the
/// screen's own cases of these names witness the requirements, so `Key.sharedBinding` spells the keys once.
protocol LyricScreenAction {
    /// Go to the start of the previous lyric line.
    static var previousLine: Self { get }
    /// Go to the start of the next lyric line.
    static var nextLine: Self { get }
    /// Change the user offset by milliseconds (positive = lyrics earlier).
    static func adjustOffset(_ milliseconds: Int) -> Self
    /// Turn reduce motion on or off.
    static var toggleReduceMotion: Self { get }
    /// Show or hide the help overlay.
    static var toggleHelp: Self { get }
    /// Quit karaoke.
    static var quit: Self { get }
}

extension Key {
    /// The action of this key when it is one every lyric screen binds alike, else nil (the screen's own
    /// keys): ↑/k and ↓/j a line back and on, + and − the offset by 0.1 s, r reduce motion, ? and h the
    /// help, q and Esc quit; with the help shown, Esc closes it instead.
    func sharedBinding<Action: LyricScreenAction>(helpShown: Bool) -> Action? {
        switch self {
        case .escape where helpShown: return .toggleHelp
        case .up, .character("k"): return .previousLine
        case .down, .character("j"): return .nextLine
        case .character("+"), .character("="): return .adjustOffset(100)
        case .character("-"), .character("_"), .character("−"): return .adjustOffset(-100)
        case .character("r"), .character("R"): return .toggleReduceMotion
        case .character("?"), .character("h"): return .toggleHelp
        case .character("q"), .character("Q"), .escape: return .quit
        default: return nil
        }
    }
}

/// What a key asks the player to do (DESIGN §6).
public enum PlayerAction: Sendable, Equatable, LyricScreenAction {
    case togglePause
    /// Seek by seconds (negative = back).
    case seek(Double)
    case previousLine, nextLine
    case restart
    /// Change the user offset by milliseconds (positive = lyrics earlier).
    case adjustOffset(Int)
    case toggleReduceMotion
    case toggleHelp
    case quit
    /// Change the audio's volume by percent.
    case changeVolume(Int)
    case toggleMute
    /// Write the user offset into the lyric file (DESIGN §13.2).
    case saveOffset
    /// Turn the lead vocal down or back up (DESIGN §14.1).
    case toggleVocals
    /// Move the key by semitones, the tempo kept (DESIGN §14.1).
    case changeKey(Int)
    /// Move the tempo by percent, the pitch kept (DESIGN §14.1).
    case changeTempo(Int)
    /// Go to the next / previous song of a queue (DESIGN §14.2); nothing when one song plays.
    case nextSong, previousSong

    /// The action bound to `key`, or nil for keys that do nothing. With the help shown, Esc closes it.
    public static func bound(to key: Key, helpShown: Bool = false) -> PlayerAction? {
        if let shared: PlayerAction = key.sharedBinding(helpShown: helpShown) { return shared }
        switch key {
        case .character(" "), .character("p"), .character("P"): return .togglePause
        case .left: return .seek(-5)
        case .right: return .seek(5)
        case .home, .character("g"): return .restart
        case .character("9"), .character("/"): return .changeVolume(-PlayerState.volumeStep)
        case .character("0"), .character("*"): return .changeVolume(PlayerState.volumeStep)
        case .character("m"), .character("M"): return .toggleMute
        case .character("s"), .character("S"): return .saveOffset
        case .character("v"), .character("V"): return .toggleVocals
        case .character("<"), .character(","): return .changeKey(-1)
        case .character(">"), .character("."): return .changeKey(1)
        case .character("["): return .changeTempo(-SingingSettings.tempoStep)
        case .character("]"): return .changeTempo(SingingSettings.tempoStep)
        case .character("n"): return .nextSong
        case .character("N"): return .previousSong
        default: return nil
        }
    }

    /// The keys the help overlay lists, as (keys, what they do).
    public static let help: [(keys: String, meaning: String)] = [
        ("space, p", "pause / resume"),
        ("← / →", "seek 5 s back / forward"),
        ("↑, k / ↓, j", "previous / next lyric line"),
        ("Home, g", "back to the start"),
        ("+ / −", "offset ±0.1 s (+ shows lyrics earlier)"),
        ("s", "save the offset into the lyric file"),
        ("9 / 0", "volume down / up"),
        ("m", "mute / unmute"),
        ("v", "vocals down / back"),
        ("< / >", "key down / up a semitone"),
        ("[ / ]", "tempo −0.05× / +0.05×"),
        ("r", "reduce motion on / off"),
        ("n / N", "next / previous song of a queue"),
        ("?", "this help"),
        ("q, Esc", "quit"),
    ]
}
