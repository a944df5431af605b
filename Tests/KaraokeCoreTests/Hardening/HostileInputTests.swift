import Foundation
import Testing
@testable import KaraokeCore

/// Inputs built to make a parser crash, hang or go quadratic: one per format and kind, named so the log
/// stays short. Each must end in a song or in diagnostics within the time limit.
@Suite("Hostile input", .timeLimit(hardeningTimeLimit))
struct HostileInputTests {
    /// A case: the format to parse as, and the bytes.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var format: LyricFormat
        var text: @Sendable () -> String
        var testDescription: String { "\(format.displayName): \(name)" }
    }

    static let million = 1_000_000

    /// A million timestamps in a single line, in the way each format writes times inside a line.
    static let millionTimestamps: [Case] = [
        // LRC repeats line stamps before one text.
        Case(name: "line stamps", format: .lrc) { String(repeating: "[00:01.00]", count: million) + "la" },
        // Enhanced LRC word stamps, one per letter.
        Case(name: "word stamps", format: .lrc) { "[00:01.00]" + String(repeating: "<00:01.50>a", count: million) },
        // SRT has no word times; the timing line itself is repeated.
        Case(name: "arrows", format: .srt) {
            "1\n" + String(repeating: "00:00:01,000 --> 00:00:02,000 ", count: million / 10) + "\nla\n"
        },
        // WebVTT karaoke timestamps inside one cue.
        Case(name: "cue timestamps", format: .webvtt) {
            "WEBVTT\n\n00:00:01.000 --> 00:10:00.000\n" + String(repeating: "<00:00:01.500>a", count: million) + "\n"
        },
        // ASS karaoke tags in one Dialogue line.
        Case(name: "karaoke tags", format: .ass) {
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:10:00.00,Default,,0,0,0,," + String(repeating: "{\\k1}a", count: million)
                + "\n"
        },
        // UltraStar has one note a line; a million notes with no line break between them.
        Case(name: "notes in one phrase", format: .ultrastar) {
            "#TITLE:t\n#BPM:300\n" + (0..<million).map { ": \($0) 1 0 a\n" }.joined() + "E\n"
        },
        // TTML spans with begin times in one paragraph.
        Case(name: "timed spans", format: .ttml) {
            "<tt><body><p begin=\"1s\" end=\"9000s\">"
                + String(repeating: "<span begin=\"1.5s\" end=\"2s\">a</span>", count: million / 4) + "</p></body></tt>"
        },
    ]

    @Test("a million timestamps on one line", arguments: millionTimestamps)
    func manyTimestamps(_ hostile: Case) {
        parseHostile(Array(hostile.text().utf8), as: hostile.format)
    }

    static let depth = 200_000

    /// Tags opened and never closed, deeply nested, or a bracket left open to the end of a large file.
    static let unclosed: [Case] = [
        Case(name: "open brackets", format: .lrc) { "[00:01.00]la\n" + String(repeating: "[", count: depth) },
        Case(name: "open word stamp", format: .lrc) { "[00:01.00]" + String(repeating: "<00:0", count: depth) },
        Case(name: "nested italics", format: .srt) {
            "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "<i><b><u>", count: depth) + "la\n"
        },
        Case(name: "open font tag", format: .srt) {
            "1\n00:00:01,000 --> 00:00:02,000\n<font color=\"" + String(repeating: "a", count: depth * 10) + "\n"
        },
        Case(name: "nested classes", format: .webvtt) {
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n" + String(repeating: "<c.x><v A><ruby>", count: depth) + "la\n"
        },
        Case(name: "open tag", format: .webvtt) {
            "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<" + String(repeating: "c.", count: depth * 5) + "\n"
        },
        Case(name: "open override block", format: .ass) {
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{" + String(repeating: "\\k10{", count: depth)
                + "\n"
        },
        Case(name: "nested drawing and braces", format: .ass) {
            "[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,"
                + String(repeating: "{\\p1}m 0 0 {", count: depth) + "\n"
        },
        Case(name: "tags in note text", format: .ultrastar) {
            "#TITLE:t\n#BPM:300\n: 0 4 0 " + String(repeating: "<b>{", count: depth) + "\nE\n"
        },
        Case(name: "unclosed spans", format: .ttml) {
            "<tt><body><p begin=\"1s\" end=\"2s\">" + String(repeating: "<span begin=\"1s\">", count: depth)
        },
        Case(name: "unclosed comment", format: .ttml) {
            "<tt><body><p begin=\"1s\" end=\"2s\">la</p><!--" + String(repeating: "-", count: depth * 10)
        },
    ]

    @Test("tags nested deep or left open", arguments: unclosed)
    func unclosedTags(_ hostile: Case) {
        parseHostile(Array(hostile.text().utf8), as: hostile.format)
    }

    /// One line of several megabytes with no line break, in each format.
    @Test("an 8 MB line with no line break", arguments: LyricFormat.allCases)
    func longLine(_ format: LyricFormat) {
        var bytes = Array("[00:01.00]".utf8)
        bytes += [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        parseHostile(bytes, as: format)
    }

    /// Control and bidi characters are removed from what is shown, in every format's text and tags.
    @Test("what a song shows carries no control or bidi characters", arguments: LyricFormat.allCases)
    func noControlsShown(_ format: LyricFormat) throws {
        let song = try #require(parseHostile(InjectionText.bytes(format), as: format).song)
        for shown in song.lines.map(\.text) + [song.metadata.title, song.metadata.artist].compactMap({ $0 }) {
            #expect(!shown.unicodeScalars.contains { InjectionText.isForbidden($0) }, "\(shown.debugDescription)")
        }
    }
}

/// Lyric files whose text and tags are full of terminal escapes, C1 controls and bidi overrides.
enum InjectionText {
    /// ESC-led sequences: CSI, OSC 52 (clipboard), OSC 8 (link), OSC 0 (title), DCS, and a bare ESC c (reset).
    static let escapes =
        "\u{1B}[31m\u{1B}]52;c;aGk=\u{07}\u{1B}]8;;http://x\u{1B}\\\u{1B}]0;owned\u{07}\u{1B}P1$q\u{1B}\\\u{1B}c"
    /// C1 controls written as UTF-8 (CSI, OSC, DCS, ST, NEL) and bidi overrides and isolates.
    static let c1AndBidi =
        "\u{9B}2J\u{9D}0;t\u{9C}\u{90}\u{85}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"
    /// Both, around a word so the line is not empty.
    static let payload = escapes + "lamp" + c1AndBidi + " glow" + escapes

    /// The bytes of a small but complete file of `format` with the payload in its tags and every line.
    static func bytes(_ format: LyricFormat) -> [UInt8] {
        guard format == .midi else { return Array(file(format).utf8) }
        // Both lyric conventions, a track name and the `@T` title and artist, all carrying the payload.
        var words = MIDIWriter.Track()
        words.name(payload)
        words.text(0, "@T" + payload)
        words.text(0, "@T" + payload)
        words.text(480, "\\" + payload)
        words.text(960, "/" + payload + "\r")
        words.lyric(1440, payload + " ")
        return MIDIWriter(tracks: [words]).bytes()
    }

    /// A small but complete text file of `format` with the payload in the title, the artist, other tags and every
    /// line; MIDI is binary and made by `bytes`.
    static func file(_ format: LyricFormat) -> String {
        let p = payload
        switch format {
        case .lrc:
            return
                "[ti:\(p)]\n[ar:\(p)]\n[al:\(p)]\n[by:\(p)]\n[00:01.00]\(p)\n[00:03.00]<00:03.00>\(p) <00:04.00>\(p)\n"
        case .srt:
            return "1\n00:00:01,000 --> 00:00:02,000\n\(p)\n\n2\n00:00:03,000 --> 00:00:04,000\n<i>\(p)</i>\n"
        case .webvtt:
            return "WEBVTT \(p)\n\nNOTE \(p)\n\n\(p)\n00:00:01.000 --> 00:00:02.000\n<v \(p)>\(p)\n\n"
                + "00:00:03.000 --> 00:00:05.000\n\(p) <00:00:04.000>\(p)\n"
        case .ass:
            return "[Script Info]\nTitle: \(p)\nOriginal Script: \(p)\n\n[Events]\n"
                + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,\(p),0,0,0,,\(p)\n"
                + "Dialogue: 0,0:00:03.00,0:00:05.00,Default,,0,0,0,,{\\k50}\(p) {\\k50}\(p)\n"
        case .ultrastar:
            return "#TITLE:\(p)\n#ARTIST:\(p)\n#LANGUAGE:\(p)\n#BPM:300\n#GAP:1000\n: 0 8 0 \(p)\n: 8 8 0  \(p)\n- 20\n"
                + "* 24 8 3 \(p)\nE\n"
        case .ttml:
            // XML 1.0 forbids C0 controls even as references, so a parser must refuse them: keep the rest.
            let x = String(String.UnicodeScalarView(p.unicodeScalars.filter { $0.value >= 0x20 }))
            return "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:ttm=\"http://www.w3.org/ns/ttml#metadata\">"
                + "<head><metadata><ttm:title>\(x)</ttm:title><ttm:agent xml:id=\"v1\"><ttm:name>\(x)</ttm:name>"
                + "</ttm:agent></metadata></head><body><div><p begin=\"1s\" end=\"2s\" ttm:agent=\"v1\">\(x)</p>"
                + "<p begin=\"3s\" end=\"5s\"><span begin=\"3s\" end=\"4s\">\(x) </span><span begin=\"4s\" end=\"5s\">\(x)</span></p>"
                + "</div></body></tt>"
        case .midi:
            preconditionFailure("MIDI is binary: InjectionText.bytes makes it")
        }
    }

    /// Whether a character must never reach the terminal from a file: C0 (but tab and newline), DEL, C1, bidi.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return (v < 0x20 && v != 0x09 && v != 0x0A) || v == 0x7F || (0x80...0x9F).contains(v)
            || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }
}
