import Testing
@testable import KaraokeCore

@Suite("The text sync times")
struct SyncScriptTests {
    @Test("plain text gives one line per non-blank line, with the tags at the top kept")
    func plainTextLinesAndTags() throws {
        let text = "[ti:Paper Boats]\n[ar:The Band]\n[xx:dropped]\n\nfirst line\n\n  second  line \r\nthird\n"
        let (script, _) = SyncScript.read(Array(text.utf8), file: "boats.txt")
        let read = try #require(script)
        #expect(read.lines.map(\.text) == ["first line", "second line", "third"])
        #expect(read.metadata.title == "Paper Boats")
        #expect(read.metadata.artist == "The Band")
    }

    @Test("a tag-shaped line after the first lyric line is lyrics")
    func tagAfterLyricsIsText() throws {
        let script = SyncScript.plain("one\n[ti:not a tag]\n")
        #expect(script.lines.map(\.text) == ["one", "[ti:not a tag]"])
        #expect(script.metadata.title == nil)
    }

    @Test(
        "a line is cut into words, and words at '|' into syllables",
        arguments: [
            // words keep the space after them
            ("soft rain falls", ["soft ", "rain ", "falls"], "soft rain falls"),
            // syllables: the bars go, the word's last piece keeps its space
            ("ka|ra|o|ke night", ["ka", "ra", "o", "ke ", "night"], "karaoke night"),
            // stray bars and spaces leave no empty piece
            ("| a ||b|  ", ["a ", "b"], "a b"),
        ])
    func piecesOfALine(raw: String, pieces: [String], text: String) {
        let line = SyncScript.Line(raw)
        #expect(line.pieces == pieces)
        #expect(line.text == text)
    }

    @Test("control characters are removed from the text as everywhere")
    func controlCharactersRemoved() throws {
        let script = SyncScript.plain("bad\u{1B}[31m red\u{7}\n")
        #expect(script.lines.first?.text.unicodeScalars.contains { $0.value < 0x20 } == false)
    }

    @Test("an existing lyric file is read through its parser, its tags kept and its offset dropped")
    func existingFileIsRetimed() throws {
        let lrc = "[ti:Old]\n[offset:300]\n[00:01.00]<00:01.00>soft <00:01.50>rain\n[00:03.00]home\n"
        let (script, _) = SyncScript.read(Array(lrc.utf8), file: "old.lrc")
        let read = try #require(script)
        #expect(read.lines.map(\.text) == ["soft rain", "home"])
        #expect(read.lines[0].pieces == ["soft ", "rain"])
        #expect(read.metadata.title == "Old")
        #expect(read.metadata.offset == 0)
    }

    @Test("a text without a single lyric line gives nothing to time")
    func emptyTextIsNothing() {
        #expect(SyncScript.read(Array("[ti:Only a tag]\n\n   \n".utf8), file: "x.txt").script == nil)
    }
}
