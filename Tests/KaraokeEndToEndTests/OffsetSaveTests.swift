import Foundation
import Testing

/// `s` in `play` writes the offset back into the lyric file (DESIGN §13.2), driven in tmux on the real
/// binary, with the file checked byte for byte and `render` checked before and after.
@Suite("Saving the offset from play", .enabled(if: TmuxSession.isAvailable, "needs tmux"), .concurrencyLimit(2))
struct OffsetSaveTests {
    /// A short song: "two" starts at 3 s, so 0.2 s before it the saved offset makes all the difference.
    static let song =
        "[ti:Offset Test]\n[length:01:00]\n[00:01.00]one\n[00:03.00]two <00:03.50>words\n[00:30.00]three\n"

    /// A folder holding `song.lrc` (or `name`) with `text`, and its permissions `mode`.
    static func folder(_ text: String = song, name: String = "song.lrc", mode: Int = 0o640) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            let file = folder.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: file.path)
        }
    }

    /// `karaoke play FILE --no-audio ARGUMENTS` in `folder`, as another user when `asOther` (root
    /// writes anywhere, so a read-only folder needs someone else), waiting for the title.
    static func play(_ file: String, in folder: URL, _ arguments: String = "", asOther: Bool = false) throws
        -> TmuxSession
    {
        let inner = "cd '\(folder.path)' && exec '\(KaraokeProcess.binary.path)' play \(file) --no-audio \(arguments)"
        let user = asOther ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups " : ""
        let session = try TmuxSession("\(user)sh -c \"\(inner)\"", columns: 120, rows: 16)
        try session.waitFor { $0.contains { $0.contains("Offset Test") } }
        return session
    }

    /// The lyric rows of `render FILE --at SECONDS --format json` (the status row left out: it shows the
    /// offset and the clock), as JSON text.
    static func lyricRows(_ file: URL, at seconds: Double, _ extra: [String] = []) throws -> [String] {
        let output = try KaraokeProcess.run(
            ["render", file.path, "--at", "\(seconds)", "--cols", "40", "--rows", "12", "--format", "json"] + extra)
        #expect(output.status == 0, "\(output.stderr)")
        return output.stdout.components(separatedBy: "\n").filter { $0.contains("\"kind\":\"lyric\"") }
    }

    /// Waits for the status row to hold `text`.
    @discardableResult
    static func waitForStatus(_ session: TmuxSession, _ text: String) throws -> String {
        let row = session.rows - 1
        let screen = try session.waitFor { $0.count > row && $0[row].contains(text) }
        let status = screen.count > row ? screen[row] : ""
        #expect(status.contains(text), "\(status)")
        return status
    }

    @Test("+ + s writes [offset:200], keeps a .bak, and the saved file shows the lyrics 0.2 s earlier")
    func saveToTheTag() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc"), backup = folder.appendingPathComponent("song.lrc.bak")
        let before = try Self.lyricRows(file, at: 2.85)
        let session = try Self.play("song.lrc", in: folder)
        // Before any change there is nothing to save, and nothing is written.
        try session.send("s")
        try Self.waitForStatus(session, "no offset to save")
        #expect(!FileManager.default.fileExists(atPath: backup.path))
        try session.send("+", "+")
        try Self.waitForStatus(session, "offset +0.2s")
        try session.send("s")
        try Self.waitForStatus(session, "offset +0.2s saved to song.lrc (backup song.lrc.bak)")
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == Self.song.replacingOccurrences(of: "[length:01:00]\n", with: "[length:01:00]\n[offset:200]\n"))
        #expect(try String(contentsOf: backup, encoding: .utf8) == Self.song)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o640, "the file keeps its permissions")
        // The offset now lives in the file: the status bar no longer shows a user offset, and a second
        // s has nothing to write.
        let saved = try Data(contentsOf: file)
        try session.send("s")
        try Self.waitForStatus(session, "offset already saved in song.lrc; nothing written")
        #expect(try Data(contentsOf: file) == saved)
        #expect(try String(contentsOf: backup, encoding: .utf8) == Self.song, "the backup is never replaced")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        // A second play, without a key: what the old file showed with +0.2 s, and not what it showed without.
        let after = try Self.lyricRows(file, at: 2.85)
        #expect(after == (try Self.lyricRows(backup, at: 2.85, ["--offset", "200"])))
        #expect(after != before)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(leftovers == ["song.lrc", "song.lrc.bak"])
    }

    @Test("with --apply-offset, s moves every stamp and word tag instead")
    func saveIntoTheStamps() throws {
        let folder = try Self.folder(
            "[ti:Offset Test]\r\n[offset:100]\r\n[00:01.00]one\r\n[00:03.00]two <00:03.50>words\r\n[01:00.00]end\r\n")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("song.lrc"), backup = folder.appendingPathComponent("song.lrc.bak")
        let session = try Self.play("song.lrc", in: folder, "--apply-offset")
        try session.send("+", "+")
        try Self.waitForStatus(session, "offset +0.2s")
        try session.send("s")
        try Self.waitForStatus(session, "offset +0.2s saved to song.lrc (stamps moved; backup song.lrc.bak)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        // The file's own +0.1 s and the +0.2 s are both in the stamps now, and the tag is gone.
        #expect(
            try String(contentsOf: file, encoding: .utf8)
                == "[ti:Offset Test]\r\n[00:00.70]one\r\n[00:02.70]two <00:03.20>words\r\n[00:59.70]end\r\n")
        #expect(try Self.lyricRows(file, at: 2.75) == (try Self.lyricRows(backup, at: 2.75, ["--offset", "200"])))
    }

    @Test("in a folder that cannot be written, s says why and nothing is lost or left")
    func readOnlyFolder() throws {
        let other = getuid() == 0
        if other && !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") {
            print("skipped: running as root, and setpriv (util-linux) is missing to play as another user")
            return
        }
        let folder = try Self.folder(mode: 0o644)
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            try? FileManager.default.removeItem(at: folder)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        let session = try Self.play("song.lrc", in: folder, asOther: other)
        try session.send("+", "s")
        let status = try Self.waitForStatus(session, "cannot save the offset:")
        #expect(status.contains("permission denied"), "\(status)")
        // The lyrics keep playing with the offset unsaved.
        #expect(status.contains("offset +0.1s"), "\(status)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8) == Self.song)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["song.lrc"])
    }

    @Test("through a symbolic link, the file it names is rewritten and backed up, and the link stays")
    func symbolicLink() throws {
        let folder = try Self.folder(name: "real.lrc")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("song.lrc").path, withDestinationPath: "real.lrc")
        let session = try Self.play("song.lrc", in: folder)
        try session.send("-", "s")
        try Self.waitForStatus(session, "offset -0.1s saved to song.lrc (backup real.lrc.bak)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let link = folder.appendingPathComponent("song.lrc").path
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "real.lrc")
        #expect(try String(contentsOfFile: link, encoding: .utf8).contains("[offset:-100]\n"))
        #expect(try String(contentsOf: folder.appendingPathComponent("real.lrc.bak"), encoding: .utf8) == Self.song)
    }

    @Test("a file read with another --encoding is refused: an edit of its bytes could break characters")
    func otherEncodingRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Self.play("song.lrc", in: folder, "--encoding latin1")
        try session.send("+", "s")
        try Self.waitForStatus(session, "cannot save the offset: the file is not UTF-8")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("song.lrc"), encoding: .utf8) == Self.song)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["song.lrc"])
    }

    @Test("an SRT is refused with the command that makes an LRC of it")
    func subtitlesRefused() throws {
        let srt = "1\n00:00:01,000 --> 00:00:03,000\nOffset Test\n\n2\n00:00:03,000 --> 00:00:30,000\ntwo\n"
        let folder = try Self.folder(srt, name: "song.srt")
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try Self.play("song.srt", in: folder)
        try session.send("+", "s")
        try Self.waitForStatus(session, "cannot save into SRT; karaoke convert song.srt --to lrc -o song.lrc")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(try String(contentsOf: folder.appendingPathComponent("song.srt"), encoding: .utf8) == srt)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["song.srt"])
    }
}

/// `karaoke check`'s warnings about `[offset:]` (DESIGN §13.2), as the user sees them.
@Suite("check warns about offsets other players misread", .concurrencyLimit(4))
struct OffsetCheckTests {
    @Test("an offset over 10 s and a space after the colon are warnings at the tag, and --strict fails on them")
    func offsetWarnings() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("w.lrc")
        try Data("[ti:W]\n[offset: -12500]\n[00:30.00]la\n".utf8).write(to: file)
        let output = try KaraokeProcess.run(["check", file.path])
        #expect(output.status == 0)
        let warnings = output.stderr.components(separatedBy: "\n").filter { !$0.isEmpty }
        #expect(
            warnings == [
                "\(file.path):2:10: warning: offset '-12500' is over 10 s (the value is in milliseconds)",
                "\(file.path):2:9: warning: space after the colon in '[offset: -12500]', which some players misread; "
                    + "write '[offset:-12500]'",
            ])
        #expect(output.stdout.contains("2 warnings"))
        #expect(try KaraokeProcess.run(["check", "--strict", file.path]).status == 1)
    }
}
