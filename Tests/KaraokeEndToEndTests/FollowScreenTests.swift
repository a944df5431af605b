import Foundation
import Testing

/// Timed lyrics for a track, written beside it so `follow` finds them as `play` would (a sidecar).
private func writeLyrics(beside audio: String, lines: [String]) throws {
    let base = (audio as NSString).deletingPathExtension
    var text = ""
    for (index, line) in lines.enumerated() { text += String(format: "[00:%02d.00]%@\n", 1 + index * 3, line) }
    try text.write(toFile: base + ".lrc", atomically: true, encoding: .utf8)
}

/// The status row (the screen's last non-empty row before the wrapper's lines).
private func statusRow(_ screen: [String], rows: Int) -> String { screen.count >= rows ? screen[rows - 1] : "" }

/// `karaoke follow`'s screen in tmux against a real MPD of the test's own (DESIGN §12).
@Suite(
    "The follow screen with MPD",
    .enabled(if: MPDServer.isAvailable && TmuxSession.isAvailable, "needs mpd, mpc, ffmpeg and tmux"),
    .concurrencyLimit(2, runLimit: .seconds(300)))
struct FollowScreenMPDTests {
    static let rows = 16

    static func session(_ server: MPDServer, _ more: String = "", environment: [String: String] = [:]) throws
        -> TmuxSession
    {
        try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player \(server.player) --music-dir '\(server.musicFolder.path)' \(more)",
            columns: 72, rows: rows, environment: environment)
    }

    @Test("the playing track's lyrics appear, a pause from outside shows, and the keys reach MPD")
    func lyricsPauseAndKeys() throws {
        let server = try MPDServer()
        defer { server.stop() }
        try writeLyrics(beside: server.trackPath(0), lines: ["Lanterns drift along the water", "Every light a wish"])
        let tmux = try Self.session(server)
        var screen = try tmux.waitFor { $0.contains { $0.contains("Lanterns drift along the water") } }
        #expect(screen.contains { $0.contains("Lanterns drift along the water") }, "\(screen)")
        #expect(statusRow(screen, rows: Self.rows).contains("mpd: The Karaoke Band — Lantern River"), "\(screen)")
        #expect(statusRow(screen, rows: Self.rows).hasPrefix("▶"), "\(screen)")

        _ = try server.mpc(["pause"])
        screen = try tmux.waitFor(timeout: 5) { statusRow($0, rows: Self.rows).hasPrefix("⏸") }
        #expect(statusRow(screen, rows: Self.rows).hasPrefix("⏸"), "\(screen)")

        // space plays again, through MPD.
        try tmux.send("Space")
        #expect(try MPDTests.eventually(server) { $0.state == "playing" })
        screen = try tmux.waitFor(timeout: 5) { statusRow($0, rows: Self.rows).hasPrefix("▶") }
        #expect(statusRow(screen, rows: Self.rows).hasPrefix("▶"), "\(screen)")

        // n is MPD's next track; there are no lyrics for it, and the screen says so.
        try tmux.send("n")
        #expect(try MPDTests.eventually(server) { $0.title.contains("Paper Boats") })
        screen = try tmux.waitFor(timeout: 5) {
            $0.contains { $0.contains("no lyrics for The Karaoke Band — Paper Boats") }
        }
        #expect(screen.contains { $0.contains("no lyrics for The Karaoke Band — Paper Boats") }, "\(screen)")

        // q quits karaoke and leaves MPD playing.
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
        #expect(try server.state().state == "playing")
    }

    @Test("→ seeks MPD forward and the status clock follows")
    func seekKey() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let tmux = try Self.session(server)
        try tmux.waitFor { statusRow($0, rows: Self.rows).contains("Lantern River") }
        let before = try server.state().elapsed
        try tmux.send("Right")
        #expect(try MPDTests.eventually(server) { $0.elapsed >= before + 4 })
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("with MPD gone the screen waits for it, and takes it up again when it is back")
    func mpdGoneAndBack() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let tmux = try Self.session(server)
        try tmux.waitFor { statusRow($0, rows: Self.rows).contains("Lantern River") }
        server.stop()
        var screen = try tmux.waitFor(timeout: 5) { $0.contains { $0.contains("waiting for MPD") } }
        #expect(screen.contains { $0.contains("waiting for MPD") }, "\(screen)")
        try server.start()
        _ = try server.mpc(["play"])
        screen = try tmux.waitFor(timeout: 10) { statusRow($0, rows: Self.rows).contains("mpd: ") }
        #expect(statusRow(screen, rows: Self.rows).contains("mpd: "), "\(screen)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("with --fetch and LRCLIB refusing connections, the screen says the lookup failed, not 'no lyrics'")
    func fetchRefused() throws {
        let server = try MPDServer()
        defer { server.stop() }
        let refusing = try MPDServer.freePort()
        let home = server.folder.path
        let tmux = try Self.session(
            server, "--fetch --lrclib-url http://127.0.0.1:\(refusing)",
            environment: ["HOME": home, "XDG_CACHE_HOME": home + "/cache", "no_proxy": "*", "NO_PROXY": "*"])
        let screen = try tmux.waitFor { $0.contains { $0.contains("could not look up") } }
        let area = screen.dropFirst().prefix(Self.rows - 2).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        #expect(
            area.contains(
                "could not look up The Karaoke Band — Lantern River: cannot connect to 127.0.0.1:\(refusing): "),
            "\(screen)")
        #expect(!screen.contains { $0.contains("no lyrics for") }, "\(screen)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test(
        "over TCP without --music-dir the lyrics beside MPD's file cannot be found, and the screen says how to fix it")
    func withoutMusicFolder() throws {
        let server = try MPDServer()
        defer { server.stop() }
        try writeLyrics(beside: server.trackPath(0), lines: ["Lanterns drift along the water"])
        let home = server.folder.path
        let tmux = try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player \(server.player)", columns: 72, rows: Self.rows,
            environment: ["HOME": home, "XDG_DATA_HOME": home + "/data", "XDG_CACHE_HOME": home + "/cache"])
        let screen = try tmux.waitFor { $0.contains { $0.contains("--music-dir DIR") } }
        let area = screen.dropFirst().prefix(Self.rows - 2).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        #expect(
            area.contains(
                "no lyrics for The Karaoke Band — Lantern River: MPD names its files relative to its music folder, "
                    + "which karaoke does not know; give the folder with --music-dir DIR (or music-dir = DIR in the "
                    + "config file)"), "\(screen)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("with no player at all the screen says it waits, and q still quits")
    func noPlayer() throws {
        let port = try MPDServer.freePort()
        let tmux = try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player mpd:127.0.0.1:\(port)", columns: 72, rows: Self.rows)
        let screen = try tmux.waitFor(timeout: 5) {
            $0.contains { $0.contains("waiting for MPD at 127.0.0.1:\(port)") }
        }
        #expect(screen.contains { $0.contains("waiting for MPD at 127.0.0.1:\(port)") }, "\(screen)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }
}

