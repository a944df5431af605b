import Testing
@testable import KaraokeCore

@Suite("Reading an MPRIS player's metadata")
struct MPRISMetadataTests {
    @Test("every field MPRIS defines lands in the track")
    func everyField() throws {
        let track = try #require(
            MPRISMetadata.track(from: [
                "mpris:trackid": .string("/org/mpv/Track/3"),
                "xesam:title": .string("Lantern River"),
                "xesam:artist": .array([.string("Ann"), .string("Bo")]),
                "xesam:album": .string("Rivers"),
                "mpris:length": .integer(183_500_000),
                "xesam:url": .string("file:///music/Lantern%20River.flac"),
            ]))
        #expect(
            track
                == FollowedTrack(
                    id: "/org/mpv/Track/3", title: "Lantern River", artist: "Ann, Bo", album: "Rivers", length: 183.5,
                    file: "/music/Lantern River.flac"))
    }

    @Test(
        "the length is read whatever integer or real type the player sends it as",
        arguments: [
            MPRISValue.integer(90_000_000), // x, as the specification says
            .unsigned(90_000_000), // t, as some players send it
            .double(90_000_000), // d, as a few others do
        ])
    func lengthTypes(value: MPRISValue) {
        #expect(MPRISMetadata.track(from: ["xesam:title": .string("T"), "mpris:length": value])?.length == 90)
    }

    @Test(
        "a length that is not a positive number is no length",
        arguments: [MPRISValue.integer(0), .integer(-5), .string("90"), .double(.nan)])
    func badLength(value: MPRISValue) {
        #expect(MPRISMetadata.track(from: ["xesam:title": .string("T"), "mpris:length": value])?.length == nil)
    }

    @Test("an artist sent as a plain string is read as one artist")
    func artistAsString() {
        #expect(
            MPRISMetadata.track(from: ["xesam:title": .string("T"), "xesam:artist": .string("Ann")])?.artist == "Ann")
    }

    @Test(
        "metadata without a track is no track",
        arguments: [
            [:],
            ["mpris:trackid": MPRISValue.string(MPRISMetadata.noTrackID)],
            ["mpris:trackid": .string(""), "xesam:title": .string("")],
            ["mpris:trackid": .string("/noplaylist")], // mpv-mpris before its first file
            ["mpris:trackid": .string("/3"), "mpris:length": .integer(5_000_000)], // nothing to know it by
        ] as [[String: MPRISValue]])
    func noTrack(metadata: [String: MPRISValue]) {
        #expect(MPRISMetadata.track(from: metadata) == nil)
    }

    @Test("a track without an id is known by its URL, else by its title and artist")
    func idFallback() {
        #expect(MPRISMetadata.track(from: ["xesam:url": .string("http://radio/x")])?.id == "http://radio/x")
        let byTitle = MPRISMetadata.track(from: ["xesam:title": .string("A"), "xesam:artist": .string("B")])?.id
        let otherTitle = MPRISMetadata.track(from: ["xesam:title": .string("C"), "xesam:artist": .string("B")])?.id
        #expect(byTitle != nil && byTitle != otherTitle)
    }

    @Test(
        "a file URL becomes a path, anything else stays a location",
        arguments: [
            ("file:///a/b.flac", "/a/b.flac", nil),
            ("file://localhost/a/b.flac", "/a/b.flac", nil), // the local host named
            ("FILE:///a/%C3%A9t%C3%A9.mp3", "/a/été.mp3", nil), // scheme in capitals, UTF-8 escapes
            ("file:///a/b%2fc.mp3?x=1", "/a/b/c.mp3", nil), // the query is not part of the path
            ("file://server/a.mp3", nil, "file://server/a.mp3"), // another machine's file
            ("file:///a/%zz.mp3", nil, "file:///a/%zz.mp3"), // a broken escape
            ("file:///a/%00.mp3", nil, "file:///a/%00.mp3"), // an escaped NUL
            ("https://example.com/stream", nil, "https://example.com/stream"),
        ] as [(String, String?, String?)])
    func urls(url: String, file: String?, location: String?) throws {
        let track = try #require(
            MPRISMetadata.track(from: ["mpris:trackid": .string("/t"), "xesam:url": .string(url)]))
        #expect(track.file == file)
        #expect(track.location == location)
    }
}

@Suite("Choosing the MPRIS player to follow")
struct MPRISBusNameTests {
    @Test(
        "a player's name matches its bus name with or without an instance suffix",
        arguments: [
            ("org.mpris.MediaPlayer2.mpv", "mpv", true),
            ("org.mpris.MediaPlayer2.vlc.instance4242", "vlc", true),
            ("org.mpris.MediaPlayer2.vlc.instance4242", "vlc.instance4242", true), // the full name
            ("org.mpris.MediaPlayer2.mpvx", "mpv", false), // another player whose name starts alike
            ("org.mpris.MediaPlayer2.vlc.other", "vlc", false),
            ("org.freedesktop.mpv", "mpv", false), // not an MPRIS name at all
        ])
    func matching(busName: String, wanted: String, matches: Bool) {
        #expect(MPRISBusName.matches(busName, wanted: wanted) == matches)
    }

