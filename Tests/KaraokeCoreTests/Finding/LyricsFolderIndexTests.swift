import Testing
@testable import KaraokeCore

/// The index of a lyric folder: what is read from each file, how it is kept between runs (DESIGN §10.3).
@Suite("Finding: the index of a lyric folder")
struct LyricsFolderIndexTests {
    /// A status for `path` with the given size and time.
    static func status(_ path: String, size: Int = 10, modified: Int64 = 1) -> LyricsFolderIndex.FileStatus {
        .init(path: path, size: size, modified: modified)
    }

    @Test("an entry holds the name's key, the [ar:]/[ti:] key and [length:] in milliseconds")
    func entryFromHead() {
        let head = Array("\u{FEFF}[ti: Thunderstruck ]\r\n[ar:AC/DC]\r\n[length: 04:52.5]\r\n[00:01.00]x\r\n".utf8)
        let entry = LyricsFolderIndex.entry(for: Self.status("rock/track 07.lrc"), head: head)
        #expect(entry.nameKey == "track07")
        #expect(entry.tagKey == "acdcthunderstruck")
        #expect(entry.length == 292_500)
    }

    @Test(
        "a head without both [ar:] and [ti:] has no tag key",
        arguments: ["[ti:Title]\n[00:01.00]x\n", "[ar:Artist]\n", "[ar:]\n[ti:Title]\n", "", "[00:01.00][ar:A]\n"])
    func noTagKey(text: String) {
        #expect(LyricsFolderIndex.entry(for: Self.status("a.lrc"), head: Array(text.utf8)).tagKey == nil)
    }

    @Test("a line cut off by the end of a full head is not read (its value may be cut short)")
    func cutLastLine() {
        // The head is full and ends inside the line "[ti:A [B] C]", cut after its first "]".
        let filler = "[ar:Artist]\n" + String(repeating: "x", count: LyricsFolderIndex.headSize - 9 - 13) + "\n"
        let full = Array((filler + "[ti:A [B]").utf8)
        #expect(full.count == LyricsFolderIndex.headSize)
        #expect(LyricsFolderIndex.entry(for: Self.status("a.lrc"), head: full).tagKey == nil)
    }

    @Test(
        "[length:] values read as milliseconds",
        arguments: [
            ("03:25", 205_000), ("3:25.50", 205_500), ("1:02:03", 3_723_000), ("205", 205_000), (" 04 : 05 ", 245_000),
        ])
    func lengths(text: String, milliseconds: Int) {
        #expect(LyricsFolderIndex.milliseconds(text) == milliseconds)
    }

    @Test(
        "[length:] values that are not times read as none",
        arguments: ["", "abc", "3:75", "-1:00", "1:2:3:4", "nan", "inf"])
    func badLengths(text: String) {
        #expect(LyricsFolderIndex.milliseconds(text) == nil)
    }

    @Test("refreshing keeps unchanged entries unread, reads new and changed files, drops files gone")
    func refresh() {
        let old = LyricsFolderIndex(
            folder: "/l",
            entries: [
                .init(status: Self.status("a.lrc"), nameKey: "a", tagKey: "kept", length: 1),
                .init(status: Self.status("b.lrc"), nameKey: "b"),
                .init(status: Self.status("gone.lrc"), nameKey: "gone"),
            ])
        var read: [String] = []
        let (index, changed) = old.refreshed(
            with: [Self.status("c.lrc"), Self.status("b.lrc", size: 11), Self.status("a.lrc")]
        ) { path in
            read.append(path)
            return Array("[ar:X]\n[ti:\(path)]\n".utf8)
        }
        #expect(changed)
        #expect(read.sorted() == ["b.lrc", "c.lrc"])
        #expect(index.entries.map(\.status.path) == ["a.lrc", "b.lrc", "c.lrc"])
        #expect(index.entries[0].tagKey == "kept") // not read again
        #expect(index.entries[1].tagKey == "xblrc")
    }

    @Test("refreshing an index with the folder unchanged reads nothing and reports no change")
    func refreshUnchanged() {
        let old = LyricsFolderIndex(folder: "/l", entries: [.init(status: Self.status("a.lrc"), nameKey: "a")])
        let (index, changed) = old.refreshed(with: [Self.status("a.lrc")]) { _ in
            Issue.record("read a file that did not change")
            return nil
        }
        #expect(!changed)
        #expect(index == old)
    }

    @Test("a file touched with the same size is read again (its mtime changed)")
    func touched() {
        let old = LyricsFolderIndex(folder: "/l", entries: [.init(status: Self.status("a.lrc"), nameKey: "a")])
        let (_, changed) = old.refreshed(with: [Self.status("a.lrc", modified: 2)]) { _ in [] }
        #expect(changed)
    }

    @Test("an index reads back as it was written, with odd paths and missing fields")
    func roundTrip() throws {
        let index = LyricsFolderIndex(
            folder: "/home/me/my lyrics\\with\ttab",
            entries: [
                .init(status: Self.status("A - B.lrc", size: 0, modified: -5), nameKey: "ab", tagKey: "ab", length: 0),
                .init(
                    status: Self.status("sub/new\nline.lrc", size: 99, modified: 1_700_000_000_123_456_789),
                    nameKey: "newline"),
                .init(status: Self.status("ü/ß\\.txt"), nameKey: "üß", tagKey: nil, length: 5000),
            ])
        let decoded = try #require(LyricsFolderIndex(decoding: index.encoded()))
        #expect(decoded == index)
    }

    @Test(
        "a damaged index file reads as none, so it is rebuilt",
        arguments: [
            "", // empty
            "karaoke lyrics index 0\n/l\n", // another version
            "karaoke lyrics index 1\n/l\na.lrc\t1\t1\ta\t-\n", // a field missing
            "karaoke lyrics index 1\n/l\na.lrc\tx\t1\ta\t-\t-\n", // a size that is no number
            "karaoke lyrics index 1\n/l\na.lrc\t1\t99999999999999999999\ta\t-\t-\n", // a time past 64 bits
            "karaoke lyrics index 1\n/l\na.lrc\t1\t1\ta\t-\t-", // cut before the last newline
            "karaoke lyrics index 1\n/l\na\\q.lrc\t1\t1\ta\t-\t-\n", // a bad escape
            "\u{0}\u{1}garbage", // not text at all
        ])
    func damaged(text: String) {
        #expect(LyricsFolderIndex(decoding: text) == nil)
    }
}
