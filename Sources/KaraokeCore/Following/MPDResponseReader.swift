/// One `key: value` line of an MPD response (DESIGN §12.3).
public struct MPDField: Sendable, Equatable {
    /// The key as MPD wrote it (`file`, `Title`, `elapsed`); MPD's keys are case-sensitive.
    public var key: String
    /// Everything after the first `: `.
    public var value: String
}

/// MPD's refusal of a command: `ACK [code@index] {command} message` (DESIGN §12.3).
public struct MPDRefusal: Sendable, Equatable {
    /// MPD's error code (2 bad argument, 3 bad password, 4 no permission, 5 unknown command, 50 no such thing).
    public var code: Int
    /// The command's place in a command list (0 outside one).
    public var index: Int
    /// The command refused, as MPD names it; empty for an unknown command.
    public var command: String
    /// MPD's own words.
    public var message: String

    /// The refusal for a person: `MPD refused 'seekcur': Not playing`.
    public var text: String {
        let what = command.isEmpty ? "a command" : "'\(Diagnostic.visible(command))'"
        return "MPD refused \(what): \(Diagnostic.visible(message))"
    }
}

/// What one MPD command got back (DESIGN §12.3).
public enum MPDResponse: Sendable, Equatable {
    /// The fields, ended by `OK`.
    case ok([MPDField])
    /// An `ACK` line: the command was refused.
    case refused(MPDRefusal)
}

/// Why MPD's byte stream cannot be read on.
public enum MPDProtocolError: Error, Sendable, Equatable {
    /// A line longer than `MPDResponseReader.lineLimit` bytes.
    case lineTooLong
    /// A response of more than `MPDResponseReader.responseLimit` bytes.
    case responseTooLarge
    /// The first line is not `OK MPD x.y.z`; it holds what came instead (shortened).
    case notMPD(String)

    /// The problem for a person.
    public var text: String {
        switch self {
        case .lineTooLong: return "MPD sent a line longer than \(MPDResponseReader.lineLimit / 1024) KiB"
        case .responseTooLarge: return "MPD sent an answer larger than \(MPDResponseReader.responseLimit / 1024) KiB"
        case .notMPD(let line): return "not MPD (it said '\(line)')"
        }
    }
}

/// Splits the bytes MPD sends into its greeting and its responses, within fixed limits (DESIGN §12.3).
///
/// The edge appends whatever `read` returned and asks for what is complete. Nothing grows without bound: a
/// line longer than `lineLimit` or a response longer than `responseLimit` is an error, so a hostile or broken
/// server cannot make karaoke allocate more than about `responseLimit` bytes.
public struct MPDResponseReader: Sendable {
    /// The longest line read: tags longer than this are not lyrics metadata anyone needs.
    public static let lineLimit = 64 * 1024
    /// The largest response read: `status` and `currentsong` are a few hundred bytes.
    public static let responseLimit = 1024 * 1024

    /// Bytes received and not yet taken.
    private var buffer: [UInt8] = []
    /// Where the untaken bytes start in `buffer` (compacted now and then, not on every line).
    private var start = 0
    /// The fields of the response being read.
    private var fields: [MPDField] = []
    /// The bytes of the response being read so far.
    private var responseSize = 0

    /// An empty reader.
    public init() {}

    /// Adds bytes as they came from the socket.
    public mutating func append<Bytes: Sequence<UInt8>>(_ bytes: Bytes) {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Whether no bytes are waiting (a complete exchange leaves nothing behind).
    public var isEmpty: Bool { start == buffer.count }

    /// Drops everything received: for a new connection.
    public mutating func reset() {
        self = MPDResponseReader()
    }

    /// The next whole line, without its line feed; nil when none is complete yet.
    public mutating func nextLine() throws(MPDProtocolError) -> [UInt8]? {
        guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
            if buffer.count - start > MPDResponseReader.lineLimit { throw .lineTooLong }
            return nil
        }
        guard newline - start <= MPDResponseReader.lineLimit else { throw .lineTooLong }
        let line = Array(buffer[start..<newline])
        start = newline + 1
        return line
    }

    /// MPD's version from its greeting `OK MPD 0.23.5`; nil while the line is incomplete.
    public mutating func greeting() throws(MPDProtocolError) -> String? {
        guard let line = try nextLine() else { return nil }
        guard let version = MPDProtocol.version(fromGreeting: line) else {
            throw .notMPD(Diagnostic.visible(String(decoding: line.prefix(60), as: UTF8.self)))
        }
        return version
    }

    /// The next complete response; nil while it is still coming.
    public mutating func nextResponse() throws(MPDProtocolError) -> MPDResponse? {
        while let line = try nextLine() {
            responseSize += line.count + 1
            guard responseSize <= MPDResponseReader.responseLimit else { throw .responseTooLarge }
            if line == MPDResponseReader.okLine {
                defer { fields = []; responseSize = 0 }
                return .ok(fields)
            }
            if let refusal = MPDProtocol.refusal(from: line) {
                fields = []
                responseSize = 0
                return .refused(refusal)
            }
            // A line without `: ` (none is expected in the answers karaoke asks for) is skipped.
            if let field = MPDProtocol.field(from: line) { fields.append(field) }
        }
        return nil
    }

    /// The line that ends a successful response.
    private static let okLine: [UInt8] = Array("OK".utf8)
}