    @Test("without a name the first playing player is taken, else the first")
    func anyPlayer() {
        let paused = MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.a", isPlaying: false)
        let playing = MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.b", isPlaying: true)
        #expect(MPRISBusName.choose(among: [paused, playing], wanted: nil) == playing.busName)
        #expect(MPRISBusName.choose(among: [paused], wanted: nil) == paused.busName)
        #expect(MPRISBusName.choose(among: [], wanted: nil) == nil)
    }

    @Test("with a name only that player is taken, never another that plays")
    func namedPlayer() {
        let candidates = [
            MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.vlc", isPlaying: true),
            MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.mpv.instance7", isPlaying: false),
        ]
        #expect(MPRISBusName.choose(among: candidates, wanted: "mpv") == "org.mpris.MediaPlayer2.mpv.instance7")
        #expect(MPRISBusName.choose(among: candidates, wanted: "spotify") == nil)
    }

    @Test(
        "a player that starts playing takes over only from a followed one that does not play",
        arguments: [
            (true, false, nil, true), // another plays, the followed one is paused: switch
            (true, true, nil, false), // both play: stay
            (false, false, nil, false), // neither plays: stay
            (true, false, "vlc", false), // the one playing is not the player asked for
            (true, false, "mpv", true), // another instance of the player asked for
        ] as [(Bool, Bool, String?, Bool)])
    func takingOver(otherPlays: Bool, followedPlays: Bool, wanted: String?, switches: Bool) {
        let other = MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.mpv.instance9", isPlaying: otherPlays)
        let followed = MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.mpv", isPlaying: followedPlays)
        #expect(MPRISBusName.prefers(other, over: followed, wanted: wanted) == switches)
        #expect(!MPRISBusName.prefers(followed, over: followed, wanted: wanted)) // never itself
    }

    @Test("names that are not MPRIS players' are never chosen")
    func notPlayers() {
        let candidates = [
            MPRISBusName.Candidate(busName: "org.freedesktop.DBus", isPlaying: true),
            MPRISBusName.Candidate(busName: "org.mpris.MediaPlayer2.", isPlaying: true),
        ]
        #expect(MPRISBusName.choose(among: candidates, wanted: nil) == nil)
    }
}

@Suite("Following an MPRIS player's state")
struct MPRISPlayerStateTests {
    /// A state after a `GetAll` of a playing player at time 100, position 10 s.
    private func playing() -> MPRISPlayerState {
        var state = MPRISPlayerState(name: "mpv")
        state.apply(
            [
                "PlaybackStatus": .string("Playing"), "Rate": .double(1),
                "Position": .integer(10_000_000),
                "Metadata": .dictionary(["mpris:trackid": .string("/0"), "xesam:title": .string("Song")]),
            ], at: 100)
        return state
    }

