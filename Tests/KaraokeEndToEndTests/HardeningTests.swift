import Foundation
import Testing

// Hostile files, sizes, terminals and signals against the real binary. Every wait has a deadline, and
// the suites together stay under about three minutes on a slow two-core machine.

/// Runs the binary and keeps its output as raw bytes, which `KaraokeProcess.run` would decode.
enum RawProcess {
    typealias Output = KaraokeProcess.RawOutput

    /// Runs `executable arguments` (the karaoke binary by default) with stdin from /dev/null.
    static func run(
        _ arguments: [String], executable: String = KaraokeProcess.binary.path,
        timeout: Double = 60
    ) throws -> Output {
        try KaraokeProcess.runRaw(arguments, executable: executable, timeout: timeout)
    }
}

/// What a byte stream may contain on its way to a terminal, and what in it breaks that.
enum TerminalBytes {
    /// Which escape sequences a stream may hold.
    enum Allowance {
        /// None: plain text and newlines (`render --format text|json`, `check`).
        case plain
        /// SGR (`ESC [ … m`) and BDSM (`ESC [ 8 h`, `ESC [ 8 l`), which `render --format ansi` writes itself.
        case sgr
        /// What ncurses writes to draw: CSI sequences that move, erase, scroll, set modes and colours;
        /// charset, keypad and cursor-save escapes; CR, LF, BS, TAB.
        case ncurses
    }

    /// CSI final bytes ncurses uses for drawing with xterm-like terminfo entries. Not among them: `t`
    /// (window operations, but for the title stack push and pop that xterm's smcup and rmcup write:
    /// `CSI 22;0;0 t`, `CSI 23;0;0 t`), `c` and `n` (queries), `q`, `p` and `x` (cursor style, mode requests).
    static let drawingFinals = Set("@ABCDEFGHJKLMPSTXZ`bdfhlmrsu".utf8)

    /// Escape sequences a file's text must never produce: OSC, DCS, APC, PM, SOS, RIS and friends.
    static func problems(in bytes: [UInt8], allowing allowance: Allowance) -> [String] {
        var problems: [String] = []
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // A raw C1 byte (0x9B CSI, 0x9D OSC) is never valid UTF-8 on its own.
            let bad = bytes.indices.first { index in
                String(validating: bytes[..<(index + 1)], as: UTF8.self) == nil
                    && String(validating: bytes[..<min(bytes.count, index + 4)], as: UTF8.self) == nil
            }
            return [
                "not UTF-8 near byte \(bad ?? -1): \(Array(bytes[max(0, (bad ?? 0) - 8)..<min(bytes.count, (bad ?? 0) + 8)]))"
            ]
        }
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func context() -> String {
            String(String.UnicodeScalarView(scalars[max(0, index - 12)..<min(scalars.count, index + 12)]))
                .debugDescription
        }
        while index < scalars.count {
            let value = scalars[index].value
            if value == 0x1B {
                let length = escapeLength(scalars, at: index, allowing: allowance)
                if length == 0 {
                    problems.append("escape sequence not allowed here at scalar \(index): \(context())")
                    index += 1
                } else {
                    index += length
                }
                continue
            }
            let allowedControls: Set<UInt32> = allowance == .ncurses ? [0x08, 0x09, 0x0A, 0x0D] : [0x0A]
            if (value < 0x20 && !allowedControls.contains(value)) || value == 0x7F || (0x80...0x9F).contains(value) {
                problems.append(
                    "control U+\(String(value, radix: 16, uppercase: true)) at scalar \(index): \(context())")
            }
            if (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value) {
                problems.append(
                    "bidi control U+\(String(value, radix: 16, uppercase: true)) at scalar \(index): \(context())")
            }
            index += 1
        }
        return problems
    }

    /// The length of the allowed escape sequence at `index`, or 0 when the one there is not allowed.
    static func escapeLength(_ scalars: [Unicode.Scalar], at index: Int, allowing allowance: Allowance) -> Int {
        guard allowance != .plain, index + 1 < scalars.count else { return 0 }
        let next = scalars[index + 1]
        if next == "[" {
            // CSI: parameter bytes 0x30–0x3F, intermediate bytes 0x20–0x2F, one final byte 0x40–0x7E.
            var end = index + 2
            var parameters = ""
            while end < scalars.count, (0x30...0x3F).contains(scalars[end].value) {
                parameters.unicodeScalars.append(scalars[end]); end += 1
            }
            var intermediates = 0
            while end < scalars.count, (0x20...0x2F).contains(scalars[end].value) { intermediates += 1; end += 1 }
            guard end < scalars.count, (0x40...0x7E).contains(scalars[end].value) else { return 0 }
            let final = UInt8(scalars[end].value)
            switch allowance {
            case .plain: return 0
            case .sgr:
                let isSGR = final == UInt8(ascii: "m") && parameters.allSatisfy { $0.isNumber || $0 == ";" }
                let isBDSM = parameters == "8" && (final == UInt8(ascii: "h") || final == UInt8(ascii: "l"))
                return intermediates == 0 && (isSGR || isBDSM) ? end - index + 1 : 0
            case .ncurses:
                let titleStack =
                    final == UInt8(ascii: "t") && (parameters.hasPrefix("22;") || parameters.hasPrefix("23;"))
                // karaoke's own question at start-up, before any text (DESIGN §3.6): DECRQM 2027
                // (`CSI ? 2027 $ p`) and the device attributes (`CSI c`).
                let graphemeQuestion =
                    (parameters == "?2027" && intermediates == 1 && scalars[end - 1] == "$"
                        && final == UInt8(ascii: "p"))
                    || (parameters.isEmpty && intermediates == 0 && final == UInt8(ascii: "c"))
                if graphemeQuestion { return end - index + 1 }
                return intermediates == 0 && (drawingFinals.contains(final) || titleStack) ? end - index + 1 : 0
            }
        }
        guard allowance == .ncurses else { return 0 }
        // Charset designation (ESC ( B, ESC ) 0), keypad modes (ESC =, ESC >), save/restore cursor, reverse index.
        if next == "(" || next == ")" {
            return index + 2 < scalars.count && "B0".unicodeScalars.contains(scalars[index + 2]) ? 3 : 0
        }
        return "=>78M".unicodeScalars.contains(next) ? 2 : 0
    }
}

