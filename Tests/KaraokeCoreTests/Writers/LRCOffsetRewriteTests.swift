import Foundation
import Testing
@testable import KaraokeCore

/// The text of `text` rewritten with `milliseconds` more offset in `mode`; fails the test on a failure.
private func rewritten(
    _ text: String, adding milliseconds: Int, mode: LRCOffsetRewrite.Mode,
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> LRCOffsetRewrite.Rewritten {
    let result = LRCOffsetRewrite.rewrite(Array(text.utf8), adding: milliseconds, mode: mode)
    guard case .success(let rewritten) = result else {
        Issue.record("rewrite failed: \(result)", sourceLocation: sourceLocation)
        throw RewriteTestError.failed
    }
    return rewritten
}

private enum RewriteTestError: Error { case failed }

/// The song `text` parses to (as LRC, BOM removed as `SourceText` does).
private func song(_ text: [UInt8]) throws -> Song {
    guard case .success(let utf8) = SourceText.utf8(from: text) else { throw RewriteTestError.failed }
    return try #require(LRCParser.parse(utf8, file: "t.lrc").song)
}

/// Where each line and each word is shown, in playback milliseconds: stamp minus the file's offset
/// minus `userOffset`.
private func shownTimes(_ song: Song, userOffset: Int = 0) -> [[Int]] {
    let shift = song.metadata.offset + userOffset
    return song.lines.map { line in
        [line.start - shift] + line.segments.flatMap { [$0.start - shift, $0.end - shift] }
    }
}

@Suite("Saving an offset into an LRC file")
struct LRCOffsetRewriteTests {
    @Test(
        "the [offset:] tag's value grows by the offset and nothing else in the file changes",
        arguments: [
            // A plain tag among others.
            (file: "[ti:x]\n[offset:100]\n[00:01.00]a\n", adding: 200, expected: "[ti:x]\n[offset:300]\n[00:01.00]a\n"),
            // A sign; the result may change sign.
            (file: "[offset:+100]\n[00:01.00]a\n", adding: -300, expected: "[offset:-200]\n[00:01.00]a\n"),
            // A space after the colon (which other players misread) is written without it.
            (file: "[offset: -500]\n[00:01.00]a\n", adding: 200, expected: "[offset:-300]\n[00:01.00]a\n"),
            // Spaces on both sides of the value, and the key in capitals, kept as written.
            (file: "[OFFSET:  250 ]\n[00:01.00]a\n", adding: 100, expected: "[OFFSET:350]\n[00:01.00]a\n"),
            // Several tags: the last one is the one read, so it is the one changed.
            (
                file: "[offset:50]\n[offset:100]\n[00:01.00]a\n", adding: 100,
                expected: "[offset:50]\n[offset:200]\n[00:01.00]a\n"
            ),
            // A malformed tag is not read, so a valid one before it is changed.
            (
                file: "[offset:100]\n[offset:soon]\n[00:01.00]a\n", adding: 100,
                expected: "[offset:200]\n[offset:soon]\n[00:01.00]a\n"
            ),
            // Text, word tags and spacing stay byte for byte.
            (
                file: "[offset:0]\n[00:01.00] <00:01.00>a <00:01.50>b  \n", adding: 200,
                expected: "[offset:200]\n[00:01.00] <00:01.00>a <00:01.50>b  \n"
            ),
        ])
    func tagValueGrows(file: String, adding: Int, expected: String) throws {
        let result = try rewritten(file, adding: adding, mode: .tag)
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
        #expect(result.changed)
        #expect(result.offset == LRCOffsetRewrite.offset(in: result.bytes))
    }

    @Test(
        "a file without [offset:] gets one after the tags at its head, in its own line ends",
        arguments: [
            // After the last tag of the head, before a blank line.
            (file: "[ti:x]\n[ar:y]\n\n[00:01.00]a\n", expected: "[ti:x]\n[ar:y]\n[offset:200]\n\n[00:01.00]a\n"),
            // No tags: at the very start.
            (file: "[00:01.00]a\n[00:02.00]b\n", expected: "[offset:200]\n[00:01.00]a\n[00:02.00]b\n"),
            // CRLF files stay CRLF.
            (file: "[ti:x]\r\n[00:01.00]a\r\n", expected: "[ti:x]\r\n[offset:200]\r\n[00:01.00]a\r\n"),
            // Old Mac line ends too.
            (file: "[00:01.00]a\r[00:02.00]b", expected: "[offset:200]\r[00:01.00]a\r[00:02.00]b"),
            // A tag after the first lyric line is not the head: the new tag goes before the lyrics.
            (file: "[ti:x]\n[00:01.00]a\n[ar:y]\n", expected: "[ti:x]\n[offset:200]\n[00:01.00]a\n[ar:y]\n"),
            // A head that is the whole file and has no line end gets one before the new tag.
            (file: "[ti:x]", expected: "[ti:x]\n[offset:200]"),
        ])
    func tagAdded(file: String, expected: String) throws {
        let result = try rewritten(file, adding: 200, mode: .tag)
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
        #expect(result.offset == 200)
    }

    @Test("a UTF-8 byte order mark stays at the start", arguments: [LRCOffsetRewrite.Mode.tag, .stamps])
    func byteOrderMarkKept(mode: LRCOffsetRewrite.Mode) throws {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        for body in ["[00:01.00]a\n", "[offset:100]\n[00:01.00]a\n", "[ti:x]\n[00:01.00]a\n"] {
            let result = LRCOffsetRewrite.rewrite(bom + Array(body.utf8), adding: 200, mode: mode)
            let bytes = try #require(try? result.get()).bytes
            #expect(Array(bytes.prefix(3)) == bom, "\(body)")
            #expect(!bytes.dropFirst(3).starts(with: bom), "\(body)")
            let before = try song(bom + Array(body.utf8))
            #expect(shownTimes(try song(bytes)) == shownTimes(before, userOffset: 200), "\(body)")
        }
    }

    @Test(
        "every stamp form the parser reads moves, keeping its form when the new time fits it",
        arguments: [
            (stamp: "[00:12]", adding: 2000, expected: "[00:10]"),
            (stamp: "[00:12]", adding: 250, expected: "[00:11.75]"), // the digits the time needs, no rounding
            (stamp: "[00:12]", adding: 5, expected: "[00:11.995]"),
            (stamp: "[00:12.3]", adding: 200, expected: "[00:12.1]"),
            (stamp: "[00:12.3]", adding: 50, expected: "[00:12.25]"),
            (stamp: "[00:12.34]", adding: 200, expected: "[00:12.14]"),
            (stamp: "[00:12.34]", adding: -15, expected: "[00:12.355]"),
            (stamp: "[00:12.345]", adding: 200, expected: "[00:12.145]"),
            (stamp: "[00:12.500]", adding: 500, expected: "[00:12.000]"), // three digits stay three
            (stamp: "[00:12:34]", adding: 200, expected: "[00:12:14]"), // the colon fraction
            (stamp: "[00:12,34]", adding: 200, expected: "[00:12,14]"), // the comma
            (stamp: "[0:12.34]", adding: 200, expected: "[0:12.14]"), // one minute digit
            (stamp: "[123:00.00]", adding: 200, expected: "[122:59.80]"), // minutes above 99
            (stamp: "[00:01.00]", adding: -60_000, expected: "[01:01.00]"), // into the next minute
            (stamp: "[+00:12.34]", adding: 200, expected: "[00:12.14]"), // the sign is dropped
            (stamp: "[00:5.00]", adding: 200, expected: "[00:04.80]"), // one second digit becomes two
            (stamp: "[02:83.37]", adding: 200, expected: "[03:23.17]"), // seconds above 59, now read plainly
            (stamp: "[00:00.10]", adding: 200, expected: "[00:00.00]"), // held at 0:00
        ])
    func stampForms(stamp: String, adding: Int, expected: String) throws {
        let result = try rewritten("\(stamp)la\n", adding: adding, mode: .stamps)
        #expect(String(decoding: result.bytes, as: UTF8.self) == "\(expected)la\n")
        let before = try song(Array("\(stamp)la\n".utf8)), after = try song(result.bytes)
        #expect(after.lines.first?.start == max(0, (before.lines.first?.start ?? 0) - adding))
    }

    @Test(
        "word tags, ESLyric inline stamps and repeated leading stamps move with the lines",
        arguments: [
            (
                file: "[00:01.00]<00:01.00>a <00:01.50>b<00:02.00>\n",
                expected: "[00:00.80]<00:00.80>a <00:01.30>b<00:01.80>\n"
            ),
            (file: "[00:01.00]a[00:01.50]b[00:02.00]\n", expected: "[00:00.80]a[00:01.30]b[00:01.80]\n"),
            (file: "[00:01.00][00:03.00] [00:05.00]chorus\n", expected: "[00:00.80][00:02.80] [00:04.80]chorus\n"),
            // Not stamps: bracketed text, `<3>`, a malformed word tag, and a malformed leading stamp's line.
            (
                file: "[00:01.00][Chorus] <3> <00:1x.00>la\n[01:7x.20]gone\n",
                expected: "[00:00.80][Chorus] <3> <00:1x.00>la\n[01:7x.20]gone\n"
            ),
            // Tags and the length are not stamps.
            (
                file: "[length:03:00.00]\n[ti:[00:01.00]]\n[00:01.00]a\n",
                expected: "[length:03:00.00]\n[ti:[00:01.00]]\n[00:00.80]a\n"
            ),
        ])
    func wordTagsMove(file: String, expected: String) throws {
        let result = try rewritten(file, adding: 200, mode: .stamps)
        #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
        #expect(result.clampedStamps == 0)
    }

    @Test("moving the stamps folds the file's own offset in and removes its [offset:] lines")
    func stampsFoldTheTag() throws {
        let file = "[ti:x]\r\n[offset:300]\r\n[offset:oops]\r\n[00:02.00]a\r\n[offset:+100]\r\n[00:03.00]b\r\n"
        let result = try rewritten(file, adding: 200, mode: .stamps)
        // The last valid tag (+100) is the file's offset: the stamps move by 100 + 200.
        #expect(
            String(decoding: result.bytes, as: UTF8.self)
                == "[ti:x]\r\n[offset:oops]\r\n[00:01.70]a\r\n[00:02.70]b\r\n")
        #expect(result.offset == 0)
    }

    @Test("stamps that would move before 0:00 are held there and counted")
    func negativeStampsClamped() throws {
        let result = try rewritten("[00:00.10]a <00:00.30>b\n[00:00.50]c\n[00:02.00]d\n", adding: 400, mode: .stamps)
        #expect(
            String(decoding: result.bytes, as: UTF8.self) == "[00:00.00]a <00:00.00>b\n[00:00.10]c\n[00:01.60]d\n")
        #expect(result.clampedStamps == 2)
    }

    @Test(
        "the rewritten file shows every line and word where the old one did with the offset added",
        arguments: [LRCOffsetRewrite.Mode.tag, .stamps],
        [
            "[00:01.00]a\n[00:02.50]b\n",
            "[ti:t]\n[offset:+250]\n[00:01.00]<00:01.00>a <00:01.40>b<00:01.90>\n[00:03.00]c\n",
            "[offset:-1000]\r\n[00:01.000]a[00:01.5]b\r\n[00:04:00][00:06,5]c\r\n",
            "\u{FEFF}[00:10]x\n[00:20.5]y\n",
        ])
    func timingPreserved(mode: LRCOffsetRewrite.Mode, file: String) throws {
        for adding in [200, -200, 735, -3000] {
            let before = try song(Array(file.utf8))
            let result = try rewritten(file, adding: adding, mode: mode)
            let after = try song(result.bytes)
            #expect(
                shownTimes(after) == shownTimes(before, userOffset: adding),
                "adding \(adding) ms: \(String(decoding: result.bytes, as: UTF8.self))")
            #expect(after.lines.map(\.text) == before.lines.map(\.text))
        }
    }

    @Test("no offset to add leaves the file as it is", arguments: [LRCOffsetRewrite.Mode.tag, .stamps])
    func nothingToAdd(mode: LRCOffsetRewrite.Mode) throws {
        for file in ["[00:01.00]a\n", "[offset:0]\n[00:01.00]a\n"] {
            let result = try rewritten(file, adding: 0, mode: mode)
            #expect(!result.changed)
            #expect(result.bytes == Array(file.utf8))
        }
        // A tag with an offset is still news to fold into the stamps, but not to the tag.
        let tagged = try rewritten("[offset:100]\n[00:01.00]a\n", adding: 0, mode: mode)
        #expect(tagged.changed == (mode == .stamps))
        #expect(tagged.offset == (mode == .stamps ? 0 : 100))
    }

    @Test("text that is not UTF-8, and an offset of an hour or more, are refused")
    func refusals() {
        let utf16: [UInt8] = [0xFF, 0xFE] + Array("[00:01.00]a".utf8).flatMap { [$0, 0] }
        #expect(LRCOffsetRewrite.rewrite(utf16, adding: 200, mode: .tag) == .failure(.notUTF8))
        // `[00:01.00]café été` in Latin-1: each accent is a byte UTF-8 cannot read.
        let latin1: [UInt8] = Array("[00:01.00]caf".utf8) + [0xE9, 0x20, 0xE9, 0x74, 0xE9]
        #expect(LRCOffsetRewrite.rewrite(latin1, adding: 200, mode: .stamps) == .failure(.notUTF8))
        let large = Array("[offset:3599000]\n[00:01.00]a\n".utf8)
        #expect(LRCOffsetRewrite.rewrite(large, adding: 1000, mode: .tag) == .failure(.offsetTooLarge(3_600_000)))
    }

    @Test(
        "on every LRC file of the shared corpus, both ways of saving keep every line and word where it was shown",
        .enabled(if: LyricsCorpus.isAvailable, "../shared/corpus is not there"))
    func corpusTimingPreserved() throws {
        for name in LyricsCorpus.lyricFiles {
            let bytes = Array(try Data(contentsOf: LyricsCorpus.root.appendingPathComponent(name)))
            // The corpus's unusable files are left out.
            guard let before = try LyricsCorpus.parse(name).song else { continue }
            guard TextEncoding.isMostlyUTF8(bytes) else {
                // GBK and the like: refused, since an edit of their bytes could break a character.
                #expect(LRCOffsetRewrite.rewrite(bytes, adding: 200, mode: .tag) == .failure(.notUTF8), "\(name)")
                continue
            }
            for mode in [LRCOffsetRewrite.Mode.tag, .stamps] {
                for adding in [-200, 200] {
                    let result = LRCOffsetRewrite.rewrite(bytes, adding: adding, mode: mode)
                    guard case .success(let rewritten) = result else {
                        Issue.record("\(name): \(result)")
                        continue
                    }
                    // Held at 0:00 is the one change allowed, and only when the stamps move earlier.
                    guard rewritten.clampedStamps == 0 else {
                        #expect(mode == .stamps && adding + before.metadata.offset > 0, "\(name)")
                        continue
                    }
                    let after = try song(rewritten.bytes)
                    #expect(
                        shownTimes(after) == shownTimes(before, userOffset: adding), "\(name) \(mode) \(adding)")
                    #expect(after.lines.map(\.text) == before.lines.map(\.text), "\(name)")
                    #expect(after.metadata.title == before.metadata.title, "\(name)")
                }
            }
        }
    }
}
