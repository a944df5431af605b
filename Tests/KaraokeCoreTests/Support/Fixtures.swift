import Foundation
@testable import KaraokeCore

/// Files the tests read, located from this source file so the tests run from any directory.
enum Fixtures {
    /// A short song for the player and its loop: four lines at 2, 5, 9 and 14 s, 30 s long.
    static let clockwork = """
        [ti:Clockwork]
        [length:00:30]
        [00:02.00]one
        [00:05.00]two
        [00:09.00]three
        [00:14.00]four
        """

    /// The repository's root.
    static let repository: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The bundled songs in `lyrics/`.
    static var bundledSongs: [URL] {
        let folder = repository.appendingPathComponent("lyrics")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".lrc") }.sorted().map { folder.appendingPathComponent($0) }
    }

    /// A bundled song by file name, parsed.
    static func song(_ name: String) throws -> Song {
        try parse(repository.appendingPathComponent("lyrics").appendingPathComponent(name))
    }

    /// Reads and parses a lyric file the way the program does.
    static func parse(_ url: URL) throws -> Song {
        let bytes = [UInt8](try Data(contentsOf: url))
        guard case .success(let utf8) = SourceText.utf8(from: bytes) else { throw FixtureError.notText(url.path) }
        guard let song = LRCParser.parse(utf8, file: url.lastPathComponent).song else {
            throw FixtureError.noSong(url.path)
        }
        return song
    }

    /// Parses LRC text given inline.
    static func song(text: String) throws -> Song {
        guard let song = LRCParser.parse(Array(text.utf8), file: "inline.lrc").song else {
            throw FixtureError.noSong("inline")
        }
        return song
    }

    enum FixtureError: Error {
        case notText(String)
        case noSong(String)
    }
}
