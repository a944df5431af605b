import Testing
@testable import KaraokeCore

/// The bytes of MPD's text protocol as karaoke reads and writes them (DESIGN §12.3).
@Suite("MPD's protocol")
struct MPDProtocolTests {
    /// The fields of `text`, one `key: value` a line.
    static func fields(_ text: String) -> [MPDField] {
        text.split(separator: "\n").compactMap { MPDProtocol.field(from: Array($0.utf8)) }
    }

    /// A `status` answer as MPD 0.23 writes it while playing.
    static let playingStatus = """
        repeat: 0
        random: 0
        state: play
        song: 0
        songid: 7
        time: 1:25
        elapsed: 12.547
        bitrate: 91
        duration: 25.000
        audio: 44100:16:1
        """

    // MARK: Greeting

    @Test(
        "the greeting gives MPD's version; any other first line is not MPD",
        arguments: [
            ("OK MPD 0.23.5", "0.23.5"), // what Debian 12's mpd says
            ("OK MPD 0.24.0", "0.24.0"),
            ("OK MPD ", nil), // no version
            ("OK MPD 0.23.5 extra", nil),
            ("SSH-2.0-OpenSSH_9.2", nil), // another server on the port
            ("HTTP/1.1 400 Bad Request", nil),
            ("", nil),
        ] as [(String, String?)])
    func greeting(line: String, version: String?) {
        #expect(MPDProtocol.version(fromGreeting: Array(line.utf8)) == version)
    }

    @Test("a reader refuses a server that does not greet as MPD, quoting what it said")
    func readerRefusesAnotherServer() throws {
        var reader = MPDResponseReader()
        reader.append(Array("SSH-2.0-OpenSSH_9.2\u{1B}[31m\r\n".utf8))
        #expect(throws: MPDProtocolError.notMPD("SSH-2.0-OpenSSH_9.2<U+001B>[31m<U+000D>")) { try reader.greeting() }
    }

    // MARK: Responses

