import CCurl
import Glibc
import KaraokeCore

/// GET requests through libcurl, which the first request loads (DESIGN §11): nothing else in karaoke
/// touches the network, and a start that makes no request never loads libcurl.
enum HTTPClient {
    /// The User-Agent karaoke sends, as LRCLIB asks clients to name themselves.
    static let userAgent = "karaoke/\(CommandLineParser.version) (+https://github.com/karaoke-terminal/karaoke)"

    /// The longest an answer may be; a longer one is cut off and refused.
    static let sizeLimit = 2 * 1_048_576

    /// How long a request may take in all, unless `KARAOKE_HTTP_TIMEOUT` says otherwise.
    static let defaultTimeout = 10.0

    /// An answer: its HTTP status and body.
    struct Response {
        var status: Int
        var body: [UInt8]
    }

    /// Why no answer came; `message` is the text after `karaoke: `.
    struct Failure: Error {
        var message: String
    }

    /// The time limit in seconds: `KARAOKE_HTTP_TIMEOUT` when it is a number from 0.1 to 600 (the tests
    /// shorten it), else `defaultTimeout`.
    static var timeout: Double {
        guard let text = getenv("KARAOKE_HTTP_TIMEOUT").map({ String(cString: $0) }), let value = Double(text),
            value >= 0.1, value <= 600
        else { return defaultTimeout }
        return value
    }

    /// GETs `url`; `server` names the other end in messages.
    static func get(_ url: String, server: String) -> Result<Response, Failure> {
        let seconds = timeout
        var response = kk_http_response()
        kk_http_get(url, userAgent, Int(seconds * 1000), sizeLimit, &response)
        defer { kk_http_free(&response) }
        let detail = withUnsafeBytes(of: response.message) { raw in
            ControlCharacters.strip(String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self))
        }
        switch Int(response.outcome) {
        case KK_HTTP_OK:
            let body =
                response.body.map { start in
                    Array(UnsafeRawBufferPointer(start: start, count: response.length).bindMemory(to: UInt8.self))
                } ?? []
            return .success(Response(status: response.status, body: body))
        case KK_HTTP_NO_LIBRARY:
            // The loader's whole message, which names the package.
            return .failure(Failure(message: detail))
        case KK_HTTP_DNS:
            return .failure(Failure(message: "cannot resolve \(server) (no network?): \(detail)"))
        case KK_HTTP_CONNECT:
            return .failure(Failure(message: "cannot connect to \(server): \(detail)"))
        case KK_HTTP_TLS:
            return .failure(Failure(message: "TLS failure talking to \(server): \(detail)"))
        case KK_HTTP_TIMEOUT:
            return .failure(
                Failure(
                    message:
                        "\(server) did not answer within \(seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)) s"
                ))
        case KK_HTTP_TOO_LARGE:
            return .failure(Failure(message: "\(server)'s answer is over the \(sizeLimit / 1_048_576) MB limit"))
        default:
            return .failure(Failure(message: "request to \(server) failed: \(detail)"))
        }
    }
}
