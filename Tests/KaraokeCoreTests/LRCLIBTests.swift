import Testing
@testable import KaraokeCore

/// A record with the given length and lyrics, for the choice tests.
private func candidate(
    _ id: Int, duration: Double?, synced: Bool = false, plain: Bool = false, instrumental: Bool = false
) -> LRCLIBRecord {
    LRCLIBRecord(
        id: id, trackName: "Song", artistName: "Band", duration: duration, instrumental: instrumental,
        plainLyrics: plain ? "words" : nil, syncedLyrics: synced ? "[00:01.00]words" : nil)
}

/// The fetch request `arguments` (after `fetch`) make.
private func fetch(_ arguments: [String]) throws -> FetchRequest {
    let invocation = try CommandLineParser.parse(["fetch"] + arguments)
    guard case .fetch(let request) = invocation else {
        Issue.record("expected a fetch request, got \(invocation)")
        throw UnexpectedInvocation(invocation: invocation)
    }
    return request
}

@Suite("LRCLIB requests")
struct LRCLIBQueryTests {
    @Test(
        "Names are percent-encoded so that no character can end or split a parameter",
        arguments: [
            ("plain", "plain"),
            ("two words", "two%20words"), // a space is %20, never +
            ("AC/DC", "AC%2FDC"),
            ("Tom & Jerry", "Tom%20%26%20Jerry"),
            ("a=b+c#d?e", "a%3Db%2Bc%23d%3Fe"),
            ("Beyoncé", "Beyonc%C3%A9"), // UTF-8, byte by byte
            ("東京", "%E6%9D%B1%E4%BA%AC"),
            ("keep-._~", "keep-._~"), // RFC 3986's unreserved characters stay
            ("100%", "100%25"),
        ])
    func percentEncoding(text: String, encoded: String) {
        #expect(LRCLIBQuery.percentEncoded(text) == encoded)
    }

    @Test("/api/get names the track, artist, album and whole-second length; /api/search only the names")
    func requestURLs() {
        let query = LRCLIBQuery(artist: "Daft Punk", title: "One More Time", album: "Discovery", duration: 320.4)
        #expect(
            query.getURL(server: "https://lrclib.net/")
                == "https://lrclib.net/api/get?track_name=One%20More%20Time&artist_name=Daft%20Punk"
                + "&album_name=Discovery&duration=320")
        #expect(
            query.searchURL(server: "http://127.0.0.1:8080")
                == "http://127.0.0.1:8080/api/search?track_name=One%20More%20Time&artist_name=Daft%20Punk")
    }

    @Test("An unknown album or length is left out of /api/get rather than sent empty")
    func missingFieldsLeftOut() {
        let query = LRCLIBQuery(artist: "A", title: "T")
        #expect(query.getURL(server: "https://lrclib.net") == "https://lrclib.net/api/get?track_name=T&artist_name=A")
    }

    @Test(
        "A file named 'Artist - Title.ext' gives the artist and title; other names give none",
        arguments: [
            ("/music/Daft Punk - One More Time.mp3", "Daft Punk", "One More Time"),
            ("Nena - 99 Luftballons - Live.flac", "Nena", "99 Luftballons - Live"), // the first dash splits
            ("  Spaced  -  Out  .ogg", "Spaced", "Out"),
            ("No Extension - Song", "No Extension", "Song"),
        ])
    func namesFromFileName(path: String, artist: String, title: String) throws {
        let names = try #require(LRCLIBQuery.namesFromFileName(path))
        #expect(names.artist == artist)
        #expect(names.title == title)
    }

    @Test("A file name without ' - ' between two names gives none", arguments: ["song.mp3", "-song.mp3", "a - .mp3"])
    func namesFromFileNameRefused(path: String) {
        #expect(LRCLIBQuery.namesFromFileName(path) == nil)
    }

    @Test("Tags come first; the file name fills in a missing artist or title")
    func tagsBeforeFileName() throws {
        let tagged = try #require(
            LRCLIBQuery(
                tags: AudioTags(title: "Real Title", artist: "Real Artist", album: "LP", duration: 200),
                audioPath: "Name Artist - Name Title.mp3"))
        #expect(tagged == LRCLIBQuery(artist: "Real Artist", title: "Real Title", album: "LP", duration: 200))
        let half = try #require(LRCLIBQuery(tags: AudioTags(title: "Tag Title"), audioPath: "Band - Other.mp3"))
        #expect(half.artist == "Band")
        #expect(half.title == "Tag Title")
        #expect(LRCLIBQuery(tags: AudioTags(title: "Only"), audioPath: "track01.mp3") == nil)
    }

    @Test("The cache key ignores case and spacing, and tells servers and lengths apart")
    func cacheKey() {
        let a = LRCLIBQuery(artist: "Daft  Punk", title: "one more time", duration: 320.2)
        let b = LRCLIBQuery(artist: "daft punk ", title: "One More\tTime", duration: 319.8)
        #expect(a.cacheKey(server: "https://lrclib.net") == b.cacheKey(server: "https://lrclib.net/"))
        #expect(a.cacheKey(server: "https://lrclib.net") != a.cacheKey(server: "http://127.0.0.1:1"))
        var longer = a
        longer.duration = 400
        #expect(a.cacheKey(server: "https://lrclib.net") != longer.cacheKey(server: "https://lrclib.net"))
        #expect(a.cacheKey(server: "x").count == 21) // 16 hex digits and ".json"
    }

    @Test(
        "Messages name the server by its host and port",
        arguments: [
            ("https://lrclib.net", "lrclib.net"), ("http://127.0.0.1:8080/", "127.0.0.1:8080"),
            ("https://mirror.example/lrclib", "mirror.example"),
        ])
    func host(server: String, host: String) {
        #expect(LRCLIBQuery.host(of: server) == host)
    }
}

