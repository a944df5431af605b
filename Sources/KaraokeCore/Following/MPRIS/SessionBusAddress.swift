/// Where the D-Bus session bus of the MPRIS players is (DESIGN §12.2), and the words for when it cannot be had.
public enum SessionBusAddress {
    /// The environment variable that names the bus.
    public static let variable = "DBUS_SESSION_BUS_ADDRESS"

    /// The bus's address from the variable's value (nil when it is unset); an empty value is no address.
    public static func resolve(_ value: String?) -> Result<String, SessionBusProblem> {
        guard let value, !value.isEmpty else { return .failure(.notSet) }
        return .success(value)
    }
}

/// Why there is no session bus to follow MPRIS players on: at the start of `follow --player mpris` it is an
/// error (exit 1), since no player can come without a bus; later, when the bus goes away, the words of a
/// `.gone` while karaoke tries again.
public enum SessionBusProblem: Error, Sendable, Equatable {
    /// `DBUS_SESSION_BUS_ADDRESS` is unset or empty.
    case notSet
    /// Connecting to the address failed; libdbus's reason.
    case unreachable(String)

    /// The problem for a person, after `karaoke: `.
    public var text: String {
        switch self {
        case .notSet: "no D-Bus session bus: \(SessionBusAddress.variable) is not set"
        case .unreachable(let reason): "cannot reach the D-Bus session bus: \(ControlCharacters.strip(reason))"
        }
    }
}

extension PlayerChoice {
    /// What `--player auto` follows (DESIGN §12): an MPRIS player that plays; else MPD when it answers
    /// (`mpdAnswers`, asked only then, since asking takes up to half a second); else MPRIS when the session bus
    /// can be reached, waiting for a player to come; else MPD, waiting for it.
    public static func automatic(mprisPlays: Bool, busReachable: Bool, mpdAnswers: () -> Bool) -> PlayerChoice {
        if mprisPlays { return .mpris(name: nil) }
        if mpdAnswers() { return .mpd(host: nil, port: nil) }
        return busReachable ? .mpris(name: nil) : .mpd(host: nil, port: nil)
    }
}
