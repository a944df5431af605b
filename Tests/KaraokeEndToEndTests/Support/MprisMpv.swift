import Foundation

/// mpv with the MPRIS plugin (Debian's mpv-mpris) on a private bus, playing generated tracks with no sound
/// device (`--ao=null`), and `playerctl` to look at it from outside, as a user's other tools would.
final class MprisMpv {
    /// The plugin mpv-mpris installs; loaded by name so that no user or system mpv config plays a part.
    static let plugin = "/usr/lib/mpv-mpris/mpris.so"

    /// What the MPRIS tests need that is missing here, or nil when nothing is.
    static let missing: String? = {
        let needed = ["dbus-daemon", "mpv", "playerctl", "ffmpeg"].filter { ChildProcess.find($0) == nil }
        let plugin = FileManager.default.fileExists(atPath: MprisMpv.plugin) ? [] : ["mpv-mpris"]
        let all = needed + plugin
        return all.isEmpty ? nil : all.joined(separator: ", ")
    }()

    /// Whether every part the MPRIS tests need is installed.
    static let isAvailable = missing == nil

    private let process: ChildProcess
    private let bus: PrivateBus

    /// Starts mpv on `files` (paused or not) on `bus` and waits (up to 20 s) for its name on the bus.
    init(playing files: [String], on bus: PrivateBus, paused: Bool = false) throws {
        self.bus = bus
        process = try ChildProcess(
            [
                ChildProcess.find("mpv") ?? "/usr/bin/mpv", "--no-config", "--load-scripts=no",
                "--script=\(MprisMpv.plugin)",
                "--ao=null", "--no-video", "--idle=no", "--no-terminal", "--pause=\(paused ? "yes" : "no")", "--",
            ]
                + files,
            environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address])
        // 20 s: with eight end-to-end tests at once, mpv and its plugin can take over 10 s to reach the bus.
        let deadline = Date().addingTimeInterval(20)
        while status() == nil {
            guard Date() < deadline, !process.hasExited else {
                let exited = process.hasExited
                process.stop()
                throw PrivateBus.StartFailure(
                    description: "mpv did not appear on the bus " + (exited ? "(it exited)" : "within 20 s"))
            }
            usleep(50_000)
        }
    }

    deinit { stop() }

    /// Quits mpv (SIGTERM, as a user closing it would); idempotent.
    func stop() { process.stop() }

    /// `playerctl -p mpv ARGUMENTS` on the private bus: its output, trimmed; nil when it failed.
    @discardableResult
    func playerctl(_ arguments: [String]) -> String? {
        guard
            let output = try? KaraokeProcess.runRaw(
                ["-p", "mpv"] + arguments, executable: ChildProcess.find("playerctl") ?? "/usr/bin/playerctl",
                environment: ["DBUS_SESSION_BUS_ADDRESS": bus.address], timeout: 5),
            output.status == 0
        else { return nil }
        return String(decoding: output.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `Playing`, `Paused` or `Stopped`, as mpv tells playerctl; nil when mpv is not on the bus.
    func status() -> String? { playerctl(["status"]) }

    /// mpv's position in seconds, as it tells playerctl.
    func position() -> Double? { playerctl(["position"]).flatMap(Double.init) }

    /// The title mpv gives for its track.
    func title() -> String? { playerctl(["metadata", "xesam:title"]) }

    /// Waits up to `timeout` seconds for `condition` to hold of mpv; whether it did.
    func waitUntil(timeout: Double = 5, _ condition: (MprisMpv) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition(self) {
            if Date() > deadline { return false }
            usleep(50_000)
        }
        return true
    }

    /// The titles of the tracks `writeTracks` makes, in order.
    static let titles = ["First Song", "Second Song"]
    /// Their artist.
    static let artist = "The Testers"

    /// Writes two 30 s FLAC files of a quiet sine tone into `folder`, tagged with `titles` and `artist`;
    /// their paths.
    static func writeTracks(in folder: URL) throws -> [String] {
        try titles.enumerated().map { index, title in
            let path = folder.appendingPathComponent("track \(index + 1).flac").path
            let output = try KaraokeProcess.runRaw(
                [
                    "-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=\(440 + 220 * index):duration=30",
                    "-metadata", "title=\(title)", "-metadata", "artist=\(artist)", path,
                ],
                executable: ChildProcess.find("ffmpeg") ?? "/usr/bin/ffmpeg", timeout: 30)
            guard output.status == 0 else {
                throw PrivateBus.StartFailure(description: "ffmpeg: \(String(decoding: output.stderr, as: UTF8.self))")
            }
            return path
        }
    }
}
