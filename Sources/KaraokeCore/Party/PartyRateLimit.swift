/// At most 30 requests a minute from one client address, every request counted (DESIGN §20.3).
///
/// A sliding window: a request is refused when the client made `limit` or more in the `window` seconds
/// before it. Refused requests count too, so a client that keeps hammering stays refused until it has been
/// quiet long enough; one that stops is admitted again a minute after its burst, not at a clock boundary.
public struct PartyRateLimit: Sendable, Equatable {
    /// The most requests a client may make within `window`.
    public static let limit = 30
    /// The window, in seconds.
    public static let window: Double = 60
    /// Above this many clients, those quiet for a whole window are forgotten.
    static let clientsBeforePruning = 256

    /// Each client's latest request times (at most `limit`), oldest first.
    var recent: [String: [Double]] = [:]

    /// A limit that has seen no request.
    public init() {}

    /// Records a request from `client` at `now` (seconds on a monotonic clock) and says whether to serve it.
    public mutating func admits(_ client: String, at now: Double) -> Bool {
        if recent.count > Self.clientsBeforePruning {
            recent = recent.filter { now - ($0.value.last ?? -.infinity) < Self.window }
        }
        var times = recent[client, default: []]
        times.removeAll { now - $0 >= Self.window }
        let admitted = times.count < Self.limit
        times.append(now)
        // Only the latest `limit` can decide a later request, so the list never grows beyond that.
        if times.count > Self.limit { times.removeFirst(times.count - Self.limit) }
        recent[client] = times
        return admitted
    }
}
