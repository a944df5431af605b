import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Where the `kakasi` command is, when installed (`make deps-test`).
private let kakasiCommand = ["/usr/bin/kakasi", "/bin/kakasi"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Whether libkakasi loads here, as karaoke loads it (`make deps` installs libkakasi2 and kakasi-dic).
private let kakasiLoads = KakasiRomanizer().romanize("あ") != nil

/// What the `kakasi` command writes for `text` with the options the shim sets (DESIGN §29.4).
private func kakasi(_ text: String, at path: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = ["-Ja", "-Ha", "-Ka", "-Ea", "-s", "-i", "utf8", "-o", "utf8"]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(Data(text.utf8))
    try input.fileHandleForWriting.close()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

@Suite("Japanese in romaji through KAKASI")
struct KakasiRomanizerTests {
    @Test(
        "each line reads as the kakasi command writes it with the same options",
        .enabled(if: kakasiCommand != nil, "the kakasi command is missing: 'make deps-test' installs it"),
        .enabled(if: kakasiLoads, "libkakasi does not load: 'make deps' installs libkakasi2 and kakasi-dic"),
        arguments: [
            "ひらがなのうた", // hiragana
            "カタカナ", // katakana
            "東京の夏の夜", // kanji with the particle の
            "ラーメンとコーヒー", // the long vowel mark ー
            "きって、まって", // small tsu っ, Japanese punctuation
            "夜空に花火が「きらきら」光る！", // brackets and a full-width exclamation mark
            "またいつか、Summer night 2026", // Latin letters and digits among kana
            "ｋａｒａｏｋｅ　ナイト", // full-width Latin letters and an ideographic space
            "時々", // the iteration mark 々
        ])
    func sameAsCommand(_ text: String) throws {
        let command = try kakasi(text, at: #require(kakasiCommand))
        #expect(KakasiRomanizer().romanize(text) == command)
    }

    @Test(
        "what KAKASI would name or misread is kept as written, and the empty text stays empty",
        .enabled(if: kakasiLoads, "libkakasi does not load: 'make deps' installs libkakasi2 and kakasi-dic"),
        arguments: [
            ("夏♪", "natsu♪"), // the command writes "natsu(kigou)"
            ("café 夏", "café natsu"), // not in EUC-JP
            ("😀夏", "😀natsu"), // neither
            ("Привет 夏", "Привет natsu"), // the command writes "(Russia)" for each letter
            ("ｶﾗｵｹ 夏", "ｶﾗｵｹ natsu"), // half-width kana, which leave libkakasi's state broken
            ("", ""),
        ])
    func kept(_ text: String, _ romaji: String) {
        #expect(KakasiRomanizer().romanize(text) == romaji)
    }

    @Test(
        "after the half-width kana, later lines still read right",
        .enabled(if: kakasiLoads, "libkakasi does not load: 'make deps' installs libkakasi2 and kakasi-dic"))
    func stateKept() {
        let romanizer = KakasiRomanizer()
        #expect(romanizer.romanize("ｶﾗｵｹ") == "ｶﾗｵｹ")
        #expect(romanizer.romanize("時々") == "tokidoki")
    }

    @Test(
        "it reads kana and kanji, not Latin text, and leaves a line with Hangul to Korean",
        arguments: [
            ("夏の夜", true), ("カラオケ", true), ("ラー", true), ("Summer night", false), ("♪ ★", false),
            ("사랑해 東京", false), ("", false),
        ])
    func reads(_ text: String, _ expected: Bool) {
        #expect(KakasiRomanizer().reads(text) == expected)
    }

    @Test(
        "a word-timed Japanese line keeps its timing, segments read together where one alone reads otherwise",
        .enabled(if: kakasiLoads, "libkakasi does not load: 'make deps' installs libkakasi2 and kakasi-dic"))
    func wordTimed() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("lyrics/natsu-no-yoru.lrc")
        let song = try #require(LRCParser.parse([UInt8](Data(contentsOf: path)), file: "natsu-no-yoru.lrc").song)
        let romanized = song.romanized(by: Song.romanizers + [KakasiRomanizer()])
        let first = try #require(romanized.lines.first?.romanization)
        #expect(first.text == "natsu no yozora ni hanabi")
        // 夜 alone is "yoru", but 夜空に together "yozora ni": one segment from 夜's start to 空に's end.
        #expect(first.segments.map(\.text) == ["natsu no ", "yozora ni ", "hanabi"])
        #expect(first.segments.map(\.start) == [3000, 3800, 5200])
        #expect(first.segments.map(\.end) == [3800, 5200, 6400])
        let second = try #require(romanized.lines.dropFirst().first?.romanization)
        #expect(second.segments.map(\.text) == ["kawa no ", "oto wo ", "kiki nagara"])
        #expect(romanized.lines[2].romanization == Romanization(text: "kimito arui ta , yukatano michi"))
    }
}
