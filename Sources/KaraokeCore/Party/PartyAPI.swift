/// The party's server as a pure function of its state: a request in, a reply out (DESIGN §20.2).
///
/// The edge hands over each request with the time on a monotonic clock and sends back the reply; it serves
/// nothing else, no files and no directory listings. Every error is JSON, `{"error":"…"}`.
public struct PartyAPI: Sendable {
    /// The queue and its rotation; the host's keys change it directly.
    public var rotation: PartyRotation {
        // Every change counts, the host's through this property as much as the guests', so the edge has one
        // number to watch.
        didSet { if rotation != oldValue { revision += 1 } }
    }
    /// The evening's songs.
    public let songs: PartySongs
    /// The room code every change must carry.
    public let code: String
    /// The guests' page, served at `/` as it is.
    public let page: [UInt8]
    /// The requests each client has made lately.
    public var rateLimit = PartyRateLimit()
    /// How many times `rotation` has changed: the edge writes the journal and redraws the card when it moves.
    public private(set) var revision = 0

    /// The largest body read; the edge drops anything longer and sets `bodyTooLarge`.
    public static let maximumBodySize = 4096
    /// The content type of every JSON reply.
    public static let jsonType = "application/json; charset=utf-8"
    /// The content type of the guests' page.
    public static let pageType = "text/html; charset=utf-8"

