import Glibc
import KaraokeCore

/// Asking LRCLIB (DESIGN §11), for `fetch` and for `play --fetch`: the server to ask, and the records it
/// has for a song, through the cache.
enum LRCLIBLookup {
    /// The server to ask: `--lrclib-url` (`option`), else `KARAOKE_LRCLIB_URL`, else lrclib.net.
    static func server(_ option: String?) -> String {
        option ?? environmentServer() ?? FetchRequest.defaultServer
    }

    /// `KARAOKE_LRCLIB_URL`, when set and an address; a bad one is said and ignored.
    private static func environmentServer() -> String? {
        guard let value = getenv("KARAOKE_LRCLIB_URL").map({ String(cString: $0) }), !value.isEmpty else {
            return nil
        }
        do throws(UsageError) {
            return try CommandLineParser.serverURL(value)
        } catch {
            StandardStreams.err("karaoke: warning: KARAOKE_LRCLIB_URL ignored: \(error.message)")
            return nil
        }
    }

    /// What LRCLIB has for `query`: from the cache, else `/api/get`, and on 404 (or 400, a server that wants
    /// more names than there are) `/api/search`. Empty when nothing was found; every answer is cached.
    static func records(for query: LRCLIBQuery, server: String, cache: LRCLIBCache?) -> Result<
        [LRCLIBRecord], HTTPClient.Failure
    > {
        let key = query.cacheKey(server: server)
        switch cache?.entry(key) {
        case .found(let records)?: return .success(records)
        case .missing?: return .success([])
        case nil: break
        }
        let shown = LRCLIBQuery.host(of: server)
        let first: HTTPClient.Response
        switch HTTPClient.get(query.getURL(server: server), server: shown) {
        case .success(let response): first = response
        case .failure(let failure): return .failure(failure)
        }
        if first.status == 200 {
            do {
                let record = try LRCLIBRecord.parseGet(first.body)
                cache?.store(key, LRCLIBCacheEntry.encode(kind: "get", body: first.body))
                return .success([record])
            } catch {
                return .failure(HTTPClient.Failure(message: "\(shown) sent a malformed answer: \(error.reason)"))
            }
        }
        guard first.status == 404 || first.status == 400 else { return .failure(statusFailure(first.status, shown)) }
        let second: HTTPClient.Response
        switch HTTPClient.get(query.searchURL(server: server), server: shown) {
        case .success(let response): second = response
        case .failure(let failure): return .failure(failure)
        }
        if second.status == 404 {
            cache?.store(key, LRCLIBCacheEntry.encodedMiss)
            return .success([])
        }
        guard second.status == 200 else { return .failure(statusFailure(second.status, shown)) }
        do {
            let records = try LRCLIBRecord.parseSearch(second.body)
            cache?.store(
                key,
                records.isEmpty
                    ? LRCLIBCacheEntry.encodedMiss : LRCLIBCacheEntry.encode(kind: "search", body: second.body))
            return .success(records)
        } catch {
            return .failure(HTTPClient.Failure(message: "\(shown) sent a malformed answer: \(error.reason)"))
        }
    }

    /// The message for an HTTP status that is neither an answer nor a miss.
    private static func statusFailure(_ status: Int, _ server: String) -> HTTPClient.Failure {
        switch status {
        case 429: return .init(message: "\(server) is limiting requests (HTTP 429); try again later")
        case 500...599: return .init(message: "\(server) failed (HTTP \(status)); try again later")
        default: return .init(message: "\(server) answered HTTP \(status)")
        }
    }
}