@Suite("LRCLIB answers")
struct LRCLIBRecordTests {
    @Test("/api/get's object is read into every field")
    func parseGet() throws {
        let body = """
            {"id":3396226,"trackName":"I Want to Live","artistName":"Borislav Slavov","albumName":"Baldur's Gate 3",
             "duration":233,"instrumental":false,"plainLyrics":"I feel","syncedLyrics":"[00:17.12] I feel"}
            """
        let record = try LRCLIBRecord.parseGet(Array(body.utf8))
        #expect(
            record
                == LRCLIBRecord(
                    id: 3_396_226, trackName: "I Want to Live", artistName: "Borislav Slavov",
                    albumName: "Baldur's Gate 3", duration: 233, instrumental: false, plainLyrics: "I feel",
                    syncedLyrics: "[00:17.12] I feel"))
        #expect(record.isSynced)
    }

    @Test("Null and missing fields are nil, not errors")
    func nullFields() throws {
        let body =
            #"{"id":1,"trackName":"T","artistName":"A","albumName":null,"duration":null,"instrumental":true,"plainLyrics":null}"#
        let record = try LRCLIBRecord.parseGet(Array(body.utf8))
        #expect(record.albumName == nil && record.duration == nil && record.syncedLyrics == nil)
        #expect(record.instrumental)
        #expect(record.lyrics() == .instrumental)
    }

    @Test("/api/search's array is read in order")
    func parseSearch() throws {
        let body = #"[{"id":1,"trackName":"T","artistName":"A"},{"id":2,"trackName":"T2","artistName":"A"}]"#
        #expect(try LRCLIBRecord.parseSearch(Array(body.utf8)).map(\.id) == [1, 2])
        #expect(try LRCLIBRecord.parseSearch(Array("[]".utf8)).isEmpty)
    }

    @Test(
        "A body that is not LRCLIB's JSON is refused with a reason",
        arguments: [
            #"{"id": 15, "trackName": "x", "#, // cut off
            #"{"trackName":"T","artistName":"A"}"#, // no id
            #"{"id":1.5,"trackName":"T","artistName":"A"}"#, // not a whole id
            #"{"id":1,"artistName":"A"}"#, // no title
            "[1, 2]", // not an object
            "<html>busy</html>",
        ])
    func malformedGet(body: String) {
        #expect(throws: LRCLIBRecord.Malformed.self) { try LRCLIBRecord.parseGet(Array(body.utf8)) }
    }

    @Test("A search answer that is not an array is refused")
    func malformedSearch() {
        #expect(throws: LRCLIBRecord.Malformed.self) {
            try LRCLIBRecord.parseSearch(Array(#"{"id":1,"trackName":"T","artistName":"A"}"#.utf8))
        }
    }

    @Test(
        "The best candidate: timed lyrics first, then a length within 2 s, then the closest length, then LRCLIB's order",
        arguments: [
            // Timed beats untimed, even when the untimed one has the exact length.
            ([candidate(1, duration: 200, plain: true), candidate(2, duration: 230, synced: true)], 200.0, 2),
            // Of two timed ones, the one within 2 s.
            ([candidate(1, duration: 230, synced: true), candidate(2, duration: 201.5, synced: true)], 200.0, 2),
            // Both within 2 s: the closer one.
            ([candidate(1, duration: 201.9, synced: true), candidate(2, duration: 200.2, synced: true)], 200.0, 2),
            // Both far: still the closer one.
            ([candidate(1, duration: 260, synced: true), candidate(2, duration: 240, synced: true)], 200.0, 2),
            // No length known: LRCLIB's order.
            ([candidate(1, duration: 260, synced: true), candidate(2, duration: 200, synced: true)], nil, 1),
            // A record without a length ranks after one with a length.
            ([candidate(1, duration: nil, synced: true), candidate(2, duration: 300, synced: true)], 200.0, 2),
            // Lyrics beat an instrumental mark; an instrumental mark beats nothing at all.
            ([candidate(1, duration: 200, instrumental: true), candidate(2, duration: 200, plain: true)], 200.0, 2),
            ([candidate(1, duration: 200), candidate(2, duration: 200, instrumental: true)], 200.0, 2),
        ] as [([LRCLIBRecord], Double?, Int)])
    func choice(records: [LRCLIBRecord], duration: Double?, best: Int) {
        #expect(LRCLIBRecord.ranked(records, duration: duration).first?.id == best)
        #expect(LRCLIBRecord.ranked(records, duration: duration).count == records.count)
    }

    @Test("Timed lyrics are written as LRC with the record's names, without escape sequences or bidi controls")
    func timedLyricsSanitised() throws {
        let record = LRCLIBRecord(
            id: 7, trackName: "Ti\u{1B}[2Jtle", artistName: "Art\u{202E}ist", albumName: "LP", duration: 61,
            syncedLyrics: "[00:01.00]red \u{1B}[31mtext\n[00:02.00]\u{202E}mirrored\u{2069} words\u{07}\n")
        guard case .timed(let text, _) = record.lyrics() else {
            Issue.record("expected timed lyrics")
            return
        }
        #expect(!text.unicodeScalars.contains { ControlCharacters.isForbidden($0.value) && $0 != "\n" })
        #expect(text.contains("[ti:Ti[2Jtle]"))
        #expect(text.contains("[ar:Artist]"))
        #expect(text.contains("[length:01:01.00]"))
        #expect(text.contains("[00:02.00]mirrored words"))
    }

    @Test("Untimed lyrics are text, a line a line, CR LF or LF, control characters dropped")
    func untimedLyrics() {
        let record = LRCLIBRecord(id: 8, trackName: "T", artistName: "A", plainLyrics: "one\r\ntwo\u{1B}\n\nthree\n\n")
        #expect(record.lyrics() == .untimed("one\ntwo\n\nthree\n"))
    }

    @Test("Timed lyrics without a single timed line fall back to the untimed ones, else to none")
    func brokenTimedLyrics() {
        var record = LRCLIBRecord(
            id: 9, trackName: "T", artistName: "A", plainLyrics: "words", syncedLyrics: "no stamps")
        #expect(record.lyrics() == .untimed("words\n"))
        record.plainLyrics = nil
        #expect(record.lyrics() == LRCLIBRecord.Lyrics.none)
    }
}