    @Test("a response is its fields up to OK, however the bytes are cut")
    func responsesAcrossReads() throws {
        let bytes = Array("OK MPD 0.23.5\nstate: play\nelapsed: 1.5\nOK\nfile: a.flac\nOK\n".utf8)
        for cut in 1..<bytes.count {
            var reader = MPDResponseReader()
            var greeting: String?
            var responses: [MPDResponse] = []
            for chunk in [bytes[..<cut], bytes[cut...]] {
                reader.append(chunk)
                if greeting == nil { greeting = try reader.greeting() }
                if greeting != nil { while let response = try reader.nextResponse() { responses.append(response) } }
            }
            #expect(greeting == "0.23.5")
            #expect(
                responses == [
                    .ok([MPDField(key: "state", value: "play"), MPDField(key: "elapsed", value: "1.5")]),
                    .ok([MPDField(key: "file", value: "a.flac")]),
                ])
            #expect(reader.isEmpty)
        }
    }

    @Test("an incomplete response is nothing yet")
    func incompleteResponse() throws {
        var reader = MPDResponseReader()
        reader.append(Array("state: play\nelapsed: 1".utf8))
        #expect(try reader.nextResponse() == nil)
        reader.append(Array(".5\nOK\n".utf8))
        #expect(
            try reader.nextResponse()
                == .ok([MPDField(key: "state", value: "play"), MPDField(key: "elapsed", value: "1.5")]))
    }

    @Test(
        "an ACK line is a refusal with MPD's code, command and words",
        arguments: [
            (
                "ACK [4@0] {config} Command only permitted to local clients",
                MPDRefusal(code: 4, index: 0, command: "config", message: "Command only permitted to local clients")
            ),
            (
                #"ACK [5@0] {} unknown command "foo""#,
                MPDRefusal(code: 5, index: 0, command: "", message: #"unknown command "foo""#)
            ),
            ("ACK [2@3] {seekcur} Bad time", MPDRefusal(code: 2, index: 3, command: "seekcur", message: "Bad time")),
            ("ACK something odd", MPDRefusal(code: 0, index: 0, command: "", message: "something odd")),
        ])
    func refusals(line: String, refusal: MPDRefusal) throws {
        var reader = MPDResponseReader()
        reader.append(Array("volume: 5\n\(line)\n".utf8))
        #expect(try reader.nextResponse() == .refused(refusal))
    }

    @Test(
        "a refusal reads as a sentence, with control characters shown, never sent to the terminal",
        arguments: [
            (MPDRefusal(code: 2, index: 0, command: "seekcur", message: "Bad time"), "MPD refused 'seekcur': Bad time"),
            (MPDRefusal(code: 5, index: 0, command: "", message: "unknown"), "MPD refused a command: unknown"),
            (MPDRefusal(code: 2, index: 0, command: "x", message: "a\u{1B}[2J"), "MPD refused 'x': a<U+001B>[2J"),
        ])
    func refusalText(refusal: MPDRefusal, text: String) {
        #expect(refusal.text == text)
    }

    @Test("a line without ': ' is skipped, and a value keeps its own colons")
    func oddLines() throws {
        var reader = MPDResponseReader()
        reader.append(Array("garbage\ntime: 1:25\nTitle: A: B\nkey:novalue\n: empty key\nOK\n".utf8))
        #expect(
            try reader.nextResponse()
                == .ok([MPDField(key: "time", value: "1:25"), MPDField(key: "Title", value: "A: B")]))
    }

    @Test("a line longer than the limit is an error, whether its end has come or not")
    func lineLimit() {
        var reader = MPDResponseReader()
        reader.append([UInt8](repeating: 0x41, count: MPDResponseReader.lineLimit + 1))
        #expect(throws: MPDProtocolError.lineTooLong) { try reader.nextResponse() }
        var ended = MPDResponseReader()
        ended.append([UInt8](repeating: 0x41, count: MPDResponseReader.lineLimit + 1) + [0x0A])
        #expect(throws: MPDProtocolError.lineTooLong) { try ended.nextResponse() }
    }

    @Test("a line just within the limit is read")
    func lineWithinLimit() throws {
        var reader = MPDResponseReader()
        let value = String(repeating: "a", count: MPDResponseReader.lineLimit - 7)
        reader.append(Array("Title: \(value)\nOK\n".utf8))
        #expect(try reader.nextResponse() == .ok([MPDField(key: "Title", value: value)]))
    }

    @Test("an endless response of short lines is cut off at the response limit")
    func responseLimit() {
        var reader = MPDResponseReader()
        let line = Array("Artist: somebody somewhere\n".utf8)
        var thrown: MPDProtocolError?
        // Far more than the limit, fed as a server would stream it; the reader must stop on its own.
        for _ in 0..<(2 * MPDResponseReader.responseLimit / line.count) {
            reader.append(line)
            do {
                _ = try reader.nextResponse()
            } catch {
                thrown = error
                break
            }
        }
        #expect(thrown == .responseTooLarge)
    }

    @Test("the response limit counts one response: many small answers in a row are fine")
    func responseLimitIsPerResponse() throws {
        var reader = MPDResponseReader()
        let answer = Array((String(repeating: "Artist: somebody somewhere\n", count: 1000) + "OK\n").utf8)
        var count = 0
        for _ in 0..<100 {
            reader.append(answer)
            while try reader.nextResponse() != nil { count += 1 }
        }
        #expect(count == 100)
    }

    // MARK: status

    @Test("status while playing gives state, elapsed, duration and song id")
    func statusPlaying() throws {
        let status = try #require(MPDStatus(fields: Self.fields(Self.playingStatus)))
        #expect(status == MPDStatus(playback: .playing, elapsed: 12.547, duration: 25, songID: "7"))
    }

    @Test(
        "status states map to playing, paused and stopped; anything else is not a status",
        arguments: [
            ("state: play", FollowedPlayback?.some(.playing)), ("state: pause", .paused), ("state: stop", .stopped),
            ("state: dancing", nil), ("volume: 50", nil),
        ])
    func statusStates(text: String, playback: FollowedPlayback?) {
        #expect(MPDStatus(fields: Self.fields(text))?.playback == playback)
    }

    @Test("an older MPD's 'time: E:D' stands in for elapsed and duration")
    func statusOldTime() throws {
        let status = try #require(MPDStatus(fields: Self.fields("state: pause\ntime: 42:180")))
        #expect(status.elapsed == 42)
        #expect(status.duration == 180)
    }

    @Test(
        "numbers that are not seconds are ignored",
        arguments: ["elapsed: -3", "elapsed: nan", "elapsed: inf", "elapsed: 1e400", "elapsed: x", "elapsed: "])
    func statusBadNumbers(line: String) throws {
        let status = try #require(MPDStatus(fields: Self.fields("state: play\n\(line)")))
        #expect(status.elapsed == nil)
    }

    @Test("a report carries the position while there is one, and fills a missing length from status")
    func statusReport() {
        let track = FollowedTrack(id: "7", title: "Song")
        let playing = MPDStatus(playback: .playing, elapsed: 3, duration: 25, songID: "7").report(track: track)
        #expect(playing.player == "mpd")
        #expect(playing.position == 3)
        #expect(playing.rate == 1)
        #expect(playing.track?.length == 25)
        let stopped = MPDStatus(playback: .stopped, elapsed: 3).report(track: nil)
        #expect(stopped.position == nil)
        #expect(stopped.track == nil)
    }

    // MARK: currentsong and config

    @Test("currentsong gives the track, its file under the music folder when karaoke knows the folder")
    func currentSong() throws {
        let fields = Self.fields(
            """
            file: Band/Song 1.flac
            Last-Modified: 2026-11-30T20:37:29Z
            Title: Song 1
            Artist: Band
            Album: Alb
            Time: 25
            duration: 25.125
            Pos: 0
            Id: 1
            """)
        let known = try #require(MPDProtocol.track(fromCurrentSong: fields, musicDirectory: "/srv/music"))
        #expect(
            known
                == FollowedTrack(
                    id: "1", title: "Song 1", artist: "Band", album: "Alb", length: 25.125,
                    file: "/srv/music/Band/Song 1.flac"))
        let unknown = try #require(MPDProtocol.track(fromCurrentSong: fields, musicDirectory: nil))
        #expect(unknown.file == nil)
        #expect(unknown.location == "Band/Song 1.flac")
    }

    @Test(
        "where the file is: under the folder, absolute as it stands, a URL as a location",
        arguments: [
            ("a.flac", "/m", "/m/a.flac", nil),
            ("a.flac", "/", "/a.flac", nil), // a music folder at the root
            ("/home/me/a.flac", "/m", "/home/me/a.flac", nil),
            ("http://radio.example/stream", "/m", nil, "http://radio.example/stream"),
            ("nfs://server/music/a.flac", nil, nil, "nfs://server/music/a.flac"),
            ("odd:name.flac", "/m", "/m/odd:name.flac", nil), // a colon is not a URL
        ] as [(String, String?, String?, String?)])
    func fileLocations(name: String, folder: String?, file: String?, location: String?) throws {
        let track = try #require(
            MPDProtocol.track(fromCurrentSong: [MPDField(key: "file", value: name)], musicDirectory: folder))
        #expect(track.file == file)
        #expect(track.location == location)
        #expect(track.id == name) // no Id: the file tells one track from the next
    }

    @Test("a relative file with no music folder is marked, and 'no lyrics' then names the folder's option and key")
    func unknownMusicFolder() throws {
        let relative = try #require(
            MPDProtocol.track(
                fromCurrentSong: [MPDField(key: "file", value: "lantern-river.opus")], musicDirectory: nil))
        #expect(relative.isInUnknownMusicFolder)
        #expect(
            FollowLoop.noLyrics(for: relative)
                == "no lyrics for lantern-river.opus: MPD names its files relative to its music folder, which "
                + "karaoke does not know; give the folder with --music-dir DIR (or music-dir = DIR in the config file)")
        // The hint names an option and a config key that exist.
        #expect(CommandLineOption.all.contains { $0.name == "--music-dir" })
        #expect(ConfigFile.keys.contains("music-dir"))
        for (name, folder) in [
            ("lantern-river.opus", "/m"), ("/srv/a.flac", nil), ("http://radio.example/stream", nil),
        ] as [(String, String?)] {
            let track = try #require(
                MPDProtocol.track(fromCurrentSong: [MPDField(key: "file", value: name)], musicDirectory: folder))
            #expect(!track.isInUnknownMusicFolder, "\(name)")
            #expect(FollowLoop.noLyrics(for: track) == "no lyrics for \(FollowLoop.name(of: track))")
        }
    }

    @Test("several Artist lines are joined; the older Time stands in for duration")
    func currentSongArtistsAndTime() throws {
        let fields = Self.fields("file: a.ogg\nArtist: Ann\nArtist: Bob\nTime: 200\nId: 3")
        let track = try #require(MPDProtocol.track(fromCurrentSong: fields, musicDirectory: nil))
        #expect(track.artist == "Ann, Bob")
        #expect(track.length == 200)
        #expect(track.title == nil)
    }

    @Test("an empty currentsong answer is no track")
    func noCurrentSong() {
        #expect(MPDProtocol.track(fromCurrentSong: [], musicDirectory: "/m") == nil)
    }

    @Test(
        "config gives the music folder without a trailing slash",
        arguments: [
            ("music_directory: /srv/music", "/srv/music"), ("music_directory: /srv/music//", "/srv/music"),
            ("music_directory: /", "/"), ("music_directory: ", nil), ("playlist_directory: /p", nil),
        ] as [(String, String?)])
    func config(text: String, folder: String?) {
        #expect(
            MPDProtocol.musicDirectory(fromConfig: [MPDProtocol.field(from: Array(text.utf8))].compactMap { $0 })
                == folder)
    }

    // MARK: Commands

    @Test(
        "arguments are quoted, with quotes and backslashes escaped",
        arguments: [
            ("status", [], "status\n"),
            ("password", ["secret"], "password \"secret\"\n"),
            ("password", [#"a"b\c"#], #"password "a\"b\\c""# + "\n"),
            ("find", ["Artist", "Ann & Bob"], "find \"Artist\" \"Ann & Bob\"\n"),
            ("password", [""], "password \"\"\n"),
        ] as [(String, [String], String)])
    func commandQuoting(name: String, arguments: [String], line: String) {
        #expect(MPDProtocol.command(name, arguments) == line)
    }

    @Test("an argument with a line feed or a NUL cannot be sent", arguments: ["a\nidle", "a\u{0}b"])
    func commandRejectsLineBreaks(argument: String) {
        #expect(MPDProtocol.command("password", [argument]) == nil)
    }

    @Test(
        "karaoke's commands become MPD's: pause by the known state, seekcur relative or absolute, next, previous",
        arguments: [
            (PlayerCommand.playPause, FollowedPlayback.playing, "pause \"1\"\n"),
            (.playPause, .paused, "pause \"0\"\n"),
            (.playPause, .stopped, "play\n"),
            (.jump(by: 10), .playing, "seekcur \"+10.000\"\n"),
            (.jump(by: -5.5), .playing, "seekcur \"-5.500\"\n"),
            (.seek(to: 30), .paused, "seekcur \"30.000\"\n"),
            (.seek(to: -1), .paused, "seekcur \"0.000\"\n"),
            (.next, .playing, "next\n"),
            (.previous, .stopped, "previous\n"),
        ])
    func playerCommands(command: PlayerCommand, playback: FollowedPlayback, line: String) {
        #expect(MPDProtocol.line(for: command, playback: playback) == line)
    }

    // MARK: Addresses

    @Test(
        "the option wins over MPD_HOST and MPD_PORT, which win over localhost:6600",
        arguments: [
            (nil, nil, nil, nil, MPDAddress(endpoint: .network(host: "localhost", port: 6600))),
            (nil, nil, "music.lan", nil, MPDAddress(endpoint: .network(host: "music.lan", port: 6600))),
            (nil, nil, "music.lan", "6601", MPDAddress(endpoint: .network(host: "music.lan", port: 6601))),
            ("box", nil, "music.lan", "6601", MPDAddress(endpoint: .network(host: "box", port: 6601))),
            ("box", 7000, "music.lan", "6601", MPDAddress(endpoint: .network(host: "box", port: 7000))),
            (nil, 7000, "music.lan", nil, MPDAddress(endpoint: .network(host: "music.lan", port: 7000))),
            (nil, nil, "", "", MPDAddress(endpoint: .network(host: "localhost", port: 6600))), // set but empty
            (
                nil, nil, "secret@127.0.0.1", nil,
                MPDAddress(endpoint: .network(host: "127.0.0.1", port: 6600), password: "secret")
            ),
            (
                nil, nil, "secret@", nil,
                MPDAddress(endpoint: .network(host: "localhost", port: 6600), password: "secret")
            ),
            (
                "pw@box", nil, "other@music.lan", nil,
                MPDAddress(endpoint: .network(host: "box", port: 6600), password: "pw")
            ),
            (nil, nil, "/run/mpd/socket", nil, MPDAddress(endpoint: .socket(path: "/run/mpd/socket"))),
            (
                nil, nil, "pw@/run/mpd/socket", nil,
                MPDAddress(endpoint: .socket(path: "/run/mpd/socket"), password: "pw")
            ),
            (nil, nil, "@mpd", nil, MPDAddress(endpoint: .abstractSocket(name: "mpd"))),
            (nil, nil, "pw@@mpd", nil, MPDAddress(endpoint: .abstractSocket(name: "mpd"), password: "pw")),
            ("[::1]", 6600, nil, nil, MPDAddress(endpoint: .network(host: "::1", port: 6600))),
            (nil, nil, "::1", nil, MPDAddress(endpoint: .network(host: "::1", port: 6600))),
        ] as [(String?, Int?, String?, String?, MPDAddress)])
    func addresses(host: String?, port: Int?, environmentHost: String?, environmentPort: String?, address: MPDAddress) {
        let resolved = MPDAddress.resolve(
            host: host, port: port, environmentHost: environmentHost, environmentPort: environmentPort)
        #expect(resolved == .success(address))
    }

    @Test(
        "a bad MPD_PORT or a nameless abstract socket is an error naming it",
        arguments: [
            (nil, "66000", MPDAddressError.badPort("66000")), (nil, "0", .badPort("0")),
            (nil, "http", .badPort("http")),
            (nil, "-1", .badPort("-1")), ("@", nil, .emptySocketName), ("pw\nidle@host", nil, .badPassword),
            ("pw\r@host", nil, .badPassword),
        ] as [(String?, String?, MPDAddressError)])
    func badAddresses(environmentHost: String?, environmentPort: String?, error: MPDAddressError) {
        let resolved = MPDAddress.resolve(
            host: nil, port: nil, environmentHost: environmentHost, environmentPort: environmentPort)
        #expect(resolved == .failure(error))
    }

    @Test("the option's port makes a bad MPD_PORT irrelevant")
    func optionPortOverridesBadEnvironment() {
        let resolved = MPDAddress.resolve(host: nil, port: 6700, environmentHost: nil, environmentPort: "junk")
        #expect(resolved == .success(MPDAddress(endpoint: .network(host: "localhost", port: 6700))))
    }

    @Test(
        "an address reads as where MPD is, never with its password",
        arguments: [
            (MPDAddress(endpoint: .network(host: "localhost", port: 6600), password: "pw"), "localhost:6600"),
            (MPDAddress(endpoint: .network(host: "::1", port: 6601)), "[::1]:6601"),
            (MPDAddress(endpoint: .socket(path: "/run/mpd/socket"), password: "pw"), "/run/mpd/socket"),
            (MPDAddress(endpoint: .abstractSocket(name: "mpd")), "@mpd"),
        ])
    func addressDescription(address: MPDAddress, text: String) {
        #expect(address.description == text)
        #expect(address.isLocalSocket == (text.first == "/" || text.first == "@"))
    }
}