/// Lyric files of every format whose text and tags are full of terminal escapes, C1 and bidi controls.
enum InjectionFiles {
    /// ESC-led sequences: CSI, OSC 52 (clipboard), OSC 8 (link), OSC 0 (title), DCS, and ESC c (reset).
    static let escapes =
        "\u{1B}[31m\u{1B}]52;c;aGk=\u{07}\u{1B}]8;;http://x\u{1B}\\\u{1B}]0;owned\u{07}\u{1B}P1$q\u{1B}\\\u{1B}c"
    /// C1 controls as UTF-8 (CSI, OSC, ST, DCS, NEL) and the bidi embeddings, overrides and isolates.
    static let c1AndBidi =
        "\u{9B}2J\u{9D}0;t\u{9C}\u{90}\u{85}\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}\u{2066}\u{2067}\u{2068}\u{2069}"
    /// Both, around words so that lines are not empty.
    static let payload = escapes + "lamp" + c1AndBidi + " glow" + escapes
    /// What stands for raw C1 bytes (not UTF-8) in the text; replaced after encoding.
    static let rawMarker = "@RAW@"

    /// The formats, by the extension each file gets.
    static let extensions = ["lrc", "srt", "vtt", "ass", "txt", "ttml"]

    /// A complete file with the payload in the title, the artist, other tags and every line; with
    /// `raw`, bytes 0x9B, 0x9D and 0x90 on their own (broken UTF-8) in the lines too.
    static func file(_ fileExtension: String, raw: Bool) -> [UInt8] {
        let p = payload + (raw ? rawMarker : "")
        let text: String
        switch fileExtension {
        case "lrc":
            text =
                "[ti:\(p)]\n[ar:\(p)]\n[al:\(p)]\n[by:\(p)]\n[x\(p):y]\n[00:01.00]\(p)\n"
                + "[00:03.00]<00:03.00>\(p) <00:04.00>\(p)\n[00:0\(p)5.00]broken\n"
        case "srt":
            text =
                "1\n00:00:01,000 --> 00:00:02,000\n\(p)\n\n2\n00:00:03,000 --> 00:00:05,000\n<i>\(p)</i>\n"
                + "<font color=\"\(p)\">\(p)</font>\n\n3\n00:0\(p)0:06,000 --> x\n"
        case "vtt":
            text =
                "WEBVTT \(p)\n\nNOTE \(p)\n\n\(p)\n00:00:01.000 --> 00:00:02.000\n<v \(p)>\(p)\n\n"
                + "00:00:03.000 --> 00:00:05.000\n\(p) <00:00:04.000>\(p)\n\n00:00:0\(p)6.000 --> x\n"
        case "ass":
            text =
                "[Script Info]\nTitle: \(p)\nOriginal Script: \(p)\n\n[Events]\n"
                + "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
                + "Dialogue: 0,0:00:01.00,0:00:02.00,Default,\(p),0,0,0,,\(p)\n"
                + "Dialogue: 0,0:00:03.00,0:00:05.00,Default,,0,0,0,,{\\k50}\(p) {\\k50}\(p)\n"
                + "Dialogue: 0,0:0\(p)0:06.00,0:00:07.00,Default,,0,0,0,,broken\n"
        case "txt":
            text =
                "#TITLE:\(p)\n#ARTIST:\(p)\n#LANGUAGE:\(p)\n#\(p):x\n#BPM:300\n#GAP:1000\n: 0 8 0 \(p)\n: 8 8 0  \(p)\n"
                + "- 20\n* 24 8 3 \(p)\n: 3\(p)0 x 0 broken\nE\n"
        default:
            // XML 1.0 forbids C0 controls even as character references: a parser must refuse those.
            let x = String(String.UnicodeScalarView(p.unicodeScalars.filter { $0.value >= 0x20 }))
            text =
                "<tt xmlns=\"http://www.w3.org/ns/ttml\" xmlns:ttm=\"http://www.w3.org/ns/ttml#metadata\">"
                + "<head><metadata><ttm:title>\(x)</ttm:title><ttm:agent xml:id=\"v1\"><ttm:name>\(x)</ttm:name>"
                + "</ttm:agent></metadata></head><body><div><p begin=\"1s\" end=\"2s\" ttm:agent=\"v1\">\(x)</p>"
                + "<p begin=\"3s\" end=\"5s\"><span begin=\"3s\" end=\"4s\">\(x) </span><span begin=\"4s\" end=\"5s\">\(x)</span></p>"
                + "<p begin=\"0\(x)6s\" end=\"x\">broken</p></div></body></tt>\n"
        }
        var bytes: [UInt8] = []
        let marker = Array(rawMarker.utf8)
        let utf8 = Array(text.utf8)
        var index = 0
        while index < utf8.count {
            if utf8[index...].starts(with: marker) {
                bytes += [0x9B, 0x32, 0x4A, 0x9D, 0x30, 0x3B, 0x74, 0x07, 0x90]
                index += marker.count
            } else {
                bytes.append(utf8[index])
                index += 1
            }
        }
        return bytes
    }
}

