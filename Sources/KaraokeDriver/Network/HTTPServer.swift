import CMicroHTTPD
import Glibc
import KaraokeCore

/// The party's HTTP server at the edge (DESIGN §21): libmicrohttpd, loaded on first use, listening on its own
/// thread and handing every complete request to one handler as an `HTTPRequest`, then sending back the
/// `HTTPReply` the handler returns.
///
/// The handler is called on the server's thread, one request at a time, never after `stop()` returns. It
/// must answer quickly, since every other guest waits meanwhile: the party command's handler will post the
/// request to the driver's thread through a `Mailbox` (which wakes the driver), wait for the driver's reply
/// with a deadline, and answer 503 itself when the deadline passes. A handler that throws, or returns a reply
/// HTTP cannot carry (a status outside 200…599, a content type with a line break), gets a 500 with a JSON
/// error instead; a large body is sent as it is.
///
/// The server serves nothing on its own: no file, no listing, no CORS header. Every reply carries
/// `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.
public final class HTTPServer: Sendable {
    /// What the server accepts, and for how long it waits.
    public struct Limits: Sendable, Equatable {
        /// The most connections open at once; later clients wait in the listen queue until one closes.
        public var connections: Int
        /// The most connections open at once from one address (0: no limit of its own); more are closed as
        /// soon as they are accepted. A phone's browser opens about six.
        public var connectionsPerClient: Int
        /// Seconds a connection may stay silent, mid-request or idle between requests, before it is closed.
        public var idleSeconds: Int
        /// The most body bytes a request may carry; a longer body reaches the handler as `bodyTooLarge`.
        public var bodyBytes: Int

        /// Limits; the defaults are the party's.
        public init(connections: Int = 64, connectionsPerClient: Int = 16, idleSeconds: Int = 10, bodyBytes: Int = 4096)
        {
            self.connections = connections
            self.connectionsPerClient = connectionsPerClient
            self.idleSeconds = idleSeconds
            self.bodyBytes = bodyBytes
        }
    }

    /// Why the server could not start, in the user's words.
    public struct Failure: Error, Equatable {
        /// What went wrong, lower case, without a full stop.
        public var message: String

        /// A failure saying `message`.
        public init(message: String) {
            self.message = message
        }
    }

    /// What answers the requests.
    public typealias Handler = @Sendable (HTTPRequest) throws -> HTTPReply

    /// The reply in place of one the handler could not give.
    static let internalError = HTTPReply(
        status: 500, contentType: "application/json; charset=utf-8",
        body: Array(#"{"error":"the server could not answer this request"}"#.utf8))

    /// The port the server listens on: the one asked for, or the one the system picked for 0.
    public let port: Int

    /// The running daemon and the handler it calls, until `stop()`.
    private let running: PthreadLock<Running?>

    private struct Running {
        let server: OpaquePointer
        /// Retained for the daemon, which holds it as a raw pointer; released once its thread has ended.
        let handler: Unmanaged<HTTPServerHandler>
    }

    private init(port: Int, running: Running) {
        self.port = port
        self.running = PthreadLock(running)
    }

    deinit {
        stop()
    }

    /// Starts a server listening on `bind` (an IPv4 address as text; nil for every address) and `port` (0
    /// picks a free one) with `limits`, answering with `handler`.
    public static func start(
        bind: String? = nil, port: Int, limits: Limits = Limits(), handler: @escaping Handler
    ) throws(Failure) -> HTTPServer {
        // The limits are the program's, never a user's: a wrong one is a mistake in the code.
        precondition(limits.connections >= 1 && limits.connectionsPerClient >= 0, "limits: at least one connection")
        precondition(limits.idleSeconds >= 1 && limits.bodyBytes >= 0, "limits: an idle time of a second or more")
        let address = bind ?? "0.0.0.0"
        guard (0...65535).contains(port) else {
            throw Failure(message: "port \(port) is not between 0 and 65535")
        }
        if let message = kk_httpd_load() {
            throw Failure(message: ControlCharacters.strip(String(cString: message)))
        }
        let box = Unmanaged.passRetained(HTTPServerHandler(handler))
        var reason = [CChar](repeating: 0, count: 512)
        let size = reason.count
        let server = address.withCString { bindText in
            var options = kk_httpd_options(
                bind: bindText, port: Int32(port), connection_limit: UInt32(clamping: limits.connections),
                per_client_limit: UInt32(clamping: limits.connectionsPerClient),
                timeout_seconds: UInt32(clamping: limits.idleSeconds), body_limit: limits.bodyBytes,
                handler: answer, context: box.toOpaque())
            return reason.withUnsafeMutableBufferPointer { kk_httpd_start(&options, $0.baseAddress, size) }
        }
        guard let server else {
            box.release()
            let said = ControlCharacters.strip(
                String(decoding: reason.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
            throw Failure(message: "cannot listen on \(ControlCharacters.strip(address)):\(port): \(said)")
        }
        return HTTPServer(port: Int(kk_httpd_port(server)), running: Running(server: server, handler: box))
    }

    /// Stops listening, closes every connection and waits for the server's thread; later calls do nothing.
    /// Never call it from the handler, which runs on the thread it waits for.
    public func stop() {
        let stopping = running.withLock { running -> Running? in
            defer { running = nil }
            return running
        }
        guard let stopping else { return }
        kk_httpd_stop(stopping.server)
        stopping.handler.release()
    }

    /// `handler`'s reply to `request`, or `internalError` when it throws.
    static func reply(to request: HTTPRequest, with handler: Handler) -> HTTPReply {
        (try? handler(request)) ?? internalError
    }

    /// The request the C side read.
    static func request(from read: kk_httpd_request) -> HTTPRequest {
        let body = read.body.map { Array(UnsafeBufferPointer(start: $0, count: read.body_length)) } ?? []
        // String(cString:) repairs bytes that are not UTF-8; the core sees what it can compare.
        return HTTPRequest(
            method: String(cString: read.method), path: String(cString: read.path),
            query: String(cString: read.query), body: body, bodyTooLarge: read.body_too_large != 0,
            client: String(cString: read.client))
    }
}

/// The C side's one handler: the request to the Swift handler, its reply back to the C side.
private let answer: kk_httpd_handler = { context, read, reply in
    guard let context, let read, let reply else { return }
    let handler = Unmanaged<HTTPServerHandler>.fromOpaque(context).takeUnretainedValue()
    var made = HTTPServer.reply(to: HTTPServer.request(from: read.pointee), with: handler.handle)
    for _ in 0..<2 {
        let set = made.body.withUnsafeBytes { body in
            made.contentType.withCString {
                kk_httpd_reply_set(reply, Int32(clamping: made.status), $0, body.baseAddress, body.count)
            }
        }
        // Refused (a status or content type HTTP cannot carry, or no memory): the error reply once, then the
        // C side's own.
        if set == 0 { return }
        made = HTTPServer.internalError
    }
}

/// The handler, boxed so the C side can hold it as a pointer.
private final class HTTPServerHandler {
    let handle: HTTPServer.Handler
    init(_ handle: @escaping HTTPServer.Handler) { self.handle = handle }
}
