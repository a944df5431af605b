import Testing
@testable import KaraokeCore

@Suite("A queue's file named as the playlist means it")
struct ShownPathTests {
    @Test(
        "the path is normalised lexically: no '.', no empty parts, '..' takes away the part before it",
        arguments: [
            // The playlist's folder and a step back out of it: the file beside the playlist's folder.
            ("pl/../tone.wav", "tone.wav"),
            ("pl/../missing.lrc", "missing.lrc"),
            // Absolute, with the same step.
            ("/music/lists/../songs/one.lrc", "/music/songs/one.lrc"),
            // Two steps back, one more than there are parts: the leading '..' stays.
            ("a/../../b.lrc", "../b.lrc"),
            ("../songs/b.lrc", "../songs/b.lrc"),
            // At the root '..' goes nowhere.
            ("/../a.lrc", "/a.lrc"),
            // '.' and doubled or trailing slashes go.
            ("./a//./b.lrc", "a/b.lrc"),
            ("songs/", "songs"),
            // Nothing left of a relative path, and the root itself.
            ("a/..", "."),
            ("/", "/"),
            // Already plain.
            ("one.lrc", "one.lrc"),
            // A name that only looks like a step is a name.
            ("..x/...lrc", "..x/...lrc"),
            // Empty stays empty.
            ("", ""),
        ])
    func normalised(path: String, shown: String) {
        #expect(Playlist.shownPath(path) == shown)
    }

    @Test(
        "a skip is worded with the file first, as the playlist means it, then the reason",
        arguments: [
            (
                SkippedEntry(file: "pl/../tone.wav", reason: "no lyrics found (looked beside it, in its tags)"),
                "skipped tone.wav: no lyrics found (looked beside it, in its tags)"
            ),
            (SkippedEntry(file: "pl/../missing.lrc", reason: "no such file"), "skipped missing.lrc: no such file"),
            // Control characters in a name never reach the terminal.
            (SkippedEntry(file: "pl/bad\u{1B}[2J.lrc", reason: "no such file"), "skipped pl/bad[2J.lrc: no such file"),
        ])
    func note(entry: SkippedEntry, note: String) {
        #expect(entry.note == note)
    }
}