/// Each case has a folder and a pseudo-terminal of its own; a play case mostly waits out its 2.5 s, so four of them
/// share the machine at a time.
@Suite("Hardening: no escape from a lyric file reaches the terminal", .concurrencyLimit(4))
struct InjectionTests {
    /// A case: a format's file, with or without raw C1 bytes.
    struct Case: CustomTestStringConvertible, Sendable {
        var fileExtension: String
        var raw: Bool
        var testDescription: String { ".\(fileExtension)" + (raw ? " with raw C1 bytes" : "") }
    }

    static let cases = InjectionFiles.extensions.flatMap {
        [Case(fileExtension: $0, raw: false), Case(fileExtension: $0, raw: true)]
    }

    @Test("render text, ansi and json and check print no escape, C1 or bidi control from the file", arguments: cases)
    func renderAndCheck(_ hostile: Case) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("hostile.\(hostile.fileExtension)").path
        try #require(
            FileManager.default.createFile(
                atPath: path, contents: Data(InjectionFiles.file(hostile.fileExtension, raw: hostile.raw))))

        let check = try RawProcess.run(["check", path])
        #expect(check.reason == .exit)
        #expect(TerminalBytes.problems(in: check.stdout, allowing: .plain) == [], "check stdout")
        #expect(TerminalBytes.problems(in: check.stderr, allowing: .plain) == [], "check stderr")
        var rendered = false
        for format in ["text", "ansi", "json"] {
            for at in ["0", "1.5", "3.5"] {
                let render = try RawProcess.run([
                    "render", path, "--at", at, "--cols", "60", "--rows", "14", "--format", format,
                ])
                #expect(render.reason == .exit, "render --format \(format) --at \(at) was killed")
                rendered = rendered || render.status == 0
                let allowance: TerminalBytes.Allowance = format == "ansi" ? .sgr : .plain
                #expect(
                    TerminalBytes.problems(in: render.stdout, allowing: allowance) == [],
                    "render \(format) at \(at): stdout")
                #expect(
                    TerminalBytes.problems(in: render.stderr, allowing: .plain) == [],
                    "render \(format) at \(at): stderr")
            }
        }
        // The LRC files must play, or the test would prove nothing; the others do once `karaoke` reads their format.
        if hostile.fileExtension == "lrc" { #expect(rendered) }
    }

    /// The measuring tool: in KARAOKE_TOOLS when set, else in ../shared/tools beside the repository.
    static let ttymeasure =
        (ProcessInfo.processInfo.environment["KARAOKE_TOOLS"].map { URL(fileURLWithPath: $0) }
        ?? KaraokeProcess.repository.deletingLastPathComponent().appendingPathComponent("shared/tools"))
        .appendingPathComponent("ttymeasure.py").path
    static var canMeasure: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
            && FileManager.default.fileExists(atPath: ttymeasure)
    }

    @Test(
        "play in a pseudo-terminal writes only what ncurses draws with",
        .enabled(if: canMeasure, "needs python3 and ttymeasure.py (KARAOKE_TOOLS or ../shared/tools)"), arguments: cases
    )
    func play(_ hostile: Case) throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("hostile.\(hostile.fileExtension)").path
        try #require(
            FileManager.default.createFile(
                atPath: path, contents: Data(InjectionFiles.file(hostile.fileExtension, raw: hostile.raw))))
        let capture = folder.appendingPathComponent("capture").path
        let report = try RawProcess.run(
            [
                "python3", Self.ttymeasure, "--cols", "60", "--rows", "16", "--seconds", "2.5",
                "--steady-from", "0", "--stop-keys", "q", "--grace", "3",
                "--save-capture", capture, "--", KaraokeProcess.binary.path,
                "play", "--no-audio", "--start", "0.5", path,
            ],
            executable: "/usr/bin/env", timeout: 60)
        let raw = try #require(
            FileManager.default.contents(atPath: capture + ".raw"),
            "no capture: \(String(decoding: report.stderr, as: UTF8.self))")
        #expect(!raw.isEmpty)
        let problems = TerminalBytes.problems(in: [UInt8](raw), allowing: .ncurses)
        #expect(problems == [], "\(problems.prefix(5))")
        // Neither an OSC, DCS or string introducer, nor a raw C1 byte outside a UTF-8 sequence.
        #expect(![UInt8](raw).adjacentPairs().contains { $0 == (0x1B, 0x5D) || $0 == (0x1B, 0x50) })
    }
}