    /// The room code when the host gives no `--code`: four digits of `random` (the edge's random number, so this
    /// stays pure), leading zeros kept.
    public static func roomCode(from random: UInt64) -> String {
        let digits = String(random % 10_000)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// A server for `songs` behind `code`, serving `page` at `/`.
    public init(songs: PartySongs, code: String, page: [UInt8], rotation: PartyRotation = PartyRotation()) {
        self.songs = songs
        self.code = code
        self.page = page
        self.rotation = rotation
    }

    /// The reply to `request`, made at `now` (seconds on a monotonic clock, for the rate limit).
    public mutating func respond(to request: HTTPRequest, at now: Double) -> HTTPReply {
        guard rateLimit.admits(request.client, at: now) else {
            return Self.errorReply(429, "too many requests: at most \(PartyRateLimit.limit) a minute")
        }
        guard !request.bodyTooLarge, request.body.count <= Self.maximumBodySize else {
            return Self.errorReply(413, "the body is over \(Self.maximumBodySize / 1024) KB")
        }
        switch Route(path: request.path) {
        case .page:
            guard request.method == "GET" else { return Self.wrongMethod(request, allowed: "GET") }
            return HTTPReply(status: 200, contentType: Self.pageType, body: page)
        case .songs:
            guard request.method == "GET" else { return Self.wrongMethod(request, allowed: "GET") }
            return searchSongs(query: request.query)
        case .queue:
            guard request.method == "GET" else { return Self.wrongMethod(request, allowed: "GET") }
            return Self.reply(200, queueJSON())
        case .requests:
            guard request.method == "POST" else { return Self.wrongMethod(request, allowed: "POST") }
            return addRequest(body: request.body)
        case .request(let id):
            guard request.method == "DELETE" else { return Self.wrongMethod(request, allowed: "DELETE") }
            guard let id else { return Self.errorReply(404, "no such request") }
            return cancelRequest(id, body: request.body)
        case .unknown:
            return Self.errorReply(404, "not found")
        }
    }

    /// Where a path leads.
    enum Route: Equatable {
        case page, songs, queue, requests
        /// `/api/requests/ID`; the id nil when it is not a request number.
        case request(Int?)
        case unknown

        /// The route of `path`, matched exactly: no trailing slash, no percent-escapes.
        init(path: String) {
            switch path {
            case "/": self = .page
            case "/api/songs": self = .songs
            case "/api/queue": self = .queue
            case "/api/requests": self = .requests
            default:
                let prefix = "/api/requests/"
                guard path.utf8.starts(with: prefix.utf8) else {
                    self = .unknown
                    return
                }
                let tail = path.utf8.dropFirst(prefix.utf8.count)
                // Digits only, and few enough to fit: `../`, `%2e` and `1;rm` are no request.
                guard !tail.isEmpty, tail.count <= 9, tail.allSatisfy(ByteScanner.isDigit) else {
                    self = .request(nil)
                    return
                }
                self = .request(Int(String(decoding: tail, as: UTF8.self)))
            }
        }
    }

    /// `GET /api/songs?q=TEXT&limit=N`.
    func searchSongs(query: String) -> HTTPReply {
        guard let items = QueryString(query) else { return Self.errorReply(400, "bad percent-escape in the query") }
        var limit = PartySongs.defaultLimit
        if let text = items["limit"] {
            guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy(ByteScanner.isDigit),
                let value = Int(text), value >= 1
            else { return Self.errorReply(400, "limit must be a whole number from 1 to \(PartySongs.maximumLimit)") }
            limit = min(value, PartySongs.maximumLimit)
        }
        let found = songs.search(items["q"] ?? "", limit: limit).map { song -> JSONValue in
            .object([
                "id": .string(song.id), "title": .string(song.title), "artist": .string(song.artist),
                "duration": song.duration.map(JSONValue.number) ?? .null,
            ])
        }
        return Self.reply(200, .object(["songs": .array(found)]))
    }

    /// `POST /api/requests` with `{"code":…,"singer":…,"song":ID}`.
    mutating func addRequest(body: [UInt8]) -> HTTPReply {
        do throws(ErrorReply) {
            let fields = try Self.guestFields(body, code: code)
            let singer = try Self.singer(in: fields)
            guard let songID = fields["song"]?.string else { return Self.errorReply(400, "missing field 'song'") }
            guard songs[songID] != nil else { return Self.errorReply(404, "no such song") }
            let request: PartyRotation.Request
            do {
                request = try rotation.add(song: songID, by: singer)
            } catch {
                return Self.errorReply(for: error)
            }
            let position = rotation.position(of: request.id) ?? 0
            let created: JSONValue = .object(["id": .number(Double(request.id)), "position": .number(Double(position))])
            return Self.reply(201, .object(["request": created]))
        } catch {
            return error.reply
        }
    }

    /// `DELETE /api/requests/ID` with `{"code":…,"singer":…}`.
    mutating func cancelRequest(_ id: Int, body: [UInt8]) -> HTTPReply {
        do throws(ErrorReply) {
            let fields = try Self.guestFields(body, code: code)
            let singer = try Self.singer(in: fields)
            do {
                try rotation.cancel(id, by: singer)
            } catch {
                return Self.errorReply(for: error)
            }
            return Self.reply(200, .object(["cancelled": .object(["id": .number(Double(id))])]))
        } catch {
            return error.reply
        }
    }

    /// The queue as `GET /api/queue` shows it: the song being sung and the waiting ones in singing order.
    func queueJSON() -> JSONValue {
        let queue = rotation.order.enumerated().map { index, request in
            item(request, position: index + 1)
        }
        return .object([
            "now": rotation.now.map { item($0, position: nil) } ?? .null, "queue": .array(queue),
            "paused": .bool(rotation.isPaused),
        ])
    }

    /// One request as the queue shows it.
    func item(_ request: PartyRotation.Request, position: Int?) -> JSONValue {
        let song = songs[request.song]
        var members: [String: JSONValue] = [
            "id": .number(Double(request.id)), "singer": .string(request.singer.shown),
            "title": .string(song?.title ?? ""), "artist": .string(song?.artist ?? ""),
        ]
        if let position { members["position"] = .number(Double(position)) }
        return .object(members)
    }

    /// The body of a change read as a JSON object whose `code` is the room's.
    static func guestFields(_ body: [UInt8], code: String) throws(ErrorReply) -> JSONValue {
        let value = try JSONValue.parse(body) { ErrorReply(errorReply(400, "bad JSON: \($0)")) }
        guard case .object = value else { throw ErrorReply(errorReply(400, "the body must be a JSON object")) }
        guard let given = value["code"]?.string, given == code else {
            throw ErrorReply(errorReply(403, "wrong or missing room code"))
        }
        return value
    }

    /// The `singer` field as a name.
    static func singer(in fields: JSONValue) throws(ErrorReply) -> SingerName {
        guard let text = fields["singer"]?.string else { throw ErrorReply(errorReply(400, "missing field 'singer'")) }
        guard let name = SingerName(text) else {
            throw ErrorReply(errorReply(400, "the singer's name must be 1 to \(SingerName.maximumLength) characters"))
        }
        return name
    }

    /// A reply that ends the handling of a request early.
    struct ErrorReply: Error {
        var reply: HTTPReply
        init(_ reply: HTTPReply) { self.reply = reply }
    }

    /// The reply for a refusal of the rotation.
    static func errorReply(for refusal: PartyRotation.Refusal) -> HTTPReply {
        switch refusal {
        case .paused: return errorReply(409, "requests are paused by the host")
        case .limitReached(let limit): return errorReply(409, "you already have \(limit) songs waiting")
        case .noSuchRequest: return errorReply(404, "no such request")
        case .notYourRequest: return errorReply(403, "this request is another singer's")
        case .alreadyFirst, .firstOfItsRound: return errorReply(409, "the request cannot move up")
        }
    }

    /// `405` naming the method that would do.
    static func wrongMethod(_ request: HTTPRequest, allowed: String) -> HTTPReply {
        let method = SingerName.cleaned(String(request.method.prefix(16)))
        return errorReply(405, "method '\(method)' not allowed here; use \(allowed)")
    }

    /// `{"error":message}` with `status`.
    public static func errorReply(_ status: Int, _ message: String) -> HTTPReply {
        reply(status, .object(["error": .string(message)]))
    }

    /// `value` as compact JSON with `status`.
    static func reply(_ status: Int, _ value: JSONValue) -> HTTPReply {
        HTTPReply(status: status, contentType: jsonType, body: Array(value.compactText().utf8))
    }
}
