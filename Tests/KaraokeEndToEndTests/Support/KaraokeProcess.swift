import Foundation

/// Runs the built `karaoke` binary as a child process and collects what it printed.
enum KaraokeProcess {
    /// The repository's root, found from this file.
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The binary SwiftPM built next to the test bundle, or `KARAOKE_BINARY` when set (`make check-release`
    /// runs these tests against the release build, whose optimiser has shown faults the debug build hid).
    static let binary: URL = {
        if let chosen = ProcessInfo.processInfo.environment["KARAOKE_BINARY"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen)
        }
        let testExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return testExecutable.deletingLastPathComponent().appendingPathComponent("karaoke")
    }()

    /// A bundled song's path.
    static func song(_ name: String) -> String {
        repository.appendingPathComponent("lyrics").appendingPathComponent(name).path
    }

    /// What a run gave.
    struct Output {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs `karaoke ARGUMENTS` with stdin from /dev/null and pipes for output; kills it after `timeout` s.
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 30) throws -> Output {
        let raw = try runRaw(arguments, environment: environment, timeout: timeout)
        return Output(
            status: raw.status, stdout: String(decoding: raw.stdout, as: UTF8.self),
            stderr: String(decoding: raw.stderr, as: UTF8.self))
    }

    /// What a run gave, byte for byte, and how long it took.
    struct RawOutput {
        var status: Int32
        var reason: Process.TerminationReason
        var stdout: [UInt8]
        var stderr: [UInt8]
        var seconds: Double
    }

    /// Runs `executable arguments` (the karaoke binary by default) with stdin from /dev/null, keeping the
    /// output as bytes; kills it after `timeout` s.
    static func runRaw(
        _ arguments: [String], executable: String = binary.path, environment: [String: String] = [:],
        timeout: Double = 30
    ) throws -> RawOutput {
        // The user's config file and remembered offsets stay out: the run gets empty config and state folders of
        // its own (whatever it writes there, fish its config among others, goes with them); a test that wants
        // its own says so.
        try withTemporaryFolder { noSettings in
            var env = ProcessInfo.processInfo.environment
            // swift test may set NO_COLOR; only the tests that ask for it get it.
            env["NO_COLOR"] = nil
            env["XDG_CONFIG_HOME"] = noSettings.path
            env["XDG_STATE_HOME"] = noSettings.path
            for (key, value) in environment { env[key] = value }
            return try runRaw(arguments, executable: executable, fullEnvironment: env, timeout: timeout)
        }
    }

    /// Runs `executable arguments` with exactly `env`, as `runRaw(_:executable:environment:timeout:)`.
    private static func runRaw(
        _ arguments: [String], executable: String, fullEnvironment env: [String: String], timeout: Double
    ) throws -> RawOutput {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = env
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
        let start = Date()
        try process.run()
        // Read before waiting, so a large output cannot fill the pipe and stall the child.
        let group = DispatchGroup()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        group.enter()
        DispatchQueue.global().async {
            outData = out.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile(); group.leave()
        }
        let deadline = start.addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        group.wait()
        return RawOutput(
            status: process.terminationStatus, reason: process.terminationReason, stdout: [UInt8](outData),
            stderr: [UInt8](errData), seconds: Date().timeIntervalSince(start))
    }

    /// A temporary folder for files a test writes; the caller removes it (a `defer` on the next line), or uses
    /// `withTemporaryFolder`.
    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-e2e-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
