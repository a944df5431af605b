/// What the party writes after every change so that nothing is lost if the host's machine stops: the queue
/// and its rotation, the scoreboard, the keys, and the day (DESIGN §20.4).
///
/// Pure: it becomes JSON text and is read back from bytes; the edge writes the text to a temporary file and
/// renames it over the journal, so a reader finds the old journal or the new one, never half of one.
public struct PartyJournal: Sendable, Equatable {
    /// The format's version; another one is refused as damaged rather than read wrong.
    public static let version = 1

    /// The day of the party as the edge names it (`2026-12-02`): a journal of another day is not resumed.
    public var day: String
    /// The room code: a resumed party keeps the one its guests already typed.
    public var code: String
    /// The queue, the turns and who has sung in the round.
    public var rotation: PartyRotation
    /// Best scores and songs sung.
    public var scoreboard: PartyScoreboard
    /// The keys singers chose.
    public var keys: SingerKeys

    /// Why bytes are not a journal.
    public struct Damage: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was wrong, lower case.
        public var reason: String

        /// `damaged party journal: reason`.
        public var description: String { "damaged party journal: \(reason)" }
    }

    /// `$XDG_STATE_HOME/karaoke/party.json` (XDG_STATE_HOME defaulting to `~/.local/state`), or nil without either.
    public static func standardPath(environment: (String) -> String?) -> String? {
        LyricsSearch.xdgFolder("XDG_STATE_HOME", orBelowHome: ".local/state", environment: environment).map {
            $0 + "/karaoke/party.json"
        }
    }

    /// Whether there is anything to resume: a song waiting or cut short, or a song sung.
    public var hasEvening: Bool {
        !rotation.requests.isEmpty || rotation.now != nil || !scoreboard.entries.isEmpty
    }

    /// A journal of these parts.
    public init(day: String, code: String, rotation: PartyRotation, scoreboard: PartyScoreboard, keys: SingerKeys) {
        self.day = day
        self.code = code
        self.rotation = rotation
        self.scoreboard = scoreboard
        self.keys = keys
    }

    /// The journal as JSON text, members sorted and indented, so two equal journals are the same text.
    public func encoded() -> String {
        let rotationValue: JSONValue = .object([
            "maximumPerSinger": .number(Double(rotation.maximumPerSinger)),
            "paused": .bool(rotation.isPaused),
            "round": .number(Double(rotation.round)),
            "nextID": .number(Double(rotation.nextID)),
            "now": rotation.now.map(Self.value) ?? .null,
            "requests": .array(rotation.requests.map(Self.value)),
            "turns": .array(rotation.turns.map { .string($0.shown) }),
            "sungThisRound": .array(rotation.sungThisRound.sorted().map(JSONValue.string)),
        ])
        let board = scoreboard.entries.map { entry -> JSONValue in
            .object([
                "singer": .string(entry.singer.shown), "best": entry.best.map { .number(Double($0)) } ?? .null,
                "songsSung": .number(Double(entry.songsSung)),
            ])
        }
        let keyValues = keys.semitones.keys.sorted().map { key -> JSONValue in
            .object(["singer": .string(key), "semitones": .number(Double(keys.semitones[key] ?? 0))])
        }
        return JSONValue.object([
            "version": .number(Double(Self.version)), "day": .string(day), "code": .string(code),
            "rotation": rotationValue,
            "scoreboard": .array(board), "keys": .array(keyValues),
        ]).writtenText()
    }

    /// A request as the journal writes it.
    static func value(_ request: PartyRotation.Request) -> JSONValue {
        .object([
            "id": .number(Double(request.id)), "singer": .string(request.singer.shown), "song": .string(request.song),
        ])
    }

    /// Reads the bytes `encoded()` wrote; a cut, edited or foreign file throws `Damage` saying what is wrong.
    ///
    /// Beyond the types, the rotation is checked for what its rules keep true (unique ids below `nextID`,
    /// each singer with a request in `turns` once, nobody in `turns` without one), so a resumed party never
    /// starts from a queue the rotation could not have made.
    public init(decoding bytes: [UInt8]) throws(Damage) {
        let root = try JSONValue.parse(bytes) { Damage(reason: "not JSON: \($0)") }
        let reader = Reader()
        guard try reader.integer(root, "version") == Self.version else {
            throw Damage(reason: "version is not \(Self.version)")
        }
        day = try reader.string(root, "day")
        code = try reader.string(root, "code")
        let rotationValue = try reader.member(root, "rotation")
        var rotation = PartyRotation(maximumPerSinger: try reader.integer(rotationValue, "maximumPerSinger"))
        guard rotation.maximumPerSinger >= 1 else { throw Damage(reason: "maximumPerSinger is below 1") }
        guard case .bool(let paused) = try reader.member(rotationValue, "paused") else {
            throw Damage(reason: "'paused' is not true or false")
        }
        rotation.isPaused = paused
        rotation.round = try reader.integer(rotationValue, "round")
        rotation.nextID = try reader.integer(rotationValue, "nextID")
        let nowValue = try reader.member(rotationValue, "now")
        rotation.now = nowValue == .null ? nil : try reader.request(nowValue)
        rotation.requests = try reader.array(rotationValue, "requests").map { value throws(Damage) in
            try reader.request(value)
        }
        rotation.turns = try reader.array(rotationValue, "turns").map { value throws(Damage) in
            guard let name = value.string.flatMap(SingerName.init) else { throw Damage(reason: "a turn is not a name") }
            return name
        }
        rotation.sungThisRound = Set(
            try reader.array(rotationValue, "sungThisRound").map { value throws(Damage) in
                guard let key = value.string else { throw Damage(reason: "a singer who sang is not a name") }
                return key
            })
        try Self.check(rotation)
        self.rotation = rotation
        scoreboard = PartyScoreboard(
            entries: try reader.array(root, "scoreboard").map { value throws(Damage) in
                let best = try reader.member(value, "best")
                let songsSung = try reader.integer(value, "songsSung")
                guard songsSung >= 1 else { throw Damage(reason: "a singer on the scoreboard sang no song") }
                return PartyScoreboard.Entry(
                    singer: try reader.name(value, "singer"),
                    best: best == .null ? nil : try reader.integer(value, "best"),
                    songsSung: songsSung)
            })
        var keys = SingerKeys()
        for value in try reader.array(root, "keys") {
            keys[try reader.name(value, "singer")] = try reader.integer(value, "semitones")
        }
        self.keys = keys
    }

    /// Throws unless `rotation` is one its own rules could have made.
    static func check(_ rotation: PartyRotation) throws(Damage) {
        var ids: Set<Int> = []
        for request in rotation.requests + (rotation.now.map { [$0] } ?? []) {
            guard request.id >= 1, request.id < rotation.nextID, ids.insert(request.id).inserted else {
                throw Damage(reason: "request \(request.id) is repeated or beyond nextID")
            }
        }
        let waiting = Set(rotation.requests.map(\.singer))
        guard rotation.turns.count == Set(rotation.turns).count, Set(rotation.turns) == waiting else {
            throw Damage(reason: "the turns do not match the singers waiting")
        }
        guard rotation.round >= 0 else { throw Damage(reason: "round is negative") }
    }

    /// Reads members of the journal's objects, throwing `Damage` that names the member.
    struct Reader {
        /// The member `name` of `value`.
        func member(_ value: JSONValue, _ name: String) throws(Damage) -> JSONValue {
            guard case .object = value else { throw Damage(reason: "expected an object holding '\(name)'") }
            guard let member = value[name] else { throw Damage(reason: "missing '\(name)'") }
            return member
        }

        /// The whole-number member `name`.
        func integer(_ value: JSONValue, _ name: String) throws(Damage) -> Int {
            guard let number = try member(value, name).integer else {
                throw Damage(reason: "'\(name)' is not a whole number")
            }
            return number
        }

        /// The string member `name`.
        func string(_ value: JSONValue, _ name: String) throws(Damage) -> String {
            guard let text = try member(value, name).string else { throw Damage(reason: "'\(name)' is not a string") }
            return text
        }

        /// The array member `name`.
        func array(_ value: JSONValue, _ name: String) throws(Damage) -> [JSONValue] {
            guard case .array(let items) = try member(value, name) else {
                throw Damage(reason: "'\(name)' is not an array")
            }
            return items
        }

        /// The singer's name member `name`, valid as a guest's would have to be.
        func name(_ value: JSONValue, _ name: String) throws(Damage) -> SingerName {
            guard let singer = SingerName(try string(value, name)) else {
                throw Damage(reason: "'\(name)' is not a singer's name")
            }
            return singer
        }

        /// A request `{"id","singer","song"}`.
        func request(_ value: JSONValue) throws(Damage) -> PartyRotation.Request {
            PartyRotation.Request(
                id: try integer(value, "id"), singer: try name(value, "singer"), song: try string(value, "song"))
        }
    }
}
