import Foundation
import Testing

/// The config file and the remembered offsets through the real binary (DESIGN §14.4).
@Suite("Settings: the config file, karaoke config and remembered offsets", .concurrencyLimit(4))
struct SettingsTests {
    /// Writes `text` as the config file under a new folder and returns the folder (XDG_CONFIG_HOME).
    private func configHome(_ text: String) throws -> URL {
        try KaraokeProcess.temporaryFolder { folder in
            let karaoke = folder.appendingPathComponent("karaoke")
            try FileManager.default.createDirectory(at: karaoke, withIntermediateDirectories: true)
            try text.write(to: karaoke.appendingPathComponent("config"), atomically: true, encoding: .utf8)
        }
    }

    @Test("render takes the config file's settings, the command line wins, and a bad line is a warning, not a failure")
    func configApplies() throws {
        let home = try configHome("# mine\nalign = left\nfsp = 24\nformat = json\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let environment = ["XDG_CONFIG_HOME": home.path]
        let song = KaraokeProcess.song("lantern-river.lrc")
        let size = ["--at", "18.5", "--cols", "40", "--rows", "6"]
        let fromFile = try KaraokeProcess.run(["render", song] + size, environment: environment)
        #expect(fromFile.status == 0)
        #expect(fromFile.stderr == "\(home.path)/karaoke/config:3: warning: unknown key 'fsp'; did you mean 'fps'?\n")
        #expect(fromFile.stdout.hasPrefix("{"), "format = json: \(fromFile.stdout.prefix(80))")
        // The command line's --format wins; the file's align = left still holds (rows start after a 2-cell margin).
        let text = try KaraokeProcess.run(["render", song, "--format", "text"] + size, environment: environment)
        #expect(text.status == 0)
        #expect(text.stdout.split(separator: "\n").contains { $0.hasPrefix("  Every flame") }, "\(text.stdout)")
        let centred = try KaraokeProcess.run(
            ["render", song, "--format", "text", "--align", "center"] + size, environment: environment)
        #expect(!centred.stdout.split(separator: "\n").contains { $0.hasPrefix("  Every flame") }, "\(centred.stdout)")
    }

    @Test("karaoke config prints each setting with its source")
    func configListing() throws {
        let home = try configHome("fps = 24\n")
        defer { try? FileManager.default.removeItem(at: home) }
        let result = try KaraokeProcess.run(
            ["config", "--color", "never"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("fps = 24 ") && $0.hasSuffix("# \(home.path)/karaoke/config:1") })
        #expect(lines.contains { $0.hasPrefix("color = never ") && $0.hasSuffix("# command line") })
        #expect(lines.contains { $0.hasPrefix("# align = center ") && $0.hasSuffix("# default") })
    }

    @Test("an offset nudged during play is remembered for the song, and --offset still wins")
    func offsetRemembered() throws {
        guard TmuxSession.isAvailable else {
            print("skipped: tmux is not installed")
            return
        }
        let state = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: state) }
        let environment = ["XDG_STATE_HOME": state.path]
        let command = "'\(KaraokeProcess.binary.path)' play --no-audio '\(KaraokeProcess.song("lantern-river.lrc"))'"
        do {
            let session = try TmuxSession(command + " --start 30", environment: environment)
            try session.waitFor { $0[23].contains("0:3") }
            try session.send("+", "+", "+")
            try session.waitFor { $0[23].contains("offset +0.3s") }
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        let offsets = try String(contentsOf: state.appendingPathComponent("karaoke/offsets"), encoding: .utf8)
        #expect(offsets.hasSuffix(" 300\n") && offsets.split(separator: "\n").count == 1, "\(offsets)")
        do {
            let session = try TmuxSession(command + " --start 30", environment: environment)
            let screen = try session.waitFor { $0[23].contains("0:3") }
            #expect(screen[23].contains("offset +0.3s"), "\(screen[23])")
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        do {
            let session = try TmuxSession(command + " --start 30 --offset 0", environment: environment)
            let screen = try session.waitFor { $0[23].contains("0:3") }
            #expect(!screen[23].contains("offset"), "\(screen[23])")
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        // Nothing changed in those two runs, so the memory is as it was.
        #expect(try String(contentsOf: state.appendingPathComponent("karaoke/offsets"), encoding: .utf8) == offsets)
    }
}
