import Glibc
import KaraokeCore
import KaraokeDriver

/// Follows an MPRIS player on the D-Bus session bus (DESIGN §12.2); `PlayerConnectionRunner` runs it.
///
/// One connection is a private connection to the bus: it finds the players (`ListNames`, then
/// `NameOwnerChanged` as they come and go), reads the followed one's properties (`GetAll`), listens to
/// its `PropertiesChanged` and `Seeked`, and asks for `Position` twice a second while it plays (MPRIS never
/// announces the position moving). It sleeps in `poll` on the bus's socket and the runner's pipe, with
/// no timeout at all while the player is paused or stopped.
struct MPRISSession: PlayerSession {
    /// How long to wait before trying the bus again when it is missing or went away.
    let retryInterval = 2.0
    /// The player `mpris:NAME` names; nil follows any.
    let wanted: String?
    /// The session bus's address (`DBUS_SESSION_BUS_ADDRESS`).
    let address: String

    /// A session following the MPRIS player `wanted` (any when nil). Fails when libdbus-1 cannot be loaded, and
    /// when there is no session bus to be reached now: no player can come without one, so waiting would wait
    /// for ever (DESIGN §12.2). A missing player is a `.gone` message, and so is a bus that goes away later.
    init(wanted: String?) throws(PlayerConnectionRunner.Failure) {
        if let missing = SessionBus.loadLibrary() {
            throw PlayerConnectionRunner.Failure(message: missing)
        }
        switch SessionBusAddress.resolve(MPRISSession.environmentAddress()) {
        case .success(let found): address = found
        case .failure(let problem): throw PlayerConnectionRunner.Failure(message: problem.text)
        }
        // Reached once here, so that an address nobody listens on is said at once, not waited on.
        if case .failure(let failure) = SessionBus.open(address: address) {
            throw PlayerConnectionRunner.Failure(message: SessionBusProblem.unreachable(failure.message).text)
        }
        self.wanted = wanted
    }

    func follow(through link: PlayerLink) -> PlayerSessionEnd {
        do {
            let bus = try SessionBus.open(address: address).get()
            try MPRISFollower(wanted: wanted, link: link).follow(on: bus)
        } catch {
            return .lost(SessionBusProblem.unreachable(error.message).text)
        }
        return link.isClosing ? .stopped : .lost("the D-Bus session bus went away")
    }

    /// `DBUS_SESSION_BUS_ADDRESS` as it is set (empty or not), nil when unset.
    static func environmentAddress() -> String? {
        getenv(SessionBusAddress.variable).map { String(cString: $0) }
    }

    /// What `--player auto` needs to know of the session bus: whether it can be reached (not without libdbus
    /// or an address), and whether an MPRIS player on it is playing now. Asks each player at most 0.3 s.
    static func lookAtBus() -> (reachable: Bool, somethingPlays: Bool) {
        guard SessionBus.loadLibrary() == nil,
            case .success(let address) = SessionBusAddress.resolve(environmentAddress()),
            case .success(let bus) = SessionBus.open(address: address)
        else { return (false, false) }
        guard
            case .success(let reply) = bus.call(
                MPRISFollower.bus, MPRISFollower.busPath, MPRISFollower.bus, "ListNames")
        else { return (true, false) }
        let names = reply.arguments().first?.texts ?? []
        let plays = names.contains { name in
            guard MPRISBusName.playerName(of: name) != nil,
                case .success(let status) = bus.call(
                    name, MPRISFollower.playerPath, MPRISFollower.properties, "Get",
                    [.string(MPRISFollower.playerInterface), .string("PlaybackStatus")], timeout: 300)
            else { return false }
            return status.arguments().first?.text == "Playing"
        }
        return (true, plays)
    }
}

