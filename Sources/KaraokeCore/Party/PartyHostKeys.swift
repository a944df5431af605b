/// A change the host makes to the party from the keyboard (DESIGN §20.6).
public enum PartyHostAction: Sendable, Equatable {
    /// Take this waiting request out of the queue.
    case remove(Int)
    /// Move this waiting request one place up (its singer's turn moves with it).
    case moveUp(Int)
    /// Stop taking requests, or take them again.
    case toggleRequests
}

/// What the host's keys do on the up-next card and while a song plays (DESIGN §20.6).
///
/// The card and the song share the party's keys: ↑/↓ choose a request, x takes it out, u moves it up, o closes
/// or opens requests. In a song, where ↑/↓ move through the lyrics, `l` first opens the up-next list over the
/// lyrics; while it is open ↑/↓ choose in it, and `l` or Esc closes it. None of these letters is one of `play`'s.
public enum PartyHostKeys {
    /// What a key on the card asks.
    public enum CardAction: Sendable, Equatable {
        /// Move the selection by this many places (negative: up).
        case select(Int)
        /// A change to the queue, on the selected request where it needs one.
        case remove, moveUp, toggleRequests
        /// Start the next song now.
        case singNow
        /// Hold the countdown (a break between songs), or let it run again.
        case hold
        /// End the party.
        case quit
    }

    /// The card's action for `key`, nil for keys that do nothing there.
    public static func onCard(_ key: Key) -> CardAction? {
        switch key {
        case .up, .character("k"): .select(-1)
        case .down, .character("j"): .select(1)
        case .character("x"), .character("X"), .backspace: .remove
        case .character("u"), .character("U"): .moveUp
        case .character("o"), .character("O"): .toggleRequests
        case .character("\n"), .character("\r"), .character(" "): .singNow
        case .character("p"), .character("P"): .hold
        case .character("q"), .character("Q"), .escape: .quit
        default: nil
        }
    }

    /// The card's keys as its status row names them.
    public static let cardHelp = "↑↓ choose · x remove · u up · o requests · p hold · Enter sing now · q end"
}

extension PartyHostKeys {
    /// What a key asks while a song plays, before `play`'s own keys.
    public enum SongAction: Sendable, Equatable {
        /// Open or close the up-next list over the lyrics.
        case toggleList
        /// Move the selection in the open list.
        case select(Int)
        /// A change to the queue, on the list's selected request where it needs one.
        case remove, moveUp, toggleRequests
    }

    /// The party's action for `key` in a song, or nil: then the key is `play`'s.
    public static func inSong(_ key: Key, listOpen: Bool) -> SongAction? {
        switch key {
        case .character("l"), .character("L"): return .toggleList
        case .character("o"), .character("O"): return .toggleRequests
        default: break
        }
        guard listOpen else { return nil }
        switch key {
        case .escape: return .toggleList
        case .up, .character("k"): return .select(-1)
        case .down, .character("j"): return .select(1)
        case .character("x"), .character("X"), .backspace: return .remove
        case .character("u"), .character("U"): return .moveUp
        default: return nil
        }
    }

    /// The party's keys as the help and the README list them, besides `play`'s.
    public static let help: [(keys: String, meaning: String)] = [
        ("l", "show / hide the up-next list (in a song)"),
        ("↑ / ↓", "choose a request (in the list)"),
        ("x", "remove the chosen request"),
        ("u", "move the chosen request up"),
        ("o", "close / open requests"),
        ("n", "skip the song"),
        ("Enter", "sing the next song now (on the card)"),
        ("p", "hold the next song / let it count down (on the card)"),
    ]
}