    @Test("GetAll's properties make a whole report, its position stamped with the time it was read")
    func report() {
        let message = playing().report(now: 103)
        #expect(
            message
                == .report(
                    PlayerReport(
                        player: "mpv", track: FollowedTrack(id: "/0", title: "Song"), playback: .playing,
                        position: 10, rate: 1), at: 100))
    }

    @Test("a change leaves the properties it does not name as they were")
    func partialChange() {
        var state = playing()
        state.apply(["PlaybackStatus": .string("Paused")], at: 101)
        #expect(state.playback == .paused)
        #expect(state.track?.title == "Song")
        #expect(state.position == .init(seconds: 10, at: 100))
    }

    @Test(
        "unknown statuses and impossible rates are ignored",
        arguments: [
            ["PlaybackStatus": MPRISValue.string("Buffering")], ["Rate": .double(0)], ["Rate": .double(-1)],
            ["Rate": .string("2")],
        ] as [[String: MPRISValue]])
    func ignored(properties: [String: MPRISValue]) {
        var state = playing()
        state.apply(properties, at: 101)
        #expect(state.playback == .playing)
        #expect(state.rate == 1)
    }

    @Test("the position is read twice a second while playing, and never while paused or stopped")
    func positionPolling() {
        var state = playing()
        #expect(state.nextPositionRead() == 100.5)
        state.readPosition(microseconds: 10_600_000, at: 100.6)
        #expect(state.nextPositionRead() == 101.1)
        for status in ["Paused", "Stopped"] {
            state.apply(["PlaybackStatus": .string(status)], at: 101)
            #expect(state.nextPositionRead() == nil)
        }
    }

    @Test("a player whose position was never read is asked at once when it plays")
    func firstRead() throws {
        var state = MPRISPlayerState(name: "x")
        state.apply(["PlaybackStatus": .string("Playing")], at: 5)
        let next = try #require(state.nextPositionRead())
        #expect(next <= 5)
    }

    @Test("the position is extrapolated at the rate while playing, and held while paused")
    func estimate() {
        var state = playing()
        state.apply(["Rate": .double(1.5)], at: 100)
        #expect(state.estimatedPosition(at: 102) == 13)
        state.apply(["PlaybackStatus": .string("Paused")], at: 102)
        #expect(state.estimatedPosition(at: 200) == 10)
    }

    @Test(
        "each command becomes its MPRIS call",
        arguments: [
            (PlayerCommand.playPause, MPRISCall.playPause),
            (.next, .next),
            (.previous, .previous),
            (.jump(by: 5), .seek(microseconds: 5_000_000)),
            (.jump(by: -2.5), .seek(microseconds: -2_500_000)),
            (.seek(to: 30), .setPosition(track: "/0", microseconds: 30_000_000)),
        ])
    func calls(command: PlayerCommand, call: MPRISCall) {
        #expect(playing().call(for: command, at: 101) == .success(call))
    }

    @Test("without a track id an absolute seek is a relative one from the estimated position")
    func seekWithoutTrackID() {
        var state = playing()
        state.apply(["Metadata": .dictionary(["xesam:title": .string("Song")])], at: 100)
        #expect(state.call(for: .seek(to: 30), at: 102) == .success(.seek(microseconds: 18_000_000)))
        var unknown = MPRISPlayerState(name: "x")
        unknown.apply(["Metadata": .dictionary(["xesam:title": .string("Song")])], at: 100)
        #expect(unknown.call(for: .seek(to: 30), at: 102) == .failure(.noPosition))
    }

    @Test("a track id that is not an object path is not used for SetPosition")
    func stringTrackID() {
        var state = playing()
        state.apply(
            ["Metadata": .dictionary(["mpris:trackid": .string("spotify:track:4uLU6h"), "xesam:title": .string("S")])],
            at: 100)
        #expect(state.track?.id == "spotify:track:4uLU6h")
        #expect(state.call(for: .seek(to: 30), at: 102) == .success(.seek(microseconds: 18_000_000)))
    }

    @Test(
        "object paths are told from other track ids as D-Bus defines them",
        arguments: [
            ("/", true), ("/0", true), ("/org/mpv/Track/3", true), ("/a_b/C9", true),
            ("", false), ("0", false), ("/a/", false), ("//a", false), ("/a//b", false), ("/a-b", false),
            ("/é", false), ("spotify:track:1", false),
        ])
    func objectPaths(text: String, isPath: Bool) {
        #expect(MPRISMetadata.isObjectPath(text) == isPath)
    }

    @Test(
        "PlaybackStatus strings are read as MPRIS spells them",
        arguments: [
            ("Playing", FollowedPlayback.playing), ("Paused", .paused), ("Stopped", .stopped), ("playing", nil),
        ] as [(String, FollowedPlayback?)])
    func statuses(text: String, playback: FollowedPlayback?) {
        #expect(FollowedPlayback(mprisStatus: text) == playback)
    }
}

@Suite("The session bus, and --player auto")
struct SessionBusTests {
    @Test(
        "without DBUS_SESSION_BUS_ADDRESS there is no bus, and the message names the variable",
        arguments: [nil, ""] as [String?])
    func noAddress(value: String?) {
        #expect(SessionBusAddress.resolve(value) == .failure(.notSet))
        #expect(SessionBusProblem.notSet.text == "no D-Bus session bus: DBUS_SESSION_BUS_ADDRESS is not set")
    }

    @Test(
        "an address is taken as it is; a bus that cannot be reached gives libdbus's reason, control characters dropped")
    func address() {
        #expect(SessionBusAddress.resolve("unix:path=/run/user/1000/bus") == .success("unix:path=/run/user/1000/bus"))
        #expect(
            SessionBusProblem.unreachable("Failed to connect to socket /x: No such file\u{1B}[2J").text
                == "cannot reach the D-Bus session bus: Failed to connect to socket /x: No such file[2J")
    }

    @Test(
        "auto: a playing MPRIS player, else MPD that answers, else MPRIS on a bus that is there, else MPD",
        arguments: [
            (true, true, true, PlayerChoice.mpris(name: nil)), // something plays: MPD is not even asked
            (false, true, true, .mpd(host: nil, port: nil)), // MPD answers
            (false, true, false, .mpris(name: nil)), // a bus to wait on
            (false, false, false, .mpd(host: nil, port: nil)), // no bus: MPD, waited for
        ])
    func automatic(mprisPlays: Bool, busReachable: Bool, mpdAnswers: Bool, choice: PlayerChoice) {
        var asked = false
        let chosen = PlayerChoice.automatic(mprisPlays: mprisPlays, busReachable: busReachable) {
            asked = true
            return mpdAnswers
        }
        #expect(chosen == choice)
        #expect(asked == !mprisPlays)
    }
}