/// `karaoke follow`'s screen in tmux against mpv with mpv-mpris on a private bus (DESIGN §12).
@Suite(
    "The follow screen with mpv over MPRIS",
    .enabled(if: MprisMpv.isAvailable && TmuxSession.isAvailable, "needs \(MprisMpv.missing ?? "tmux")"),
    .concurrencyLimit(2, runLimit: .seconds(300)))
struct FollowScreenMPRISTests {
    static let rows = 16

    @Test("mpv's track shows its lyrics; a pause from outside, n and the player quitting are followed")
    func followsMpv() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tracks = try MprisMpv.writeTracks(in: folder)
        try writeLyrics(beside: tracks[0], lines: ["Hello from the first song", "Second line of it"])
        let mpv = try MprisMpv(playing: tracks, on: bus)
        defer { mpv.stop() }
        let tmux = try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player mpris:mpv", columns: 72, rows: Self.rows,
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        // mpv-mpris may name the track by its file before its tags are read (seen under ThreadSanitizer), so
        // the tags' title is waited for too.
        var screen = try tmux.waitFor {
            $0.contains { $0.contains("Hello from the first song") }
                && statusRow($0, rows: Self.rows).contains("The Testers — First Song")
        }
        #expect(screen.contains { $0.contains("Hello from the first song") }, "\(screen)")
        #expect(statusRow(screen, rows: Self.rows).contains("The Testers — First Song"), "\(screen)")

