import Foundation

/// Temporary folders that are removed on every path out of a test, a thrown error or a failed `#require`
/// included: a folder is either handed to a `defer` the moment it exists, or lives only inside a closure.
extension KaraokeProcess {
    /// Runs `body` with a new, empty temporary folder and removes the folder afterwards, whether `body` returns
    /// or throws.
    static func withTemporaryFolder<Result>(_ body: (URL) throws -> Result) throws -> Result {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        return try body(folder)
    }

    /// A new temporary folder that `fill` writes into; when `fill` throws, the folder is removed before the
    /// error goes on. The caller removes the folder it gets (with a `defer` on the next line).
    static func temporaryFolder(filledBy fill: (URL) throws -> Void) throws -> URL {
        let folder = try temporaryFolder()
        do {
            try fill(folder)
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw error
        }
        return folder
    }
}
