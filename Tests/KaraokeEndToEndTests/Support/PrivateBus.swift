import Foundation

/// A D-Bus session bus of the test's own (`dbus-daemon` on a socket in a temporary folder, a minimal
/// config with no service folder, so nothing is started on demand): the machine's session bus is never
/// touched.
final class PrivateBus {
    /// Whether dbus-daemon is installed.
    static let isAvailable = ChildProcess.find("dbus-daemon") != nil

    /// The folder of the config and the socket, removed by `stop`.
    let folder: URL
    /// The address to give as `DBUS_SESSION_BUS_ADDRESS`.
    let address: String
    /// The daemon's process id (not our child: it forks away); 0 once stopped.
    private var pid: pid_t

    /// Why the bus did not start.
    struct StartFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the daemon and waits for it to print its address and process id; when it cannot, nothing is
    /// left behind.
    init() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        do {
            (address, pid) = try PrivateBus.launch(in: folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        self.folder = folder
    }

    /// Writes the config into `folder`, starts the daemon on it and returns its address and process id.
    private static func launch(in folder: URL) throws -> (address: String, pid: pid_t) {
        let config = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(folder.path)/bus</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        let configPath = folder.appendingPathComponent("bus.conf").path
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw StartFailure(description: "no pipe") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        defer { close(ends[0]) }
        let launched = Result {
            try ChildProcess(
                [
                    ChildProcess.find("dbus-daemon") ?? "/usr/bin/dbus-daemon", "--config-file=\(configPath)",
                    "--print-address=1", "--print-pid=1", "--fork",
                ],
                stdout: ends[1])
        }
        close(ends[1])
        let launcher = try launched.get()
        // The daemon keeps the pipe open: read its two lines, not to the end.
        var output: [UInt8] = []
        var byte: UInt8 = 0
        while output.filter({ $0 == 0x0A }).count < 2, read(ends[0], &byte, 1) == 1 { output.append(byte) }
        // The launching parent exits once the daemon is ready; reap it.
        if !launcher.waitForExit(timeout: 5) { launcher.stop() }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n").map(String.init)
        guard lines.count == 2, let daemon = pid_t(lines[1]) else {
            throw StartFailure(description: "dbus-daemon printed \(lines)")
        }
        return (lines[0], daemon)
    }

    deinit { stop() }

    /// Stops the daemon and removes its folder; idempotent.
    func stop() {
        guard pid != 0 else { return }
        kill(pid, SIGTERM)
        for _ in 0..<100 where ChildProcess.isAlive(pid) { usleep(10_000) }
        if ChildProcess.isAlive(pid) { kill(pid, SIGKILL) }
        pid = 0
        try? FileManager.default.removeItem(at: folder)
    }
}
