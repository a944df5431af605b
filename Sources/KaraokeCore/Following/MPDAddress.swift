/// Where MPD listens and the password it wants, from `--player mpd:…`, `$MPD_HOST` and `$MPD_PORT`
/// (DESIGN §12.3).
public struct MPDAddress: Sendable, Equatable {
    /// How to reach MPD.
    public enum Endpoint: Sendable, Equatable {
        /// A host name or an IPv4/IPv6 address, and a port.
        case network(host: String, port: Int)
        /// A Unix socket's path.
        case socket(path: String)
        /// A Linux abstract socket's name (without the leading `@`).
        case abstractSocket(name: String)
    }

    /// MPD's default port.
    public static let defaultPort = 6600
    /// The host when nothing names one.
    public static let defaultHost = "localhost"

    /// Where to connect.
    public var endpoint: Endpoint
    /// Sent with `password` right after the greeting, when there is one.
    public var password: String?

    /// An address with every field given.
    public init(endpoint: Endpoint, password: String? = nil) {
        self.endpoint = endpoint
        self.password = password
    }

    /// The address for `--player mpd:HOST:PORT` (`host`/`port`, nil when not given) and the environment's
    /// `MPD_HOST` and `MPD_PORT`: the option wins over the environment, which wins over localhost:6600.
    ///
    /// A host is `[PASSWORD@]HOST`, where HOST is a name, an address (IPv6 in brackets or bare), a socket
    /// path starting with `/`, or `@NAME` for an abstract socket. Returns the message for a bad `MPD_PORT`.
    public static func resolve(
        host: String?, port: Int?, environmentHost: String?, environmentPort: String?
    ) -> Result<MPDAddress, MPDAddressError> {
        let chosenHost = host ?? environmentHost.flatMap { $0.isEmpty ? nil : $0 }
        var chosenPort = port ?? defaultPort
        if port == nil, let text = environmentPort, !text.isEmpty {
            guard let number = Int(text), (1...65535).contains(number) else {
                return .failure(.badPort(Diagnostic.visible(String(text.prefix(40)))))
            }
            chosenPort = number
        }
        var password: String?
        var name = chosenHost ?? defaultHost
        // `PASSWORD@HOST`: an `@` at the very start is an abstract socket, not an empty password.
        if let at = name.firstIndex(of: "@"), at != name.startIndex {
            password = String(name[..<at])
            name = String(name[name.index(after: at)...])
            if name.isEmpty { name = defaultHost }
        }
        if name.hasPrefix("/") {
            return .success(MPDAddress(endpoint: .socket(path: name), password: password))
        }
        if name.hasPrefix("@") {
            guard name.count > 1 else { return .failure(.emptySocketName) }
            return .success(MPDAddress(endpoint: .abstractSocket(name: String(name.dropFirst())), password: password))
        }
        if name.hasPrefix("[") && name.hasSuffix("]") && name.count > 2 {
            name = String(name.dropFirst().dropLast())
        }
        return .success(MPDAddress(endpoint: .network(host: name, port: chosenPort), password: password))
    }

    /// Where MPD is, for messages: `localhost:6600`, `[::1]:6600`, `/run/mpd/socket`, `@mpd`. Never the password.
    public var description: String {
        switch endpoint {
        case .network(let host, let port):
            let shown = Diagnostic.visible(host)
            return (shown.contains(":") ? "[\(shown)]" : shown) + ":\(port)"
        case .socket(let path): return Diagnostic.visible(path)
        case .abstractSocket(let name): return "@" + Diagnostic.visible(name)
        }
    }

    /// Whether MPD answers `config` here: it does only to clients on a Unix socket.
    public var isLocalSocket: Bool {
        if case .network = endpoint { return false }
        return true
    }
}

/// Why `MPD_HOST`/`MPD_PORT` name no address.
public enum MPDAddressError: Error, Sendable, Equatable {
    /// `MPD_PORT` is not a port number; it holds the text.
    case badPort(String)
    /// `@` alone: an abstract socket with no name.
    case emptySocketName

    /// The problem for a person.
    public var text: String {
        switch self {
        case .badPort(let text): return "MPD_PORT is '\(text)'; expected a port number from 1 to 65535"
        case .emptySocketName: return "MPD host '@' names no abstract socket; expected @NAME"
        }
    }
}
