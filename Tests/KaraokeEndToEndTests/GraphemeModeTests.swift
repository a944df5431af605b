import Foundation
import Testing

/// Grapheme-cluster mode on a pretend terminal (DESIGN §3.6): play asks with DECRQM 2027, sets the mode
/// where it may, paints emoji sequences whole, and gives the terminal back as it found it.
@Suite("Emoji sequences whole on terminals in grapheme-cluster mode")
struct GraphemeModeTests {
    /// A family of four, a skin tone and a keycap.
    static let lyrics = "[ti:Picnic]\n[00:00.10]we 👨‍👩‍👧‍👦 sing 👍🏽 1️⃣\n[00:09.00]end\n"

    /// What `karaoke play` of the lyrics wrote to a pretend 80×24 terminal that answers DECRQM 2027 with
    /// `decrpm` (nil: not at all), q pressed after 1.5 s; the lyrics as text (`--size 1`), not big glyphs.
    private static func play(decrpm: String?, arguments: [String] = []) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return "" }
        return try KaraokeProcess.withTemporaryFolder { folder in
            let file = folder.appendingPathComponent("Picnic.lrc")
            try Data(lyrics.utf8).write(to: file)
            let script = KaraokeProcess.repository.appendingPathComponent(
                "Tests/KaraokeEndToEndTests/Support/pixel_terminal.py")
            let output = try KaraokeProcess.runRaw(
                [
                    script.path, "80", "24", "1.5", "^[[?62c", "-", KaraokeProcess.binary.path, "play", file.path,
                    "--no-audio", "--size", "1",
                ] + arguments,
                executable: "/usr/bin/python3", environment: decrpm.map { ["PRETEND_DECRPM_2027": $0] } ?? [:],
                timeout: 30)
            #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
            return String(decoding: output.stdout, as: UTF8.self)
        }
    }

    @Test("a settable terminal is put in the mode, shown the whole sequences, and taken out of it at q")
    func settable() throws {
        let written = try Self.play(decrpm: "2")
        guard !written.isEmpty else { return }
        let set = try #require(written.range(of: "\u{1B}[?2027h"), "the mode is set")
        let asked = try #require(written.range(of: "\u{1B}[?2027$p\u{1B}[c"), "it asks")
        #expect(asked.upperBound <= set.lowerBound)
        let family = try #require(written.range(of: "👨‍👩‍👧‍👦"), "the family whole")
        #expect(written.contains("👍🏽"))
        #expect(written.contains("1️⃣"))
        #expect(set.upperBound <= family.lowerBound, "set before it is painted")
        let reset = try #require(written.range(of: "\u{1B}[?2027l", options: .backwards), "the mode is reset")
        #expect(family.upperBound <= reset.lowerBound)
        #expect(written.components(separatedBy: "\u{1B}[?2027h").count == 2, "set once")
    }

    @Test("a terminal already in the mode is shown whole sequences and left in it")
    func alreadySet() throws {
        let written = try Self.play(decrpm: "1")
        guard !written.isEmpty else { return }
        #expect(written.contains("👨‍👩‍👧‍👦"))
        #expect(!written.contains("\u{1B}[?2027h"))
        #expect(!written.contains("\u{1B}[?2027l"))
    }

    @Test("a terminal that does not answer gets the reduced forms and no set or reset")
    func silent() throws {
        let written = try Self.play(decrpm: nil)
        guard !written.isEmpty else { return }
        #expect(written.contains("\u{1B}[?2027$p"), "it asks")
        #expect(!written.contains("\u{200D}"), "no ZWJ sequence is sent")
        #expect(!written.contains("👍🏽"))
        #expect(written.contains("👨"))
        #expect(written.contains("👍"))
        #expect(!written.contains("\u{1B}[?2027h"))
        #expect(!written.contains("\u{1B}[?2027l"))
    }

    @Test("a terminal that permanently refuses the mode gets the reduced forms")
    func refused() throws {
        let written = try Self.play(decrpm: "4")
        guard !written.isEmpty else { return }
        #expect(!written.contains("\u{200D}"))
        #expect(!written.contains("\u{1B}[?2027h"))
    }

    @Test("--graphemes whole paints whole without asking or setting; reduced never asks")
    func overrides() throws {
        let whole = try Self.play(decrpm: "2", arguments: ["--graphemes", "whole"])
        guard !whole.isEmpty else { return }
        #expect(whole.contains("👨‍👩‍👧‍👦"))
        #expect(!whole.contains("\u{1B}[?2027$p"))
        #expect(!whole.contains("\u{1B}[?2027h"))
        let reduced = try Self.play(decrpm: "2", arguments: ["--graphemes", "reduced"])
        #expect(!reduced.contains("\u{1B}[?2027$p"))
        #expect(!reduced.contains("\u{200D}"))
        #expect(!reduced.contains("\u{1B}[?2027h"))
    }
}