/// `adjacentPairs` for byte arrays without swift-algorithms.
extension Array where Element == UInt8 {
    func adjacentPairs() -> [(UInt8, UInt8)] { indices.dropLast().map { (self[$0], self[$0 + 1]) } }
}

/// Runs a shell command line with bash (for PIPESTATUS and redirections), giving its output as text.
func bash(_ script: String, timeout: Double = 60) throws -> RawProcess.Output {
    try RawProcess.run(["-c", script], executable: "/bin/bash", timeout: timeout)
}

/// The path quoted for a shell command line.
func quoted(_ path: String) -> String { "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'" }

@Suite("Hardening: hostile sizes", .concurrencyLimit(1, runLimit: .seconds(300)))
struct HostileSizeTests {
    static let lantern = KaraokeProcess.song("lantern-river.lrc")

    @Test("a file over --max-size is refused with both sizes in the message")
    func overMaxSize() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("two.lrc").path
        try #require(
            FileManager.default.createFile(
                atPath: path, contents: Data(("[00:01.00]" + String(repeating: "la ", count: 700_000)).utf8)))
        for command in [["check", path, "--max-size", "1"], ["render", path, "--at", "1", "--max-size", "1"]] {
            let result = try RawProcess.run(command)
            #expect(result.status == 1)
            let message = String(decoding: result.stderr, as: UTF8.self)
            #expect(message.contains("2.0 MB is over the --max-size limit of 1.0 MB"), "\(message)")
        }
    }

    /// Checked by hand on a real 500 MB file too: refused in the same few milliseconds, by its size. That
    /// nothing of it is read is shown by the kernel's count of the bytes karaoke read (`rchar`), which a shell
    /// collects from the child it waited for, not by a time, which a loaded machine stretches.
    @Test("a 500 MB file (sparse) is refused by its size, without reading it")
    func sparseHalfGigabyte() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.lrc").path
        let fd = open(path, O_CREAT | O_WRONLY, 0o644)
        try #require(fd >= 0)
        let truncated = ftruncate(fd, 500 << 20)
        close(fd)
        try #require(truncated == 0, "ftruncate is not supported here")
        // The shell runs karaoke, waits for it (which adds its I/O counts to the shell's), then says its status
        // and the shell's counts.
        let script = "\"$0\" check \"$1\"; echo status=$?; cat /proc/$$/io"
        let result = try RawProcess.run(
            ["-c", script, KaraokeProcess.binary.path, path], executable: "/bin/sh")
        let output = String(decoding: result.stdout, as: UTF8.self)
        #expect(output.contains("status=1\n"), "\(output)")
        #expect(
            String(decoding: result.stderr, as: UTF8.self).contains("500.0 MB is over the --max-size limit of 64.0 MB"))
        let read = output.split(separator: "\n").first { $0.hasPrefix("rchar: ") }.flatMap { Int($0.dropFirst(7)) }
        let bytesRead = try #require(read, "no rchar in \(output)")
        // karaoke reads its terminfo and locale files, a few hundred kilobytes; the file would be 500 MB.
        #expect(bytesRead < 8 << 20, "read \(bytesRead) bytes")
    }

    @Test("a 50 MB single line is read, checked and drawn without hanging")
    func fiftyMegabyteLine() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("line.lrc").path
        // 50 MiB of "aa aa aa …", made by the standard library in one go (a per-byte loop in this debug build
        // took seconds of the test's own).
        let line = String(repeating: "aa ", count: (50 << 20) / 3) + "aa"
        try #require(FileManager.default.createFile(atPath: path, contents: Data(("[00:01.00]" + line + "\n").utf8)))
        // A debug build takes about 3 s for each; the limits leave room for a slow machine.
        let check = try RawProcess.run(["check", path], timeout: 90)
        #expect(check.status == 0 && check.reason == .exit, "\(String(decoding: check.stderr, as: UTF8.self))")
        #expect(String(decoding: check.stdout, as: UTF8.self).contains("1 line"))
        let render = try RawProcess.run(["render", path, "--at", "2", "--cols", "80", "--rows", "24"], timeout: 90)
        #expect(render.status == 0 && render.reason == .exit)
        #expect(String(decoding: render.stdout, as: UTF8.self).contains("aa aa aa"))
    }

    @Test(
        "render draws a frame at tiny and lopsided sizes",
        arguments: [(1, 1), (2, 200), (300, 2), (1, 1000), (1000, 1)])
    func tinySizes(_ size: (columns: Int, rows: Int)) throws {
        for format in ["text", "ansi", "json"] {
            let result = try RawProcess.run([
                "render", Self.lantern, "--at", "20", "--cols", "\(size.columns)",
                "--rows", "\(size.rows)", "--format", format,
            ])
            #expect(result.status == 0, "\(format): \(String(decoding: result.stderr, as: UTF8.self))")
            if format == "text" {
                #expect(
                    String(decoding: result.stdout, as: UTF8.self).split(
                        separator: "\n", omittingEmptySubsequences: false
                    )
                    .count == size.rows + 1)
            }
        }
    }

    @Test(
        "play survives being resized 50 times a second for 3 s, then quits cleanly on q",
        .enabled(if: TmuxSession.isAvailable, "needs tmux"))
    func resizeStorm() throws {
        let session = try TmuxSession("'\(KaraokeProcess.binary.path)' play --no-audio \(Self.lantern) --start 18")
        try session.waitFor { $0.contains { $0.contains("Lantern River") } }
        let sizes = [(80, 24), (20, 5), (1, 1), (150, 50), (2, 40), (60, 3), (200, 60)]
        for step in 0..<150 {
            let (columns, rows) = sizes[step % sizes.count]
            try session.resize(columns: columns, rows: rows)
            usleep(20_000)
        }
        try session.resize(columns: 80, rows: 24)
        let screen = try session.waitFor { $0.contains { $0.contains("Lantern River") } }
        #expect(screen.contains { $0.contains("Lantern River") }, "still drawing after the storm")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }
}

