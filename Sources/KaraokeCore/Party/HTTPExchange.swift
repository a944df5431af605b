/// One request to the party's server, as the edge read it off the network (DESIGN §20).
///
/// The server at the edge only moves bytes: it hands each complete request to the core as this value and
/// sends back the `HTTPReply` the core made, so every rule about what a guest may do is tested without a
/// socket.
public struct HTTPRequest: Sendable, Equatable {
    /// `GET`, `POST`, `DELETE`, … as sent.
    public var method: String
    /// The path without the query, as sent (still percent-encoded).
    public var path: String
    /// The query string after `?`, without it, as sent (still percent-encoded); empty when none.
    public var query: String
    /// The body's bytes (at most what the server accepts; see `bodyTooLarge`).
    public var body: [UInt8]
    /// Whether the client sent more body than the server accepts: the bytes were not kept.
    public var bodyTooLarge: Bool
    /// The client's address as text (`192.0.2.7`), for the rate limit.
    public var client: String

    /// Creates a request.
    public init(
        method: String, path: String, query: String = "", body: [UInt8] = [], bodyTooLarge: Bool = false,
        client: String
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.bodyTooLarge = bodyTooLarge
        self.client = client
    }
}

/// The answer to one `HTTPRequest`.
public struct HTTPReply: Sendable, Equatable {
    /// The status code.
    public var status: Int
    /// The `Content-Type` header's value.
    public var contentType: String
    /// The body's bytes.
    public var body: [UInt8]

    /// Creates a reply.
    public init(status: Int, contentType: String, body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.body = body
    }
}
