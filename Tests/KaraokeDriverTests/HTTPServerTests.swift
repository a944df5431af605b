import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Whether libmicrohttpd loads here, as the server loads it (`make deps`).
private let canServe: Bool = {
    guard let handle = dlopen("libmicrohttpd.so.12", RTLD_LAZY | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}()

/// A server on 127.0.0.1 whose handler answers every request with the request itself as JSON, and keeps
/// the requests it saw.
final class EchoServer {
    let server: HTTPServer
    private let seen = PthreadLock<[HTTPRequest]>([])

    init(limits: HTTPServer.Limits = HTTPServer.Limits()) throws {
        let seen = self.seen
        server = try HTTPServer.start(bind: "127.0.0.1", port: 0, limits: limits) { request in
            seen.withLock { $0.append(request) }
            return EchoServer.echo(request)
        }
    }

    deinit {
        server.stop()
    }

    /// `http://127.0.0.1:PORT` followed by `target`.
    func url(_ target: String) -> String { "http://127.0.0.1:\(server.port)\(target)" }

    /// The requests the handler saw, oldest first.
    var requests: [HTTPRequest] { seen.withLock { $0 } }

    /// `request` as JSON, its body as text.
    static func echo(_ request: HTTPRequest) -> HTTPReply {
        let object: [String: Any] = [
            "method": request.method, "path": request.path, "query": request.query,
            "bodyLength": request.body.count, "body": String(decoding: request.body, as: UTF8.self),
            "tooLarge": request.bodyTooLarge, "client": request.client,
        ]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPReply(status: 200, contentType: "application/json; charset=utf-8", body: [UInt8](body))
    }
}

@Suite(
    "The party's HTTP server answers real clients and survives hostile ones",
    .enabled(if: canServe, "needs libmicrohttpd12 (make deps)"),
    .enabled(if: CurlRun.path != nil, "needs curl (make deps-test)"),
    // One at a time: the timing tests measure the server, not the machine's other tests.
    .serialized)
struct HTTPServerTests {
    @Test("a GET's path and raw query reach the handler as sent, from the client's address")
    func getWithQuery() throws {
        let echo = try EchoServer()
        let run = try CurlRun.run(echo.url("/api/songs?q=caf%C3%A9+bar&limit=5&x=a%26b"))
        #expect(run.exitStatus == 0)
        #expect(run.status == 200)
        let json = try #require(run.json)
        #expect(json["method"] as? String == "GET")
        #expect(json["path"] as? String == "/api/songs")
        #expect(json["query"] as? String == "q=caf%C3%A9+bar&limit=5&x=a%26b")
        #expect(json["client"] as? String == "127.0.0.1")
        #expect(json["bodyLength"] as? Int == 0)
        #expect(json["tooLarge"] as? Bool == false)
    }

    @Test("every reply carries no-store, nosniff and the handler's content type, and no CORS header")
    func replyHeaders() throws {
        let echo = try EchoServer()
        let run = try CurlRun.run(echo.url("/"), ["-H", "Origin: http://elsewhere.example"])
        #expect(run.status == 200)
        #expect(run.header("Cache-Control") == "no-store")
        #expect(run.header("X-Content-Type-Options") == "nosniff")
        #expect(run.header("Content-Type") == "application/json; charset=utf-8")
        #expect(!run.headers.contains { $0.lowercased().hasPrefix("access-control-") }, "\(run.headers)")
    }

    @Test(
        "a request without a query has an empty one, and only the first ? splits",
        arguments: [
            // No query at all.
            ("/api/queue", "/api/queue", ""),
            // A ? with nothing after it.
            ("/api/queue?", "/api/queue", ""),
            // A second ? belongs to the query.
            ("/a?b?c=d", "/a", "b?c=d"),
        ])
    func querySplit(target: String, path: String, query: String) throws {
        let echo = try EchoServer()
        let run = try CurlRun.run(echo.url(target))
        let json = try #require(run.json)
        #expect(json["path"] as? String == path)
        #expect(json["query"] as? String == query)
    }

    @Test("a POST's body up to 4096 bytes reaches the handler whole", arguments: [1, 100, 4096])
    func postBody(length: Int) throws {
        let echo = try EchoServer()
        let body = (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        let run = try CurlRun.run(
            echo.url("/api/requests"), ["-X", "POST", "--data-binary", "@-", "-H", "Content-Type: application/json"],
            input: body)
        #expect(run.status == 200)
        let json = try #require(run.json)
        #expect(json["method"] as? String == "POST")
        #expect(json["bodyLength"] as? Int == length)
        #expect(json["body"] as? String == String(decoding: body, as: UTF8.self))
        #expect(json["tooLarge"] as? Bool == false)
    }

    @Test(
        "a body over 4096 bytes reaches the handler as too large, with none of its bytes",
        arguments: [
            // Announced by Content-Length: answered before the body is read.
            [String](),
            // Chunked, so its length shows only as it comes: read to the end and dropped.
            ["-H", "Transfer-Encoding: chunked"],
        ])
    func bodyTooLarge(framing: [String]) throws {
        let echo = try EchoServer()
        for length in [4097, 5000] {
            let run = try CurlRun.run(
                echo.url("/api/requests"), ["-X", "POST", "--data-binary", "@-"] + framing,
                input: [UInt8](repeating: UInt8(ascii: "x"), count: length))
            #expect(run.status == 200, "\(length) bytes")
            let json = try #require(run.json)
            #expect(json["tooLarge"] as? Bool == true, "\(length) bytes")
            #expect(json["bodyLength"] as? Int == 0, "\(length) bytes")
        }
        // The server still answers.
        #expect(try CurlRun.run(echo.url("/after")).status == 200)
    }

    @Test("a body announced over 4096 bytes is answered at once, before a byte of it is sent")
    func announcedTooLarge() throws {
        let echo = try EchoServer()
        let connection = try #require(RawHTTPConnection(port: echo.server.port))
        connection.send("POST /api/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n")
        // Within the wait, long before the idle time: the server does not wait for the gigabyte.
        let (bytes, ending) = connection.receive(for: 3)
        #expect(RawHTTPConnection.status(of: bytes) == 200)
        #expect(ending == .closed || ending == .reset, "the rest of the request is not read")
        let request = try #require(echo.requests.first)
        #expect(request.bodyTooLarge)
        #expect(request.body.isEmpty)
    }

    @Test("a client that sends half a request and stalls is dropped after the idle time, and others are answered")
    func slowClient() throws {
        let echo = try EchoServer(limits: HTTPServer.Limits(idleSeconds: 3))
        let slow = try #require(RawHTTPConnection(port: echo.server.port))
        let stalled = Date()
        #expect(slow.send("GET /slow HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Half: "))
        // Others are answered while it stalls: the other's reply comes with the slow connection still open.
        // (Ordered, not timed: a busy machine may take a second to start curl.)
        let other = try CurlRun.run(echo.url("/other"))
        #expect(other.status == 200)
        let (early, stillOpen) = slow.receive(for: 0.01)
        #expect(stillOpen == .timedOut && early.isEmpty, "answered while the slow client stalls")
        let (bytes, ending) = slow.receive(for: 10)
        let dropped = Date().timeIntervalSince(stalled)
        #expect(ending == .closed || ending == .reset)
        #expect(RawHTTPConnection.status(of: bytes) == nil, "dropped without a reply")
        #expect(dropped >= 2.9, "dropped after \(dropped) s, not before the idle time")
        #expect(!echo.requests.contains { $0.path == "/slow" })
    }

    @Test(
        "100 parallel connections are each answered or closed cleanly, and the server answers afterwards",
        arguments: [
            // The party's limits: 64 connections, 16 from one address, so most of these are closed at once.
            HTTPServer.Limits(),
            // No limit for one address: the ones past 64 wait in the listen queue, and every one is answered.
            HTTPServer.Limits(connectionsPerClient: 0),
        ])
    func parallelConnections(limits: HTTPServer.Limits) throws {
        let echo = try EchoServer(limits: limits)
        // Every connection open and its request sent before any reply is read: 100 at once, as the server
        // sees them.
        let connections = (0..<100).map { _ in RawHTTPConnection(port: echo.server.port) }
        for (index, connection) in connections.enumerated() {
            connection?.send("GET /n/\(index) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        }
        var answered = 0
        for connection in connections {
            // A refusal may come as early as the connect, which is as clean as a close.
            guard let connection else { continue }
            let (bytes, ending) = connection.receive(for: 10)
            #expect(ending != .timedOut)
            if let status = RawHTTPConnection.status(of: bytes) {
                #expect(status == 200)
                answered += 1
            } else {
                #expect(bytes.isEmpty, "a closed connection says nothing half-way")
            }
        }
        if limits.connectionsPerClient == 0 {
            #expect(answered == 100)
        } else {
            #expect(answered >= limits.connectionsPerClient)
        }
        #expect(try CurlRun.run(echo.url("/after")).status == 200)
    }

    /// A request no client should send, named for the test's report.
    struct Malformed: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        var testDescription: String { name }
    }

    @Test(
        "a malformed request gets an error or a close, never reaches the handler broken, and the server answers afterwards",
        arguments: [
            Malformed(name: "no method, no version", text: "GARBAGE\r\n\r\n"),
            Malformed(name: "a method and nothing else", text: "GET\r\n\r\n"),
            Malformed(name: "blank lines only", text: "\r\n\r\n\r\n"),
            Malformed(name: "a version that does not exist", text: "GET / HTTP/9.9\r\nHost: x\r\n\r\n"),
            Malformed(name: "a header without a colon", text: "GET / HTTP/1.1\r\nHost x\r\nnonsense\r\n\r\n"),
            Malformed(
                name: "a negative Content-Length", text: "POST / HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\nabc"),
            Malformed(
                name: "bytes that are not text, a NUL among them", text: "\u{0}\u{1}\u{FF}GET /\u{0}x HTTP/1.1\r\n\r\n"),
            Malformed(
                name: "a target of 100,000 bytes, past the memory for one connection",
                text: "GET /" + String(repeating: "a", count: 100_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"),
        ])
    func malformedRequest(request: Malformed) throws {
        let echo = try EchoServer(limits: HTTPServer.Limits(idleSeconds: 2))
        let connection = try #require(RawHTTPConnection(port: echo.server.port))
        connection.send(request.text)
        let (bytes, ending) = connection.receive(for: 5)
        #expect(ending != .timedOut || RawHTTPConnection.status(of: bytes) != nil)
        if !bytes.isEmpty {
            #expect(String(decoding: bytes.prefix(7), as: UTF8.self) == "HTTP/1.", "a reply, not noise")
        }
        for request in echo.requests {
            #expect(request.path.hasPrefix("/"), "\(request)")
        }
        #expect(try CurlRun.run(echo.url("/after")).status == 200)
    }

    @Test(
        "paths with .. and %2e%2e reach the handler exactly as sent",
        arguments: [
            "/../../etc/passwd",
            "/%2e%2e/%2E%2e/etc/passwd",
            "/api/requests/..%2F..%2Fetc",
            "/./a/../b",
        ])
    func dotSegments(path: String) throws {
        let echo = try EchoServer()
        let run = try CurlRun.run(echo.url(path + "?file=%2e%2e/x"), ["--path-as-is"])
        #expect(run.status == 200)
        let json = try #require(run.json)
        #expect(json["path"] as? String == path)
        #expect(json["query"] as? String == "file=%2e%2e/x")
    }

    @Test("a target in absolute form arrives as it is, for the core to refuse")
    func absoluteTarget() throws {
        let echo = try EchoServer()
        let connection = try #require(RawHTTPConnection(port: echo.server.port))
        connection.send(
            "GET http://elsewhere.example/api/queue?a=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let (bytes, _) = connection.receive(for: 3)
        #expect(RawHTTPConnection.status(of: bytes) == 200)
        let request = try #require(echo.requests.first)
        #expect(request.path == "http://elsewhere.example/api/queue")
        #expect(request.query == "a=1")
    }

    @Test("a handler that throws, or a reply HTTP cannot carry, becomes a 500 with a JSON error")
    func badReplies() throws {
        struct Thrown: Error {}
        let server = try HTTPServer.start(bind: "127.0.0.1", port: 0) { request in
            switch request.path {
            case "/throw": throw Thrown()
            case "/status": return HTTPReply(status: 42, contentType: "text/plain", body: Array("no".utf8))
            case "/header":
                return HTTPReply(status: 200, contentType: "text/plain\r\nSet-Cookie: stolen=1", body: [])
            case "/empty-type": return HTTPReply(status: 200, contentType: "", body: [])
            default: return HTTPReply(status: 204, contentType: "text/plain", body: [])
            }
        }
        defer { server.stop() }
        for path in ["/throw", "/status", "/header", "/empty-type"] {
            let run = try CurlRun.run("http://127.0.0.1:\(server.port)\(path)")
            #expect(run.status == 500, "\(path)")
            #expect(run.header("Set-Cookie") == nil, "\(path)")
            #expect(run.header("Content-Type") == "application/json; charset=utf-8", "\(path)")
            #expect((run.json?["error"] as? String)?.isEmpty == false, "\(path)")
        }
        #expect(try CurlRun.run("http://127.0.0.1:\(server.port)/fine").status == 204)
    }

    @Test("a large reply is sent whole")
    func largeReply() throws {
        let body = (0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let server = try HTTPServer.start(bind: "127.0.0.1", port: 0) { _ in
            HTTPReply(status: 200, contentType: "application/octet-stream", body: body)
        }
        defer { server.stop() }
        let run = try CurlRun.run("http://127.0.0.1:\(server.port)/big")
        #expect(run.status == 200)
        #expect(run.body == body)
    }

    @Test("a port in use, an address that is not IPv4 and a port out of range are refused with the reason")
    func refusedStarts() throws {
        let first = try EchoServer()
        let taken = first.server.port
        #expect {
            _ = try HTTPServer.start(bind: "127.0.0.1", port: taken) { EchoServer.echo($0) }
        } throws: { error in
            let message = (error as? HTTPServer.Failure)?.message ?? ""
            return message.hasPrefix("cannot listen on 127.0.0.1:\(taken): ") && message.contains("in use")
        }
        #expect(throws: HTTPServer.Failure(message: "cannot listen on localhost:0: 'localhost' is not an IPv4 address"))
        {
            _ = try HTTPServer.start(bind: "localhost", port: 0) { EchoServer.echo($0) }
        }
        #expect(throws: HTTPServer.Failure(message: "port 70000 is not between 0 and 65535")) {
            _ = try HTTPServer.start(bind: "127.0.0.1", port: 70000) { EchoServer.echo($0) }
        }
        #expect(try CurlRun.run(first.url("/")).status == 200)
    }

    @Test("stop closes the port, a second stop does nothing, and dropping the server stops it")
    func stopping() throws {
        let server = try HTTPServer.start(bind: "127.0.0.1", port: 0) { EchoServer.echo($0) }
        let port = server.port
        #expect(port > 0)
        #expect(RawHTTPConnection(port: port) != nil)
        server.stop()
        server.stop()
        let refused = RawHTTPConnection(port: port)
        let reason = errno
        #expect(refused == nil)
        #expect(reason == ECONNREFUSED)

        var dropped: HTTPServer? = try HTTPServer.start(bind: "127.0.0.1", port: 0) { EchoServer.echo($0) }
        let droppedPort = try #require(dropped?.port)
        #expect(RawHTTPConnection(port: droppedPort) != nil)
        dropped = nil
        #expect(RawHTTPConnection(port: droppedPort) == nil)
    }
}
