import Foundation
import Testing

/// Grapheme-cluster mode on a pretend terminal (DESIGN §3.6): play asks with DECRQM 2027, sets the mode
/// where it may, paints emoji sequences whole, and gives the terminal back as it found it.
@Suite("Emoji sequences whole on terminals in grapheme-cluster mode", .concurrencyLimit(2))
struct GraphemeModeTests {
    /// A family of four, a skin tone and a keycap.
    static let lyrics = "[ti:Picnic]\n[00:00.10]we 👨‍👩‍👧‍👦 sing 👍🏽 1️⃣\n[00:09.00]end\n"

    /// What `karaoke play` of the lyrics wrote to a pretend 80×24 terminal that answers DECRQM 2027 with
    /// `decrpm` (nil: not at all), q pressed after 1.5 s (SIGTERM sent instead with `terminate`, ^Z typed
    /// after 0.8 s with `suspend`); the lyrics as text (`--size 1`), not big glyphs. The exit status must be
    /// `status`.
    private static func play(
        decrpm: String?, arguments: [String] = [], suspend: Bool = false, terminate: Bool = false,
        status: Int32 = 0
    ) throws -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return "" }
        var environment: [String: String] = [:]
        environment["PRETEND_DECRPM_2027"] = decrpm
        if suspend { environment["PRETEND_CTRL_Z"] = "0.8" }
        if terminate { environment["PRETEND_END"] = "TERM" }
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
                executable: "/usr/bin/python3", environment: environment, timeout: 30)
            #expect(output.status == status, "\(String(decoding: output.stderr, as: UTF8.self))")
            return String(decoding: output.stdout, as: UTF8.self)
        }
    }

    @Test("SIGTERM resets the mode karaoke set before the terminal is given back")
    func terminated() throws {
        let written = try Self.play(decrpm: "2", terminate: true, status: 143)
        guard !written.isEmpty else { return }
        let set = try #require(written.range(of: "\u{1B}[?2027h"))
        let reset = try #require(written.range(of: "\u{1B}[?2027l", options: .backwards))
        #expect(set.upperBound <= reset.lowerBound)
        // The reset comes before the alternate screen is left.
        let leave = try #require(written.range(of: "\u{1B}[?1049l", options: .backwards))
        #expect(reset.upperBound <= leave.lowerBound)
    }

    @Test("^Z resets the mode while suspended and sets it again on resume")
    func suspended() throws {
        // The pretend terminal's child is in an orphaned process group, which the kernel does not stop:
        // karaoke gives the terminal back and takes it again at once, which is what is checked here.
        let written = try Self.play(decrpm: "2", suspend: true)
        guard !written.isEmpty else { return }
        let sets = written.components(separatedBy: "\u{1B}[?2027h").count - 1
        let resets = written.components(separatedBy: "\u{1B}[?2027l").count - 1
        #expect(sets == 2, "set at the start and again on resume")
        #expect(resets == 2, "reset on suspend and at the end")
        let firstReset = try #require(written.range(of: "\u{1B}[?2027l"))
        let lastSet = try #require(written.range(of: "\u{1B}[?2027h", options: .backwards))
        #expect(firstReset.upperBound <= lastSet.lowerBound)
        let lastReset = try #require(written.range(of: "\u{1B}[?2027l", options: .backwards))
        #expect(lastSet.upperBound <= lastReset.lowerBound, "reset again at the end")
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