@Suite("LRCLIB cache entries")
struct LRCLIBCacheEntryTests {
    @Test("An answer read back from its entry is the answer; a miss is a miss")
    func roundTrip() throws {
        let get = Array(#"{"id":1,"trackName":"T","artistName":"A","syncedLyrics":"[00:01.00]x"}"#.utf8)
        let search = Array(#"[{"id":2,"trackName":"T","artistName":"A"}]"#.utf8)
        #expect(
            LRCLIBCacheEntry.decode(LRCLIBCacheEntry.encode(kind: "get", body: get))
                == .found([try LRCLIBRecord.parseGet(get)]))
        #expect(LRCLIBCacheEntry.decode(LRCLIBCacheEntry.encode(kind: "search", body: search))?.recordIDs == [2])
        #expect(LRCLIBCacheEntry.decode(LRCLIBCacheEntry.encodedMiss) == .missing)
        #expect(LRCLIBCacheEntry.decode(LRCLIBCacheEntry.encode(kind: "search", body: Array("[]".utf8))) == .missing)
    }

    @Test(
        "A corrupt entry is no entry",
        arguments: [
            "", "karaoke-lrclib 1\n", "karaoke-lrclib 2\nmissing\n", "karaoke-lrclib 1\nmissing\nextra",
            "karaoke-lrclib 1\nget\n{\"id\":", "karaoke-lrclib 1\nsearch\n{}", "karaoke-lrclib 1\nother\n[]",
        ])
    func corrupt(text: String) {
        #expect(LRCLIBCacheEntry.decode(Array(text.utf8)) == nil)
    }
}

extension LRCLIBCacheEntry {
    /// The ids of the records found, for comparing entries briefly.
    fileprivate var recordIDs: [Int] {
        guard case .found(let records) = self else { return [] }
        return records.map(\.id)
    }
}

@Suite("fetch's command line")
struct FetchCommandLineTests {
    @Test("AUDIO files with --save, --force and --pick")
    func audioFiles() throws {
        let request = try fetch([
            "a.mp3", "b.flac", "--save", "--force", "--pick", "--lrclib-url", "http://127.0.0.1:9",
        ])
        #expect(request.audioFiles == ["a.mp3", "b.flac"])
        #expect(request.save && request.force && request.pick)
        #expect(request.server == "http://127.0.0.1:9")
    }

