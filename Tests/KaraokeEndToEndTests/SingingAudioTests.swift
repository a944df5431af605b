import Foundation
import Testing

/// Vocals, key and tempo through a real mpv (`ao=null`), read back over mpv's own IPC (DESIGN §14.1).
@Suite(
    "Audio for singers through mpv",
    .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable, "needs tmux and mpv"),
    .concurrencyLimit(1))
struct SingingAudioTests {
    /// `karaoke play` on the song in `folder` with mpv silent, once its title shows.
    func play(_ folder: URL, _ arguments: String = "") throws -> TmuxSession {
        try AudioTests.play(folder, arguments)
    }

    /// The filters in mpv's `af` list, as (name, parameters).
    func filters(_ mpv: MpvConnection) throws -> [(name: String, params: [String: String])] {
        let list = try mpv.property("af") as? [[String: Any]] ?? []
        return list.map { ($0["name"] as? String ?? "", $0["params"] as? [String: String] ?? [:]) }
    }

    @Test(
        "after v, < and ], mpv's af holds the centre-cancelling pan and rubberband a semitone down, and speed is 1.05")
    func keysSetFiltersAndSpeed() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder)
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("playback-time") is Double }, "mpv has the file open")
        #expect(try filters(mpv).isEmpty, "no filter until a singer asks for one")
        try session.send("v")
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi"] })
        #expect(try filters(mpv).first?.params["graph"] == "pan=mono|c0=c0-c1")
        try session.send("<")
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi", "rubberband"] })
        let scale = try #require(Double(try filters(mpv).last?.params["pitch-scale"] ?? ""))
        #expect(abs(scale - 0.943874) < 1e-6, "a semitone down")
        try session.send("]")
        #expect(poll { try mpv.property("speed") as? Double == 1.05 })
        let screen = try session.waitFor { $0.contains { $0.contains("key −1  tempo 1.05×  vocals ↓") } }
        #expect(screen.contains { $0.contains("key −1  tempo 1.05×  vocals ↓") }, "the status bar says so")
        try session.send("v")
        #expect(poll { try filters(mpv).map(\.name) == ["rubberband"] }, "v again brings the vocals back")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("--vocals, --key and --tempo start mpv with them")
    func flagsStartMpvWithThem() throws {
        let folder = try AudioTests.songFolder(audioSeconds: 60)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--vocals reduced --key 2 --tempo 0.85")
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let mpv = try probe.connect()
        #expect(poll { try mpv.property("speed") as? Double == 0.85 })
        #expect(poll { try filters(mpv).map(\.name) == ["lavfi", "rubberband"] })
        let scale = try #require(Double(try filters(mpv).last?.params["pitch-scale"] ?? ""))
        #expect(abs(scale - 1.122462) < 1e-6, "two semitones up")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("at half tempo the song ends when the audio ends: 3 s of audio take about 6 s")
    func endsWithTheAudioAtTheTempo() throws {
        let short = "[ti:Tone Poem]\n[00:00.50]One note\n[00:01.00]and done\n"
        let folder = try AudioTests.songFolder(audioSeconds: 3, lyrics: short)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = Date()
        let session = try play(folder, "--tempo 0.5")
        #expect(try session.exitStatus(timeout: 20) == 0)
        let took = Date().timeIntervalSince(started)
        // Generous on the late side (a loaded machine); the point is that it is not the 3 s of 1×.
        #expect(took > 5.3 && took < 15, "ended after \(took) s")
    }

    @Test(
        "the lyric clock stays within 50 ms of mpv's position at 0.75× and 1.25×", .runsAlone,
        arguments: ["0.75", "1.25"])
    func clockFollowsAtTempo(tempo: String) throws {
        let gaps = try AudioTests.clockGaps("--tempo \(tempo)")
        #expect(gaps.count >= 20, "enough samples: \(gaps.count)")
        let worst = gaps.max() ?? .infinity
        #expect(worst < 0.05, "worst gap \(worst) s over \(gaps.count) samples")
    }

    /// Polls `condition` for up to 5 s.
    func poll(_ condition: () throws -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if (try? condition()) == true { return true }
            usleep(50_000)
        }
        return false
    }
}