        _ = mpv.playerctl(["pause"])
        screen = try tmux.waitFor(timeout: 5) { statusRow($0, rows: Self.rows).hasPrefix("⏸") }
        #expect(statusRow(screen, rows: Self.rows).hasPrefix("⏸"), "\(screen)")

        try tmux.send("n")
        #expect(mpv.waitUntil { $0.title() == MprisMpv.titles[1] })
        screen = try tmux.waitFor(timeout: 5) { $0.contains { $0.contains("no lyrics for The Testers — Second Song") } }
        #expect(screen.contains { $0.contains("no lyrics for The Testers — Second Song") }, "\(screen)")

        mpv.stop()
        screen = try tmux.waitFor(timeout: 5) { $0.contains { $0.contains("waiting for a player…") } }
        #expect(screen.contains { $0.contains("waiting for a player…") }, "\(screen)")
        try tmux.send("q")
        #expect(try tmux.exitStatus() == 0)
    }

    @Test("with --fetch a track without local lyrics is looked up on LRCLIB; without it nothing is asked")
    func fetchesFromLRCLIB() throws {
        try #require(LRCLIBServer.isAvailable, "needs python3 for the LRCLIB test server")
        let bus = try PrivateBus()
        defer { bus.stop() }
        let server = try LRCLIBServer()
        defer { server.stop() }
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The test server has timed lyrics for the title "found".
        let track = folder.appendingPathComponent("found.flac").path
        let made = try KaraokeProcess.runRaw(
            [
                "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=30", "-metadata", "title=found",
                "-metadata", "artist=The Testers", track,
            ],
            executable: ChildProcess.find("ffmpeg") ?? "/usr/bin/ffmpeg", timeout: 30)
        try #require(made.status == 0)
        let mpv = try MprisMpv(playing: [track], on: bus)
        defer { mpv.stop() }
        let environment = [
            "DBUS_SESSION_BUS_ADDRESS": bus.address, "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            "XDG_DATA_HOME": folder.appendingPathComponent("data").path, "HOME": folder.path,
        ]
        let without = try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player mpris:mpv --lrclib-url \(server.url)", columns: 72,
            rows: Self.rows, environment: environment)
        var screen = try without.waitFor(timeout: 5) {
            $0.contains { $0.contains("no lyrics for The Testers — found") }
        }
        #expect(screen.contains { $0.contains("no lyrics for The Testers — found") }, "\(screen)")
        try without.send("q")
        #expect(try without.exitStatus() == 0)
        let cached =
            (try? FileManager.default.contentsOfDirectory(
                atPath: folder.appendingPathComponent("cache/karaoke/lrclib").path)) ?? []
        #expect(cached.isEmpty, "nothing may be asked without --fetch: \(cached)")

        let with = try TmuxSession(
            "\(KaraokeProcess.binary.path) follow --player mpris:mpv --fetch --lrclib-url \(server.url)", columns: 72,
            rows: Self.rows, environment: environment)
        screen = try with.waitFor(timeout: 10) { $0.contains { $0.contains("first line of the found song") } }
        #expect(screen.contains { $0.contains("first line of the found song") }, "\(screen)")
        try with.send("q")
        #expect(try with.exitStatus() == 0)
    }
}
