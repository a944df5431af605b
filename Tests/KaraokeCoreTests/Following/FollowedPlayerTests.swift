import Testing
@testable import KaraokeCore

@Suite struct FollowedPlayerTests {
    @Test(arguments: [
        ("auto", PlayerChoice.automatic), ("mpris", .mpris(name: nil)), ("mpris:vlc", .mpris(name: "vlc")),
        ("mpd", .mpd(host: nil, port: nil)), ("mpd:music.local", .mpd(host: "music.local", port: nil)),
        ("mpd:10.0.0.2:6601", .mpd(host: "10.0.0.2", port: 6601)),
        ("mpd:/run/mpd/socket", .mpd(host: "/run/mpd/socket", port: nil)),
    ])
    func playerChoicesAreRead(text: String, choice: PlayerChoice) {
        #expect(PlayerChoice(parsing: text) == choice)
    }

    @Test(arguments: [
        "", "spotify", "auto:x", "mpris:", "mpd:", "mpd:host:0", "mpd:host:70000", "mpd::6600", "mpd:h:p",
    ])
    func badPlayerChoicesAreRefused(text: String) {
        #expect(PlayerChoice(parsing: text) == nil)
    }

    @Test(arguments: [
        ("play-pause", PlayerCommand.playPause), ("next", .next), ("previous", .previous),
        ("seek +5", .jump(by: 5)), ("seek -2.5", .jump(by: -2.5)), ("seek 30", .seek(to: 30)),
        ("  seek\t10\r", .seek(to: 10)),
    ])
    func printModeCommandsAreRead(line: String, command: PlayerCommand) {
        #expect(PlayerCommand(parsing: line) == command)
    }

    @Test(arguments: ["", "pause", "seek", "seek x", "seek 1 2", "next please", "seek nan", "seek 1e9", "seek +-1"])
    func unknownCommandsAreRefused(line: String) {
        #expect(PlayerCommand(parsing: line) == nil)
    }

    @Test func aReportIsOneLineOfJSONWithEveryField() throws {
        let track = FollowedTrack(
            id: "7", title: "Say \"hi\"", artist: "A\\B", album: nil, length: 61.5, file: "/m/a.flac", location: nil)
        let line = FollowMessage.report(
            PlayerReport(player: "mpd", track: track, playback: .paused, position: 3.25, rate: 1), at: 12
        ).jsonLine()
        #expect(!line.contains("\n"))
        let value = try JSONValue.parse(Array(line.utf8))
        #expect(value["event"]?.string == "report")
        #expect(value["state"]?.string == "paused")
        #expect(value["position"]?.number == 3.25)
        #expect(value["track"]?["title"]?.string == "Say \"hi\"")
        #expect(value["track"]?["artist"]?.string == "A\\B")
        #expect(value["track"]?["album"] == .null)
        #expect(value["track"]?["length"]?.number == 61.5)
    }

    @Test func goneAndNoticeAreJSONLinesToo() throws {
        let gone = try JSONValue.parse(Array(FollowMessage.gone("waiting for a player…").jsonLine().utf8))
        #expect(gone["event"]?.string == "gone")
        #expect(gone["reason"]?.string == "waiting for a player…")
        let notice = try JSONValue.parse(Array(FollowMessage.notice("no such track").jsonLine().utf8))
        #expect(notice["text"]?.string == "no such track")
    }
}
