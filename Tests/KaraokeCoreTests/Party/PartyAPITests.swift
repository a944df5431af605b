import Testing

@testable import KaraokeCore

/// The songs of the API tests.
private let songs = PartySongs([
    PartySongs.Song(
        folder: "/m", path: "Queen - Bohemian Rhapsody.lrc", title: "Bohemian Rhapsody", artist: "Queen", duration: 354),
    PartySongs.Song(folder: "/m", path: "Beyonce - Halo.lrc", title: "Halo", artist: "Beyoncé", duration: nil),
    PartySongs.Song(folder: "/m", path: "ABBA - Waterloo.lrc", title: "Waterloo", artist: "ABBA", duration: 167.5),
])

/// The id of the song titled `title`.
private func songID(_ title: String) -> String { songs.songs.first { $0.title == title }!.id }

/// A fresh server with room code 1234.
private func server(maximum: Int = 2) -> PartyAPI {
    PartyAPI(
        songs: songs, code: "1234", page: Array("<!doctype html><p>party</p>".utf8),
        rotation: PartyRotation(maximumPerSinger: maximum))
}

/// A request from client 192.0.2.1 (or `client`).
private func request(
    _ method: String, _ path: String, query: String = "", body: String = "", client: String = "192.0.2.1"
) -> HTTPRequest {
    HTTPRequest(method: method, path: path, query: query, body: Array(body.utf8), client: client)
}

/// The reply's body read as JSON.
private func json(_ reply: HTTPReply) throws -> JSONValue { try JSONValue.parse(reply.body) }

/// The `error` of an error reply.
private func errorText(_ reply: HTTPReply) throws -> String? { try json(reply)["error"]?.string }

/// A request body asking for `song` as `singer`.
private func ask(_ singer: String, _ song: String, code: String = "1234") -> String {
    #"{"code":"\#(code)","singer":"\#(singer)","song":"\#(song)"}"#
}

@Suite("The party's API")
struct PartyAPITests {
    @Test(
        "a room code from a random number is four digits, leading zeros kept",
        arguments: [
            (UInt64(42), "0042"), (123_456, "3456"), (0, "0000"), (UInt64.max, "1615"),
        ])
    func roomCode(random: UInt64, code: String) {
        #expect(PartyAPI.roomCode(from: random) == code)
    }

