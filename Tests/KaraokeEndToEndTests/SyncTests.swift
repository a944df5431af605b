import Foundation
import Testing

/// `karaoke sync` in tmux with a real mpv (`ao=null`) on a generated WAV (DESIGN §13.1): taps sent as
/// keys, their audio times read from mpv's own IPC socket as a second client, the written LRC read back.
@Suite(
    "Timing lyrics with karaoke sync",
    .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable, "needs tmux and mpv"),
    .concurrencyLimit(1, first: true))
struct SyncTests {
    /// Six short lines; the last two split into syllables for word mode.
    static let text = "[ti:Tap Along]\none two\nthree\nfour\nfive\nsi|x\nse|ven\n"

    /// A folder with `song.txt` (`text`) and a 60 s `song.wav`.
    static func folder(text: String = SyncTests.text) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            try text.write(to: folder.appendingPathComponent("song.txt"), atomically: true, encoding: .utf8)
            try ToneFile.write(to: folder.appendingPathComponent("song.wav").path, seconds: 60)
        }
    }

    /// `karaoke sync FOLDER/song.txt` with mpv silent, once its screen is up (wide enough for the
    /// temporary folder's name in messages).
    static func sync(_ folder: URL, _ arguments: String = "", waitForTitle: Bool = true, columns: Int = 140) throws
        -> TmuxSession
    {
        let text = folder.appendingPathComponent("song.txt").path
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' sync '\(text)' --mpv-option ao=null \(arguments)",
            columns: columns, rows: 20)
        if waitForTitle { _ = try session.waitFor { $0.contains { $0.contains("Tap Along") } } }
        return session
    }

    /// mpv playing the folder's WAV, once it reports a playback time.
    static func mpv(_ folder: URL) throws -> MpvConnection {
        let probe = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let connection = try probe.connect()
        #expect(poll { try connection.property("playback-time") is Double }, "mpv has the file open")
        return connection
    }

    /// Listens to mpv for `wait` seconds, then sends `key` and returns the audio times between which the
    /// key went: mpv's position is fresh at the moment it announces a change (as the audio tests read it),
    /// so the last announcement plus the monotonic time since gives the audio's time at the key.
    static func tap(
        _ key: String, after wait: Double, speed: Double = 1, session: TmuxSession, mpv: MpvConnection
    ) throws -> ClosedRange<Double> {
        let last = try #require(try mpv.observe("time-pos", for: wait).last)
        let before = MpvConnection.monotonic()
        try session.send(key)
        let after = MpvConnection.monotonic()
        return (last.value + (before - last.time) * speed)...(last.value + (after - last.time) * speed)
    }

    /// Every `[mm:ss.xx]` and `<mm:ss.xx>` stamp in `text`, in seconds, in order.
    static func stamps(in text: String, angle: Bool = false) -> [Double] {
        let open: Character = angle ? "<" : "["
        let close: Character = angle ? ">" : "]"
        var found: [Double] = []
        var rest = Substring(text)
        while let start = rest.firstIndex(of: open), let end = rest[start...].firstIndex(of: close) {
            let inside = rest[rest.index(after: start)..<end]
            let parts = inside.split(separator: ":")
            if parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) {
                found.append(minutes * 60 + seconds)
            }
            rest = rest[rest.index(after: end)...]
        }
        return found
    }

    /// Saves with `s`, waits for the notice, quits with `q` and expects exit 0.
    static func saveAndQuit(_ session: TmuxSession) throws {
        try session.send("s")
        // Required, with the screen: a save that never came would otherwise show only as a missing file later.
        let saved = try session.waitFor { $0.contains { $0.contains("saved /") } }
        try #require(saved.contains { $0.contains("saved /") }, "\(saved.joined(separator: "\n"))")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("each line's stamp is within 60 ms of the audio time of its tap (mpv's time read around the key)", .runsAlone)
    func tapsLandOnTheAudioTime() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder)
        let mpv = try SyncTests.mpv(folder)
        var taps: [ClosedRange<Double>] = []
        // Scripted moments: uneven gaps, as singing has.
        for gap in [0.8, 0.6, 1.1, 0.5, 0.9, 0.7] {
            taps.append(try SyncTests.tap("Space", after: gap, session: session, mpv: mpv))
        }
        _ = try session.waitFor { $0.contains { $0.contains("6/6 lines") } }
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        #expect(lrc.hasPrefix("[ti:Tap Along]\n"))
        let stamps = SyncTests.stamps(in: lrc)
        try #require(stamps.count == 6, "\(lrc)")
        for (stamp, tap) in zip(stamps, taps) {
            #expect(
                stamp >= tap.lowerBound - 0.06 && stamp <= tap.upperBound + 0.06, "stamp \(stamp) for a tap in \(tap)")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("song.lrc.autosave").path))
    }

    @Test("word mode writes a word tag for each word and syllable, in order, and a closing tag on Enter")
    func wordModeWritesWordTags() throws {
        let folder = try SyncTests.folder(text: "[ti:Tap Along]\none two\nka|ra\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder, "--words")
        _ = try SyncTests.mpv(folder)
        for key in ["Space", "Space", "Enter", "Space", "Space", "Enter"] {
            usleep(300_000)
            try session.send(key)
        }
        _ = try session.waitFor { $0.contains { $0.contains("2/2 lines") } }
        usleep(200_000)
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        let lines = lrc.split(separator: "\n").filter { $0.contains("<") }
        try #require(lines.count == 2, "\(lrc)")
        #expect(lines[0].contains(">one <") && lines[0].contains(">two<"), "\(lrc)")
        #expect(lines[1].contains(">ka<") && lines[1].contains(">ra<"), "\(lrc)")
        let words = SyncTests.stamps(in: lrc, angle: true)
        #expect(words.count == 6, "\(lrc)")
        #expect(zip(words, words.dropFirst()).allSatisfy { $0 < $1 }, "word tags in order: \(words)")
    }

    @Test("[ and ] set mpv's speed in steps, pitch kept by mpv, and stamps stay on the audio's time")
    func speedChanges() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder)
        let mpv = try SyncTests.mpv(folder)
        try session.send("[")
        try session.send("[")
        #expect(poll { try mpv.property("speed") as? Double == 0.8 }, "two steps down: 0.8×")
        #expect(try session.waitFor { $0.contains { $0.contains("0.8×") } }.contains { $0.contains("0.8×") })
        try session.send("]")
        #expect(poll { try mpv.property("speed") as? Double == 0.9 }, "one step up: 0.9×")
        let tap = try SyncTests.tap("Space", after: 1.5, speed: 0.9, session: session, mpv: mpv)
        _ = try session.waitFor { $0.contains { $0.contains("1/6 lines") } }
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        let stamp = try #require(SyncTests.stamps(in: lrc).first)
        #expect(stamp >= tap.lowerBound - 0.06 && stamp <= tap.upperBound + 0.06, "stamp \(stamp) for \(tap)")
    }

    @Test("Backspace removes the last stamp and seeks 2 s before it; . moves the selected line 50 ms later")
    func backspaceAndNudge() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder)
        let mpv = try SyncTests.mpv(folder)
        _ = try SyncTests.tap("Space", after: 1, session: session, mpv: mpv)
        let removed = try SyncTests.tap("Space", after: 2.5, session: session, mpv: mpv)
        try session.send("BSpace")
        let removing = try session.waitFor { $0.contains { $0.contains("removed the stamp") } }
        #expect(removing.contains { $0.contains("removed the stamp") }, "\(removing.joined(separator: "\n"))")
        let back = try #require(try mpv.property("playback-time") as? Double)
        #expect(abs(back - (removed.lowerBound - 2)) < 0.5, "mpv went back to \(back) from \(removed)")
        let retap = try SyncTests.tap("Space", after: 1.5, session: session, mpv: mpv)
        try session.send(".")
        try session.send(".")
        let nudged = try session.waitFor { $0.contains { $0.contains("line 2 at") } }
        #expect(nudged.contains { $0.contains("line 2 at") }, "\(nudged.joined(separator: "\n"))")
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        let stamps = SyncTests.stamps(in: lrc)
        try #require(stamps.count == 2, "\(lrc)")
        #expect(stamps[1] >= retap.lowerBound + 0.1 - 0.06 && stamps[1] <= retap.upperBound + 0.1 + 0.06, "\(lrc)")
    }

    @Test("the autosave survives kill -9, and a new run asks and goes on from it")
    func autosaveSurvivesAndResumes() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let autosave = folder.appendingPathComponent("song.lrc.autosave").path
        do {
            let session = try SyncTests.sync(folder)
            _ = try SyncTests.mpv(folder)
            usleep(500_000)
            try session.send("Space")
            usleep(500_000)
            try session.send("Space")
            // The first autosave comes 10 s after the start.
            let deadline = Date().addingTimeInterval(15)
            while !FileManager.default.fileExists(atPath: autosave) && Date() < deadline { usleep(100_000) }
            try #require(FileManager.default.fileExists(atPath: autosave))
            let pid = try #require(try session.commandPID())
            kill(pid, SIGKILL)
            _ = try session.exitStatus()
        }
        let saved = try String(contentsOfFile: autosave, encoding: .utf8)
        #expect(SyncTests.stamps(in: saved).count == 2, "\(saved)")
        let session = try SyncTests.sync(folder, waitForTitle: false)
        _ = try session.waitFor { $0.contains { $0.contains("go on from them?") } }
        try session.send("y", "Enter")
        _ = try session.waitFor { $0.contains { $0.contains("2/6 lines") } }
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        #expect(SyncTests.stamps(in: lrc) == SyncTests.stamps(in: saved))
        #expect(!FileManager.default.fileExists(atPath: autosave), "a save removes the autosave")
    }

    @Test("a resumed session starts the audio 2 s before the last stamp, with that line selected")
    func resumeStartsBeforeTheLastStamp() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[ti:Tap Along]\n[00:20.00]one two\n[00:25.00]three\n".write(
            to: folder.appendingPathComponent("song.lrc.autosave"), atomically: true, encoding: .utf8)
        let session = try SyncTests.sync(folder, "--resume")
        let mpv = try SyncTests.mpv(folder)
        let position = try #require(try mpv.property("playback-time") as? Double)
        #expect(position >= 22.9 && position < 24.5, "mpv started at \(position) s, not at 0")
        let screen = try session.waitFor { $0.contains { $0.contains("▸ three ◂") } }
        #expect(screen.contains { $0.contains("▸ three ◂") }, "the last line stamped is selected")
        #expect(screen.contains { $0.contains("2/6 lines") })
        try session.send("q")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a closed terminal (SIGHUP) keeps the work in the autosave and exits 129")
    func hangupAutosaves() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder)
        _ = try SyncTests.mpv(folder)
        try session.send("Space")
        _ = try session.waitFor { $0.contains { $0.contains("1/6 lines") } }
        let pid = try #require(try session.commandPID())
        kill(pid, SIGHUP)
        #expect(try session.exitStatus() == 129)
        let saved = try String(
            contentsOf: folder.appendingPathComponent("song.lrc.autosave"), encoding: .utf8)
        #expect(SyncTests.stamps(in: saved).count == 1)
    }

    @Test("an existing OUT is refused without --force, and a missing folder, before anything starts")
    func existingOutputRefused() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = folder.appendingPathComponent("song.lrc")
        try "[00:01.00]kept\n".write(to: existing, atomically: true, encoding: .utf8)
        let refused = try SyncTests.sync(folder, waitForTitle: false)
        #expect(try refused.exitStatus() == 1)
        #expect(try refused.screen().contains { $0.contains("song.lrc exists; --force replaces it") })
        #expect(try String(contentsOf: existing, encoding: .utf8) == "[00:01.00]kept\n")
        let nowhere = try SyncTests.sync(folder, "-o /nonexistent-karaoke/x.lrc", waitForTitle: false)
        #expect(try nowhere.exitStatus() == 1)
        #expect(try nowhere.screen().contains { $0.contains("no such folder") })
        let forced = try SyncTests.sync(folder, "--force")
        try forced.send("Space")
        _ = try forced.waitFor { $0.contains { $0.contains("1/6 lines") } }
        try SyncTests.saveAndQuit(forced)
        #expect(try String(contentsOf: existing, encoding: .utf8).contains("one two"))
    }

    @Test("a folder that cannot be written is refused before anything starts, and nothing is left in it")
    func readOnlyFolderRefused() throws {
        // Root writes anywhere: as root, the refusal is checked as user nobody (util-linux's setpriv).
        let asOther = getuid() == 0
        if asOther && !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            print("skipped: running as root, and setpriv (util-linux) is missing to run sync as another user")
            return
        }
        let folder = try SyncTests.folder()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? FileManager.default.removeItem(at: folder)
        }
        for name in ["song.txt", "song.wav"] {
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o644], ofItemAtPath: folder.appendingPathComponent(name).path)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let text = folder.appendingPathComponent("song.txt").path
        let user = asOther ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let session = try TmuxSession(
            "\(user)'\(KaraokeProcess.binary.path)' sync '\(text)' --mpv-option ao=null", columns: 140, rows: 20)
        #expect(try session.exitStatus() == 1)
        let screen = try session.screen()
        #expect(screen.contains { $0.contains("cannot write") }, "\(screen)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(left == ["song.txt", "song.wav"])
    }

    @Test(
        "--calibrate plays 16 clicks through mpv; taps 100 ms after each suggest a latency near how late they came",
        .runsAlone)
    func calibrationSuggestsTheLatency() throws {
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' sync --calibrate --mpv-option ao=null", columns: 100, rows: 24)
        _ = try session.waitFor { $0.contains { $0.contains("Calibration") } }
        // The clicks' file has a name of its own; mpv makes its socket a moment after it starts.
        var probe: MpvProbe?
        #expect(
            poll {
                probe = MpvProbe.all(mentioning: "karaoke-clicks-").first {
                    FileManager.default.fileExists(atPath: $0.socketPath)
                }
                return probe != nil
            })
        let mpv = try #require(probe).connect()
        // One fresh report of mpv's position anchors the schedule; mpv plays in real time from there.
        let anchor = try #require(try mpv.observe("time-pos", for: 0.5).last)
        // Each tap goes through a tmux client started for it, which a loaded machine delays by tens of
        // milliseconds: the key reaches karaoke between the send's start and its end. The latency karaoke
        // should find is the median lateness of those midpoints behind the clicks, about 100 ms when idle.
        var lateness: [Double] = []
        for click in 0..<16 {
            let click = anchor.time + (2.0 + Double(click) * 0.75 - anchor.value)
            let wait = click + 0.1 - MpvConnection.monotonic()
            if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
            let sent = MpvConnection.monotonic()
            try session.send("Space")
            lateness.append(((sent + MpvConnection.monotonic()) / 2 - click) * 1000)
        }
        let expected = Int(lateness.sorted()[lateness.count / 2].rounded())
        let status = try session.exitStatus()
        let screen = try session.screen()
        #expect(status == 0, "taps late by \(lateness.map { Int($0) }): \(screen.joined(separator: "\n"))")
        let line = try #require(screen.first { $0.hasPrefix("use: karaoke sync FILE --latency ") })
        let latency = try #require(Int(line.split(separator: " ").last ?? ""))
        #expect(
            abs(latency - expected) <= 60, "taps \(expected) ms late: \(screen.joined(separator: "\n"))")
    }

    @Test("an audio file named with --audio that cannot be opened is refused before anything starts")
    func namedAudioMissing() throws {
        let folder = try SyncTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try SyncTests.sync(folder, "--audio '\(folder.path)/missing.wav'", waitForTitle: false)
        #expect(try session.exitStatus() == 1)
        let screen = try session.screen().joined()
        #expect(screen.contains("karaoke: \(folder.path)/missing.wav: no such file"), "\(screen)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("song.lrc").path))
    }

    @Test("missing audio: sync runs on a silent clock with a notice, and still saves")
    func missingAudioRunsSilently() throws {
        let folder = try SyncTests.folder(text: "[ti:Tap Along]\nbad\u{1B}[31m red\nsecond\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("song.wav"))
        let session = try SyncTests.sync(folder)
        // The notice names the long temporary path first; its end may be cut at 140 columns.
        let screen = try session.waitFor { $0.contains { $0.contains("no audio beside") } }
        #expect(screen.contains { $0.contains("no audio beside \(folder.path)/song.txt") }, "\(screen)")
        try session.send("Space")
        _ = try session.waitFor { $0.contains { $0.contains("1/2 lines") } }
        try SyncTests.saveAndQuit(session)
        let lrc = try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8)
        #expect(!lrc.unicodeScalars.contains { $0.value == 0x1B }, "control characters are removed: \(lrc)")
        #expect(lrc.contains("bad"))
    }
}