/// One connection to the bus, on the runner's thread: all its state, and the bus, belong to that thread.
private final class MPRISFollower {
    static let bus = "org.freedesktop.DBus"
    static let busPath = "/org/freedesktop/DBus"
    static let properties = "org.freedesktop.DBus.Properties"
    static let playerPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let waitingText = "waiting for a player…"

    /// The followed player: its well-known name, its unique name (signals come from that), its state.
    struct Followed {
        var busName: String
        var owner: String
        var state: MPRISPlayerState
    }

    /// The player `mpris:NAME` names; nil follows any.
    let wanted: String?
    /// The runner: commands, stop, and where messages go.
    let link: PlayerLink
    /// Each MPRIS player's well-known name → its unique name.
    var owners: [String: String] = [:]
    var followed: Followed?
    /// Commands sent and not yet answered: serial → method, to name the one a player refuses.
    var pendingCalls: [UInt32: String] = [:]

    init(wanted: String?, link: PlayerLink) {
        self.wanted = wanted
        self.link = link
    }

    /// Subscribes to the signals, finds the players, and serves the bus until it goes away or `stop`.
    func follow(on bus: SessionBus) throws(SessionBus.Failure) {
        try bus.addMatch(
            "type='signal',interface='\(MPRISFollower.properties)',member='PropertiesChanged',"
                + "path='\(MPRISFollower.playerPath)'")
        try bus.addMatch(
            "type='signal',interface='\(MPRISFollower.playerInterface)',member='Seeked',"
                + "path='\(MPRISFollower.playerPath)'")
        try bus.addMatch(
            "type='signal',sender='\(MPRISFollower.bus)',interface='\(MPRISFollower.bus)',"
                + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
        // The match rules come first, so a player that appears while the names are listed is not missed.
        switch bus.call(MPRISFollower.bus, MPRISFollower.busPath, MPRISFollower.bus, "ListNames") {
        case .success(let reply):
            for name in reply.arguments().first?.texts ?? [] where MPRISBusName.playerName(of: name) != nil {
                if case .success(let owner) = bus.call(
                    MPRISFollower.bus, MPRISFollower.busPath, MPRISFollower.bus, "GetNameOwner", [.string(name)]),
                    let unique = owner.arguments().first?.text
                {
                    owners[name] = unique
                }
            }
        case .failure(let failure): throw failure
        }
        choosePlayer(on: bus)
        var descriptors = [
            pollfd(fd: bus.descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: link.interrupt, events: Int16(POLLIN), revents: 0),
        ]
        while !link.isClosing {
            // Every pass empties libdbus's queue first: a blocking call may have read signals into it, and
            // poll would not wake for those.
            var busy = false
            while true {
                let (message, connected) = bus.nextMessage()
                guard connected else { return }
                guard let message else { break }
                busy = true
                handle(message, on: bus)
            }
            for command in link.takeCommands() {
                busy = true
                perform(command, on: bus)
            }
            let now = monotonicSeconds()
            if let due = followed?.state.nextPositionRead(), due <= now {
                readPosition(on: bus)
                report()
                continue
            }
            if busy { continue }
            let timeout = followed?.state.nextPositionRead().map { Int32(max(0, (($0 - now) * 1000).rounded(.up))) }
            descriptors[0].revents = 0
            descriptors[1].revents = 0
            if poll(&descriptors, 2, timeout ?? -1) < 0 && errno != EINTR { return }
        }
    }

    /// Handles one message from the bus.
    func handle(_ message: BusMessage, on bus: SessionBus) {
        if message.isError || message.isReply {
            guard let method = pendingCalls.removeValue(forKey: message.replySerial), message.isError else { return }
            let detail = message.arguments().first?.text ?? message.errorName
            let name = followed?.state.name ?? "the player"
            link.post(
                .notice("\(name) refused \(method): \(ControlCharacters.strip(String(detail.prefix(120))))"))
            return
        }
        guard message.isSignal else { return }
        let arguments = message.arguments()
        switch (message.interface, message.member) {
        case (MPRISFollower.bus, "NameOwnerChanged"):
            guard arguments.count == 3, let name = arguments[0].text, let newOwner = arguments[2].text,
                MPRISBusName.playerName(of: name) != nil
            else { return }
            owners[name] = newOwner.isEmpty ? nil : newOwner
            // The followed player quit or restarted (a new owner), or a player came while none was followed.
            if followed == nil || followed?.busName == name {
                followed = nil
                choosePlayer(on: bus)
            } else if !newOwner.isEmpty {
                switchIfBetter(to: name, isPlaying: playbackStatus(of: name, on: bus) == "Playing", on: bus)
            }
        case (MPRISFollower.properties, "PropertiesChanged"):
            guard let current = followed, arguments.count >= 2, let interface = arguments[0].text,
                let changed = arguments[1].entries
            else { return }
            guard message.sender == current.owner else {
                // Another player started playing: it may take over from a followed one that does not play.
                if interface == MPRISFollower.playerInterface, changed["PlaybackStatus"]?.text == "Playing",
                    let name = owners.first(where: { $0.value == message.sender })?.key
                {
                    switchIfBetter(to: name, isPlaying: true, on: bus)
                }
                return
            }
            let invalidated = arguments.count > 2 ? arguments[2].texts ?? [] : []
            if interface == MPRISFollower.rootInterface, let identity = changed["Identity"]?.text, !identity.isEmpty {
                followed?.state.name = identity
                report()
                return
            }
            guard interface == MPRISFollower.playerInterface else { return }
            let watched: Set<String> = ["PlaybackStatus", "Metadata", "Rate", "Position"]
            guard !watched.isDisjoint(with: changed.keys) || !watched.isDisjoint(with: invalidated) else { return }
            followed?.state.apply(changed, at: monotonicSeconds())
            if !watched.isDisjoint(with: invalidated) {
                readAll(on: bus)
            } else if changed["Position"] == nil {
                // A change of state or track moves the position too: read it, so the report's is fresh.
                readPosition(on: bus)
            }
            report()
        case (MPRISFollower.playerInterface, "Seeked"):
            guard let current = followed, message.sender == current.owner,
                let microseconds = arguments.first?.number
            else { return }
            followed?.state.readPosition(microseconds: microseconds, at: monotonicSeconds())
            report()
        default:
            return
        }
    }

    /// Follows the player `--player` asks for among those on the bus, or says there is none.
    func choosePlayer(on bus: SessionBus) {
        let names = owners.keys.sorted().filter { name in
            wanted.map { MPRISBusName.matches(name, wanted: $0) } ?? true
        }
        let candidates = names.map { name in
            MPRISBusName.Candidate(
                busName: name, isPlaying: names.count > 1 && playbackStatus(of: name, on: bus) == "Playing")
        }
        guard let chosen = MPRISBusName.choose(among: candidates, wanted: wanted) else {
            gone(MPRISFollower.waitingText)
            return
        }
        startFollowing(chosen, on: bus)
    }

    /// Follows the player `chosen` (a bus name): reads its name and properties and reports them.
    func startFollowing(_ chosen: String, on bus: SessionBus) {
        guard let owner = owners[chosen] else {
            followed = nil
            gone(MPRISFollower.waitingText)
            return
        }
        let name = MPRISBusName.playerName(of: chosen) ?? chosen
        followed = Followed(busName: chosen, owner: owner, state: MPRISPlayerState(name: name))
        if case .success(let reply) = bus.call(
            owner, MPRISFollower.playerPath, MPRISFollower.properties, "Get",
            [.string(MPRISFollower.rootInterface), .string("Identity")]),
            let identity = reply.arguments().first?.text, !identity.isEmpty
        {
            followed?.state.name = identity
        }
        guard readAll(on: bus) else {
            // It went away between the listing and now, or does not answer: its NameOwnerChanged, or the
            // next player's, tries again.
            followed = nil
            gone(MPRISFollower.waitingText)
            return
        }
        report()
    }

    /// Follows `name` instead of the followed player when `MPRISBusName.prefers` says so.
    func switchIfBetter(to name: String, isPlaying: Bool, on bus: SessionBus) {
        guard let current = followed,
            MPRISBusName.prefers(
                MPRISBusName.Candidate(busName: name, isPlaying: isPlaying),
                over: MPRISBusName.Candidate(busName: current.busName, isPlaying: current.state.playback == .playing),
                wanted: wanted)
        else { return }
        startFollowing(name, on: bus)
    }

    /// A player's `PlaybackStatus`, nil when it does not answer.
    func playbackStatus(of name: String, on bus: SessionBus) -> String? {
        guard let owner = owners[name],
            case .success(let reply) = bus.call(
                owner, MPRISFollower.playerPath, MPRISFollower.properties, "Get",
                [.string(MPRISFollower.playerInterface), .string("PlaybackStatus")], timeout: 500)
        else { return nil }
        return reply.arguments().first?.text
    }

    /// Reads every property of the followed player (`GetAll`); false when it did not answer.
    @discardableResult
    func readAll(on bus: SessionBus) -> Bool {
        guard let current = followed else { return false }
        let asked = monotonicSeconds()
        let result = bus.call(
            current.owner, MPRISFollower.playerPath, MPRISFollower.properties, "GetAll",
            [.string(MPRISFollower.playerInterface)], timeout: 2000)
        // The position is the player's somewhere between asking and the answer: the middle is the best guess.
        let at = (asked + monotonicSeconds()) / 2
        guard case .success(let reply) = result, let properties = reply.arguments().first?.entries else {
            return false
        }
        followed?.state.apply(properties, at: at)
        if properties["Position"] == nil { readPosition(on: bus) }
        return true
    }

    /// Reads the followed player's `Position`.
    func readPosition(on bus: SessionBus) {
        guard let current = followed else { return }
        let asked = monotonicSeconds()
        let result = bus.call(
            current.owner, MPRISFollower.playerPath, MPRISFollower.properties, "Get",
            [.string(MPRISFollower.playerInterface), .string("Position")])
        let at = (asked + monotonicSeconds()) / 2
        if case .success(let reply) = result, let microseconds = reply.arguments().first?.number {
            followed?.state.readPosition(microseconds: microseconds, at: at)
        } else {
            // No answer: not asked again before the next interval.
            followed?.state.positionAskedAt = at
        }
    }

    /// Sends `command` to the followed player; the reply comes later (a refusal becomes a notice).
    func perform(_ command: PlayerCommand, on bus: SessionBus) {
        guard let current = followed else {
            link.post(.notice("no player to send the command to"))
            return
        }
        let call: MPRISCall
        switch current.state.call(for: command, at: monotonicSeconds()) {
        case .success(let made): call = made
        case .failure:
            link.post(.notice("\(current.state.name) gave no position to seek from"))
            return
        }
        var arguments: [SessionBus.Argument] = []
        switch call {
        case .seek(let microseconds): arguments = [.int64(microseconds)]
        case .setPosition(let track, let microseconds): arguments = [.objectPath(track), .int64(microseconds)]
        case .playPause, .next, .previous: break
        }
        guard
            let serial = bus.send(
                current.owner, MPRISFollower.playerPath, MPRISFollower.playerInterface, call.method, arguments)
        else {
            link.post(.notice("cannot send \(call.method) to \(current.state.name)"))
            return
        }
        pendingCalls[serial] = call.method
    }

    /// Posts the followed player's whole state.
    func report() {
        guard let current = followed else { return }
        link.post(current.state.report(now: monotonicSeconds()))
    }

    /// Says there is no player to follow (once while that lasts).
    func gone(_ reason: String) {
        link.post(.gone(reason))
    }
}