    @Test("the revision moves with every change of the rotation, the host's too, and not with a refusal")
    func revision() throws {
        var api = server(maximum: 1)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0)
        #expect(api.revision == 1)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0) // over the limit
        _ = api.respond(to: request("GET", "/api/queue"), at: 0)
        #expect(api.revision == 1)
        api.rotation.isPaused = true
        #expect(api.revision == 2)
        _ = api.rotation.next()
        #expect(api.revision == 3)
        #expect(throws: PartyRotation.Refusal.noSuchRequest) { try api.rotation.remove(1) }
        #expect(api.revision == 3)
    }

    @Test("GET / serves the page given, as HTML")
    func page() {
        var api = server()
        let reply = api.respond(to: request("GET", "/"), at: 0)
        #expect(reply.status == 200)
        #expect(reply.contentType == "text/html; charset=utf-8")
        #expect(String(decoding: reply.body, as: UTF8.self) == "<!doctype html><p>party</p>")
    }

    @Test("GET /api/songs searches, with the limit")
    func searchSongs() throws {
        var api = server()
        let reply = api.respond(to: request("GET", "/api/songs", query: "q=beyonc%C3%A9"), at: 0)
        #expect(reply.status == 200)
        #expect(reply.contentType == "application/json; charset=utf-8")
        let found = try #require(try json(reply)["songs"])
        #expect(
            found
                == .array([
                    .object([
                        "id": .string(songID("Halo")), "title": .string("Halo"), "artist": .string("Beyoncé"),
                        "duration": .null,
                    ])
                ]))
        let limited = api.respond(to: request("GET", "/api/songs", query: "limit=2"), at: 0)
        guard case .array(let two) = try json(limited)["songs"] else { Issue.record("no songs"); return }
        #expect(two.map { $0["title"]?.string } == ["Waterloo", "Halo"])
        let queen = api.respond(to: request("GET", "/api/songs", query: "q=queen+bohemian&limit=500"), at: 0)
        #expect(
            try json(queen)["songs"]
                == .array([
                    .object([
                        "id": .string(songID("Bohemian Rhapsody")), "title": .string("Bohemian Rhapsody"),
                        "artist": .string("Queen"), "duration": .number(354),
                    ])
                ]))
    }

    @Test(
        "a bad query is a 400",
        arguments: [
            "q=%zz", // not hexadecimal
            "q=abc%4", // cut short
            "q=%FF", // not UTF-8 once decoded
            "limit=0", "limit=-3", "limit=ten", "limit=",
        ])
    func badQuery(query: String) throws {
        var api = server()
        let reply = api.respond(to: request("GET", "/api/songs", query: query), at: 0)
        #expect(reply.status == 400)
        #expect(try errorText(reply) != nil)
    }

    @Test("POST /api/requests queues the song and says its place")
    func addRequest() throws {
        var api = server()
        let first = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0)
        #expect(first.status == 201)
        #expect(try json(first) == .object(["request": .object(["id": .number(1), "position": .number(1)])]))
        let second = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Waterloo"))), at: 0)
        let third = api.respond(to: request("POST", "/api/requests", body: ask("Ben", songID("Halo"))), at: 0)
        #expect(try json(second)["request"]?["position"] == .number(2))
        #expect(try json(third)["request"]?["position"] == .number(2)) // Ben's turn comes before Ana's second
        #expect(api.revision == 3)
    }

    @Test("GET /api/queue shows the song being sung and the queue in singing order")
    func queue() throws {
        var api = server()
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Waterloo"))), at: 0)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("<b>Ben</b>", songID("Halo"))), at: 0)
        var fresh = server()
        let empty = fresh.respond(to: request("GET", "/api/queue"), at: 0)
        #expect(try json(empty) == .object(["now": .null, "queue": .array([]), "paused": .bool(false)]))
        _ = api.rotation.next()
        let reply = api.respond(to: request("GET", "/api/queue"), at: 0)
        #expect(reply.status == 200)
        #expect(
            try json(reply)
                == .object([
                    "now": .object([
                        "id": .number(1), "singer": .string("Ana"), "title": .string("Halo"),
                        "artist": .string("Beyoncé"),
                    ]),
                    "queue": .array([
                        .object([
                            "id": .number(3), "singer": .string("<b>Ben</b>"), "title": .string("Halo"),
                            "artist": .string("Beyoncé"), "position": .number(1),
                        ]),
                        .object([
                            "id": .number(2), "singer": .string("Ana"), "title": .string("Waterloo"),
                            "artist": .string("ABBA"), "position": .number(2),
                        ]),
                    ]),
                    "paused": .bool(false),
                ]))
        // The name is sent with its `<` and `>` escaped, so nothing in the body reads as HTML.
        let text = String(decoding: reply.body, as: UTF8.self)
        #expect(text.includes(#""\u003cb\u003eBen\u003c/b\u003e""#))
        #expect(!text.includes("<"))
    }

    @Test(
        "a bad request to POST /api/requests gets its error",
        arguments: [
            ("{", 400, "bad JSON: expected a member name at byte 1" as String?),
            ("[1]", 400, "the body must be a JSON object"),
            (#"{"singer":"Ana","song":"x"}"#, 403, "wrong or missing room code"),
            (#"{"code":"0000","singer":"Ana","song":"x"}"#, 403, "wrong or missing room code"),
            (#"{"code":1234,"singer":"Ana","song":"x"}"#, 403, "wrong or missing room code"), // a number is no code
            (#"{"code":"1234","song":"x"}"#, 400, "missing field 'singer'"),
            (#"{"code":"1234","singer":" \u0007 ","song":"x"}"#, 400, "the singer's name must be 1 to 32 characters"),
            (#"{"code":"1234","singer":"123456789012345678901234567890123","song":"x"}"#, 400, nil),
            (#"{"code":"1234","singer":"Ana"}"#, 400, "missing field 'song'"),
            (#"{"code":"1234","singer":"Ana","song":"../../etc/passwd"}"#, 404, "no such song"),
        ] as [(String, Int, String?)])
    func badRequests(body: String, status: Int, message: String?) throws {
        var api = server()
        let reply = api.respond(to: request("POST", "/api/requests", body: body), at: 0)
        #expect(reply.status == status)
        let error = try #require(try errorText(reply))
        if let message { #expect(error == message) }
        #expect(api.rotation.requests.isEmpty)
        #expect(api.revision == 0)
    }

    @Test("a name of 32 characters after cleaning is taken, cleaned")
    func nameCleaned() throws {
        var api = server()
        let name = String(repeating: "é", count: 32)
        let reply = api.respond(
            to: request("POST", "/api/requests", body: ask("\\u202E \(name)\\u001B ", songID("Halo"))), at: 0)
        #expect(reply.status == 201)
        #expect(api.rotation.requests.first?.singer.shown == name)
    }

    @Test("the limit per singer and the pause are 409s")
    func conflicts() throws {
        var api = server(maximum: 1)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0)
        let again = api.respond(to: request("POST", "/api/requests", body: ask(" ANA ", songID("Waterloo"))), at: 0)
        #expect(again.status == 409)
        #expect(try errorText(again) == "you already have 1 songs waiting")
        api.rotation.isPaused = true
        let paused = api.respond(to: request("POST", "/api/requests", body: ask("Ben", songID("Halo"))), at: 0)
        #expect(paused.status == 409)
        #expect(try errorText(paused) == "requests are paused by the host")
        let queue = api.respond(to: request("GET", "/api/queue"), at: 0)
        #expect(try json(queue)["paused"] == .bool(true))
    }

    @Test("DELETE /api/requests/ID cancels one's own request, with the code and the name in the body")
    func cancel() throws {
        var api = server()
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ana", songID("Halo"))), at: 0)
        _ = api.respond(to: request("POST", "/api/requests", body: ask("Ben", songID("Halo"))), at: 0)
        let others = api.respond(
            to: request("DELETE", "/api/requests/1", body: #"{"code":"1234","singer":"Ben"}"#), at: 0)
        #expect(others.status == 403)
        #expect(try errorText(others) == "this request is another singer's")
        let wrongCode = api.respond(
            to: request("DELETE", "/api/requests/1", body: #"{"code":"9999","singer":"Ana"}"#), at: 0)
        #expect(wrongCode.status == 403)
        let noBody = api.respond(to: request("DELETE", "/api/requests/1"), at: 0)
        #expect(noBody.status == 400)
        let missing = api.respond(
            to: request("DELETE", "/api/requests/77", body: #"{"code":"1234","singer":"Ana"}"#), at: 0)
        #expect(missing.status == 404)
        #expect(api.rotation.requests.count == 2)
        let reply = api.respond(
            to: request("DELETE", "/api/requests/1", body: #"{"code":"1234","singer":"ana"}"#), at: 0)
        #expect(reply.status == 200)
        #expect(try json(reply) == .object(["cancelled": .object(["id": .number(1)])]))
        #expect(api.rotation.order.map(\.id) == [2])
    }

    @Test(
        "paths that are not a request number are 404s",
        arguments: [
            "/api/requests/abc", "/api/requests/..%2f..%2fetc", "/api/requests/1;2", "/api/requests/",
            "/api/requests/12345678901",
        ])
    func badRequestPaths(path: String) throws {
        var api = server()
        let reply = api.respond(to: request("DELETE", path, body: #"{"code":"1234","singer":"Ana"}"#), at: 0)
        #expect(reply.status == 404)
        #expect(try errorText(reply) == "no such request")
    }

    @Test(
        "anything else is a 404 in JSON: no files, no listings",
        arguments: ["/index.html", "/api", "/api/songs/", "/../etc/passwd", "/api/queue/x", "", "/%2e%2e/"])
    func unknownPaths(path: String) throws {
        var api = server()
        let reply = api.respond(to: request("GET", path), at: 0)
        #expect(reply.status == 404)
        #expect(reply.contentType == "application/json; charset=utf-8")
        #expect(try errorText(reply) == "not found")
    }

    @Test(
        "a known path with the wrong method is a 405",
        arguments: [
            ("POST", "/"), ("DELETE", "/api/songs"), ("PUT", "/api/queue"), ("GET", "/api/requests"),
            ("GET", "/api/requests/1"), ("PATCH", "/api/requests/1"),
        ])
    func wrongMethod(method: String, path: String) throws {
        var api = server()
        let reply = api.respond(to: request(method, path), at: 0)
        #expect(reply.status == 405)
        #expect(try errorText(reply)?.includes("method '\(method)' not allowed") == true)
    }

    @Test("a body the server did not keep is a 413, before anything else is read")
    func tooLarge() throws {
        var api = server()
        var huge = request("POST", "/api/requests")
        huge.bodyTooLarge = true
        let reply = api.respond(to: huge, at: 0)
        #expect(reply.status == 413)
        #expect(try errorText(reply) == "the body is over 4 KB")
        let oversized = request("POST", "/api/requests", body: String(repeating: " ", count: 4097))
        let oversizedReply = api.respond(to: oversized, at: 0)
        #expect(oversizedReply.status == 413)
    }

    @Test("the 31st request within a minute from one address is a 429; others are still served")
    func rateLimit() throws {
        var api = server()
        for second in 0..<30 {
            let reply = api.respond(to: request("GET", "/nowhere"), at: Double(second))
            #expect(reply.status == 404)
        }
        let refused = api.respond(to: request("GET", "/api/queue"), at: 30)
        #expect(refused.status == 429)
        #expect(try errorText(refused) == "too many requests: at most 30 a minute")
        let otherClient = api.respond(to: request("GET", "/api/queue", client: "192.0.2.2"), at: 30)
        #expect(otherClient.status == 200)
        // The window slides: at 61 s the requests at 0 and 1 s have left it, but the refused one at 30 s counts.
        let slid = api.respond(to: request("GET", "/api/queue"), at: 61)
        #expect(slid.status == 200)
        let stillHammering = api.respond(to: request("GET", "/api/queue"), at: 61.5)
        #expect(stillHammering.status == 429)
    }
}

@Suite("The query string")
struct QueryStringTests {
    @Test(
        "names and values are percent-decoded, + as a space, the first of a name kept",
        arguments: [
            ("q=hello+world&limit=5", ["q": "hello world", "limit": "5"]),
            ("q=caf%C3%A9", ["q": "café"]),
            ("q=%2B%26%3D", ["q": "+&="]),
            ("q=a&q=b", ["q": "a"]),
            ("flag", ["flag": ""]),
            ("", [:]),
            ("&&q=1&", ["q": "1"]),
            ("q=%e6%ad%8c", ["q": "歌"]), // lower-case hexadecimal digits
        ])
    func decoded(text: String, values: [String: String]) throws {
        #expect(try #require(QueryString(text)).values == values)
    }

    @Test(
        "a bad escape or bytes that are not UTF-8 make no query", arguments: ["q=%", "q=%4", "q=%G1", "%zz=1", "q=%C3"])
    func bad(text: String) {
        #expect(QueryString(text) == nil)
    }
}

@Suite("The rate limit")
struct PartyRateLimitTests {
    @Test("clients are counted apart, and quiet ones are forgotten")
    func clients() {
        var limit = PartyRateLimit()
        for index in 0..<300 {
            let admitted = limit.admits("10.0.0.\(index)", at: Double(index) / 10)
            #expect(admitted)
        }
        #expect(limit.recent.count == 300)
        let admitted = limit.admits("10.0.0.1", at: 100)
        #expect(admitted)
        #expect(limit.recent.count == 1) // the 300 others were quiet for a minute
    }

    @Test("a client's memory never holds more than the limit")
    func bounded() {
        var limit = PartyRateLimit()
        for index in 0..<1000 { _ = limit.admits("a", at: Double(index) * 0.001) }
        #expect(limit.recent["a"]?.count == PartyRateLimit.limit)
        let inWindow = limit.admits("a", at: 59)
        #expect(!inWindow)
        let afterWindow = limit.admits("a", at: 61.1)
        #expect(afterWindow)
    }
}

@Suite("JSON for the party's replies")
struct CompactJSONTests {
    @Test("compact text escapes what HTML or JavaScript could misread and reads back the same")
    func escapes() throws {
        let value: JSONValue = .object([
            "b": .string("</script><script>alert(1)</script> & \u{2028}\u{1B}\"\\"),
            "a": .array([.number(1.5), .null]),
        ])
        let text = value.compactText()
        #expect(
            text
                == #"{"a":[1.5,null],"b":"\u003c/script\u003e\u003cscript\u003ealert(1)\u003c/script\u003e \u0026 \u2028\u001b\"\\"}"#
        )
        #expect(try JSONValue.parse(Array(text.utf8)) == value)
    }
}