@Suite("Hardening: signals and faults", .concurrencyLimit(1, runLimit: .seconds(300)))
struct FaultTests {
    static let lantern = KaraokeProcess.song("lantern-river.lrc")

    /// 1000×1000 JSON is 80 KB, more than a pipe holds, so the write after `head` has gone always fails.
    @Test("render into a pipe closed early ends quietly with status 141, as a program SIGPIPE ends")
    func brokenPipeRender() throws {
        let result = try bash(
            "\(quoted(KaraokeProcess.binary.path)) render \(quoted(Self.lantern)) --at 20 --format json "
                + "--cols 1000 --rows 1000 | head -c 10 >/dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "status 141\n")
        #expect(result.stderr.isEmpty, "\(String(decoding: result.stderr, as: UTF8.self))")
    }

    @Test("check of many files into a pipe closed early stops at once with status 141")
    func brokenPipeCheck() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createSymbolicLink(
            atPath: folder.appendingPathComponent("a.lrc").path,
            withDestinationPath: Self.lantern)
        // 4000 summary lines, short names so the command line fits.
        let files = Array(repeating: "a.lrc", count: 4000).joined(separator: " ")
        let result = try bash(
            "cd \(quoted(folder.path)) && \(quoted(KaraokeProcess.binary.path)) check \(files) "
                + "| head -c 10 >/dev/null; echo \"status ${PIPESTATUS[0]}\"")
        #expect(String(decoding: result.stdout, as: UTF8.self) == "status 141\n")
        #expect(result.stderr.isEmpty)
    }