    @Test("--artist and --title with --album, --duration and -o")
    func names() throws {
        let request = try fetch([
            "--artist", "A", "--title", "T", "--album", "AL", "--duration", "201.5", "-o", "x.lrc",
        ])
        #expect(request.artist == "A" && request.title == "T" && request.album == "AL")
        #expect(request.duration == 201.5)
        #expect(request.output == "x.lrc")
        #expect(request.audioFiles.isEmpty)
    }

    @Test(
        "Contradictions and gaps are usage errors that say what is wrong",
        arguments: [
            ([], "'fetch' needs AUDIO files, or '--artist A --title T'"),
            (["--artist", "A"], "'fetch' needs both '--artist A' and '--title T'"),
            (["a.mp3", "--title", "T"], "'fetch' takes AUDIO files or '--artist'/'--title', not both"),
            (
                ["--artist", "A", "--title", "T", "--save"],
                "'--save' writes beside AUDIO files; use '-o OUT' with '--artist'"
            ),
            (["a.mp3", "--album", "X"], "'--album' goes with '--artist' and '--title'; AUDIO files give their own"),
            (["a.mp3", "b.mp3", "-o", "x.lrc"], "'--output' takes the lyrics of one song, got 2 AUDIO files"),
            (["a.mp3", "-o", "x.lrc", "--save"], "'--output' and '--save' contradict each other"),
            (
                ["a.mp3", "--lrclib-url", "ftp://x"],
                "bad value 'ftp://x' for '--lrclib-url'; expected an address such as https://lrclib.net"
            ),
            (["--artist", " ", "--title", "T"], "bad value ' ' for '--artist'; expected a name"),
            (
                ["--artist", "A", "--title", "T", "--duration", "0"],
                "bad value '0' for '--duration'; expected a number from 1 to 86400"
            ),
        ])
    func usageErrors(arguments: [String], message: String) {
        #expect(usageMessage(["fetch"] + arguments) == message)
    }

    @Test("fetch's help lists its options and the environment it reads")
    func help() throws {
        let text = UsageText.help(for: "fetch")
        for word in [
            "--artist", "--title", "--album", "--duration", "--save", "--force", "--pick", "--lrclib-url",
            "--output", "KARAOKE_HTTP_TIMEOUT", "KARAOKE_LRCLIB_URL",
        ] {
            #expect(text.contains(word), "\(word)")
        }
        #expect(UsageText.main.contains("karaoke fetch AUDIO..."))
    }
}

@Suite("play --fetch: its command line and what it shows for LRCLIB's answer")
struct PlayFetchTests {
    /// The query of the test server's songs.
    static let query = LRCLIBQuery(artist: "Test Artist", title: "song", duration: 200)

