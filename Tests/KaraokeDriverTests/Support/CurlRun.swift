import Foundation
import Testing

/// One run of the `curl` command, as a real HTTP client a guest's phone stands in for.
struct CurlRun {
    /// Where curl is, when it is installed.
    static let path = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// curl's exit status: 0 when it got a response.
    var exitStatus: Int32
    /// The final response's status code (0 without one).
    var status: Int
    /// The final response's header lines, without the status line.
    var headers: [String]
    /// The final response's body.
    var body: [UInt8]

    /// The value of the header `name` (any case), or nil.
    func header(_ name: String) -> String? {
        for line in headers {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// The body as a JSON object, or nil when it is not one.
    var json: [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any]
    }

    /// Runs curl with `arguments` after `url`, sending `input` on its standard input; waits for it to end.
    static func run(_ url: String, _ arguments: [String] = [], input: [UInt8] = []) throws -> CurlRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path))
        // -i: the headers in the output, ahead of the body; no proxy, whatever the environment says.
        process.arguments = ["-sS", "-i", "--max-time", "10", "--noproxy", "*"] + arguments + [url]
        let output = Pipe()
        let stdin = Pipe()
        process.standardOutput = output
        process.standardInput = stdin
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Small bodies only: they fit the pipe, so writing all before reading cannot block.
        stdin.fileHandleForWriting.write(Data(input))
        try stdin.fileHandleForWriting.close()
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        return parse(bytes, exitStatus: process.terminationStatus)
    }

    /// The last response in curl's `-i` output: interim ones (`100 Continue`) come first.
    static func parse(_ bytes: [UInt8], exitStatus: Int32) -> CurlRun {
        var rest = bytes[...]
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        while true {
            guard let end = rest.firstRange(of: separator) else {
                return CurlRun(exitStatus: exitStatus, status: 0, headers: [], body: Array(rest))
            }
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            let status = RawHTTPConnection.status(of: Array(rest)) ?? 0
            rest = rest[end.upperBound...]
            if (100...199).contains(status) { continue }
            return CurlRun(exitStatus: exitStatus, status: status, headers: Array(lines.dropFirst()), body: Array(rest))
        }
    }
}
