@testable import KaraokeCore

/// Thrown by a test's parsing helper when a command line parsed into another command than the one it reads.
struct UnexpectedInvocation: Error {
    /// What the command line parsed into.
    let invocation: Invocation
}

/// The message of the usage error `arguments` make, or nil when they parse.
func usageMessage(_ arguments: [String]) -> String? {
    do {
        _ = try CommandLineParser.parse(arguments)
        return nil
    } catch {
        return error.message
    }
}