    @Test("--fetch and --lrclib-url go into the search options of play and follow")
    func commandLine() throws {
        guard
            case .play(let play) = try CommandLineParser.parse([
                "play", "a.mp3", "--fetch", "--lrclib-url", "http://h:1",
            ])
        else {
            Issue.record("not a play request")
            return
        }
        #expect(play.display.lyrics.fetch)
        #expect(play.display.lyrics.server == "http://h:1")
        guard case .follow(let follow) = try CommandLineParser.parse(["follow", "--fetch"]) else {
            Issue.record("not a follow request")
            return
        }
        #expect(follow.display.lyrics.fetch)
        #expect(follow.display.lyrics.server == nil)
        guard case .play(let quiet) = try CommandLineParser.parse(["play", "a.mp3"]) else { return }
        #expect(!quiet.display.lyrics.fetch) // nothing goes over the network unless asked
    }

    @Test(
        "--fetch is refused where it means nothing",
        arguments: [
            (["play", "song.lrc", "--fetch"], "'--fetch' goes with an audio FILE; a lyric FILE is read as it is"),
            (["render", "a.mp3", "--at", "1", "--fetch"], "unknown option '--fetch' for 'render'"),
            (["check", "a.mp3", "--fetch"], "unknown option '--fetch' for 'check'"),
        ])
    func refused(arguments: [String], message: String) {
        #expect(usageMessage(arguments) == message)
    }

    @Test("the message while looking up names the song and the server's host")
    func lookingUp() {
        #expect(
            LRCLIBAnswer.lookingUp(Self.query, server: "https://lrclib.net/")
                == "looking up Test Artist — song on lrclib.net…")
    }

    @Test("timed lyrics are shown timed, with the record's names and length, and the match named")
    func timed() throws {
        let record = LRCLIBRecord(
            id: 7, trackName: "song", artistName: "Test Artist", duration: 200,
            syncedLyrics: "[00:01.00]one\n[00:02.00]two\n")
        let answer = LRCLIBAnswer(records: [record], query: Self.query)
        guard case .timed(let song) = answer.content else {
            Issue.record("not timed: \(answer.content)")
            return
        }
        #expect(song.lines.map(\.text) == ["one", "two"])
        #expect(song.metadata.displayTitle == "song — Test Artist")
        #expect(song.duration == 200_000)
        #expect(answer.notice == "lrclib: Test Artist — song · 3:20 · synced")
    }

    @Test("the best record is taken, as fetch takes it: timed before plain")
    func best() {
        let plain = LRCLIBRecord(id: 1, trackName: "song", artistName: "Test Artist", plainLyrics: "words")
        let timed = LRCLIBRecord(
            id: 2, trackName: "song", artistName: "Test Artist", syncedLyrics: "[00:01.00]timed\n")
        guard case .timed(let song) = LRCLIBAnswer(records: [plain, timed], query: Self.query).content else {
            Issue.record("the timed record was not taken")
            return
        }
        #expect(song.lines.first?.text == "timed")
    }

    @Test(
        "plain lyrics become pages with the record's names; an instrumental, nothing or a failure a message",
        arguments: [
            (
                [LRCLIBRecord(id: 1, trackName: "song", artistName: "Test Artist", plainLyrics: "a\n\nb\u{1B}\n")],
                LyricsContent.plain(
                    PlainLyrics(metadata: SongMetadata(title: "song", artist: "Test Artist"), lines: ["a", "", "b"]))
            ),
            (
                [LRCLIBRecord(id: 1, trackName: "song", artistName: "Test Artist", instrumental: true)],
                .message("Test Artist — song is an instrumental")
            ),
            ([], .message("no lyrics for Test Artist — song")),
            (
                [LRCLIBRecord(id: 1, trackName: "song", artistName: "Test Artist", syncedLyrics: "no stamps")],
                .message("no lyrics for Test Artist — song")
            ),
        ])
    func untimedAnswers(records: [LRCLIBRecord], content: LyricsContent) {
        #expect(LRCLIBAnswer(records: records, query: Self.query).content == content)
    }

    @Test(
        "a failed lookup says so and why in the lyric area, never 'no lyrics', and leaves the status bar alone",
        arguments: [
            "cannot resolve lrclib.net (no network?): Could not resolve host: lrclib.net",
            "cannot connect to 127.0.0.1:9: Failed to connect to 127.0.0.1 port 9 after 0 ms: Couldn't connect to server",
            "lrclib.net failed (HTTP 503); try again later",
        ])
    func failure(reason: String) {
        let answer = LRCLIBAnswer(failure: reason, query: Self.query)
        #expect(answer.content == .message("could not look up Test Artist — song: \(reason)"))
        #expect(answer.notice == nil)
    }
}