    @Test(
        "play with stdin closed says why and exits instead of hanging",
        .enabled(if: TmuxSession.isAvailable, "needs tmux"))
    func closedStdin() throws {
        let session = try TmuxSession("'\(KaraokeProcess.binary.path)' play --no-audio \(Self.lantern) <&-")
        let status = try session.exitStatus(timeout: 10)
        let screen = try session.screen()
        #expect(status == 2, "\(screen)")
        #expect(
            screen.joined(separator: " ").contains("karaoke: play needs a terminal on stdin and stdout"), "\(screen)")
        #expect(!screen.contains { $0.contains("Fatal error") || $0.contains("Crash") || $0.contains("Backtrace") })
    }

    /// CPU ticks (user + system) of a process, from /proc; nil once it has gone or is a zombie.
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, utime 14, stime 15 (1-based over the whole line).
        guard fields.count > 13, fields[0] != "Z", let user = Int(fields[11]), let system = Int(fields[12]) else {
            return nil
        }
        return user + system
    }

    /// With `ignoringHangup` the session's shell ignores SIGHUP, as under nohup: the kernel then tells only
    /// that shell, and the player must see the hang-up in its own reads (it spun a core before it did).
    @Test(
        "when the terminal goes away (tmux killed), play exits within seconds without spinning",
        .enabled(if: TmuxSession.isAvailable, "needs tmux"), arguments: [false, true])
    func terminalGone(ignoringHangup: Bool) throws {
        let player = "'\(KaraokeProcess.binary.path)' play --no-audio \(Self.lantern) --start 18"
        // The wrapper runs `env TERM=… COMMAND`: `true` takes the env, then the trap applies to the shell.
        let session = try TmuxSession(ignoringHangup ? "true; trap '' HUP; TERM=tmux-256color " + player : player)
        try session.waitFor { $0.contains { $0.contains("Lantern River") } }
        let pid = try #require(try session.commandPID())
        let before = try #require(Self.cpuTicks(pid))
        // The tmux server is the terminal: SIGKILL closes the pty's master side at once. (`kill-server`
        // does not work here: a server spawned from a test thread inherits its blocked SIGTERM.)
        let server = try #require(
            Int32(
                try session.tmux(["display-message", "-p", "#{pid}"])
                    .trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(server, SIGKILL)
        let start = Date()
        var last = before
        while let ticks = Self.cpuTicks(pid), Date().timeIntervalSince(start) < 5 {
            last = ticks
            usleep(50_000)
        }
        let alive = Self.cpuTicks(pid) != nil
        let elapsed = Date().timeIntervalSince(start)
        let state = ((try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? "gone")
            .split(separator: "\n").filter { $0.hasPrefix("Sig") || $0.hasPrefix("State") || $0.hasPrefix("PPid") }
            .joined(separator: ", ")
        #expect(!alive, "still running \(elapsed) s after its terminal went away: \(state)")
        if alive { kill(pid, SIGKILL) }
        // 100 ticks a second is a whole core; a process that spins before exiting would show it.
        #expect(Double(last - before) < max(10, 50 * elapsed), "used \(last - before) ticks in \(elapsed) s")
    }
}
