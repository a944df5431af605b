import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
import Testing

/// A replay of an asciicast up to a moment: the output events' bytes whose time is at or before it, written
/// to stdout as they were recorded, then a wait so the pane keeps them while it is read.
private let replayScript = """
    import json, sys, time
    lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
    until = float(sys.argv[2])
    for line in lines[1:]:
        seconds, kind, text = json.loads(line)
        if seconds > until + 1e-4:
            break
        if kind == "o":
            sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.flush()
    time.sleep(60)
    """

/// `render --format asciicast` through the real binary and a real terminal emulator (DESIGN §26): the
/// recording replayed in tmux up to a moment shows what `render --at` prints for that moment.
@Suite(
    "Recording a span as asciicast",
    .enabled(if: TmuxSession.isAvailable && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")),
    .concurrencyLimit(2, runLimit: .seconds(300)))
struct RecordingTests {
    /// The pane's width, and the recording's.
    static let columns = 60
    /// The pane's height, and the recording's.
    static let rows = 14
    /// The span recorded: from 3 s to 21 s of paper-boats.
    static let start = 3.0
    static let end = 21.0

    /// The recording of paper-boats over the span for `TERM=tmux-256color`, the pane's own type, and its
    /// lines; `SOURCE_DATE_EPOCH` fixes the header's time.
    static func record(into folder: URL) throws -> (file: URL, lines: [String]) {
        let file = folder.appendingPathComponent("paper-boats.cast")
        let output = try KaraokeProcess.run(
            [
                "render", KaraokeProcess.song("paper-boats.lrc"), "--from", "\(start)", "--to", "\(end)",
                "--cols", "\(columns)", "--rows", "\(rows)", "--format", "asciicast", "-o", file.path,
            ],
            environment: ["TERM": "tmux-256color", "SOURCE_DATE_EPOCH": "1700000000"])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.isEmpty && output.stderr.isEmpty)
        let text = try String(contentsOf: file, encoding: .utf8)
        return (file, text.components(separatedBy: "\n").filter { !$0.isEmpty })
    }

    @Test(
        "the header is JSON with version 2, the size, SOURCE_DATE_EPOCH, the title and TERM; events are JSON, in time")
    func headerAndEvents() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let (_, lines) = try Self.record(into: folder)
            let header = try #require(
                try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
            #expect(header["version"] as? Int == 2)
            #expect(header["width"] as? Int == Self.columns)
            #expect(header["height"] as? Int == Self.rows)
            #expect(header["timestamp"] as? Int == 1_700_000_000)
            #expect(header["title"] as? String == "Paper Boats — The Karaoke Band")
            #expect((header["env"] as? [String: String])?["TERM"] == "tmux-256color")
            var last = -1.0
            for line in lines.dropFirst() {
                let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [Any])
                let seconds = try #require(event[0] as? Double)
                #expect(event.count == 3 && event[1] as? String == "o" && (event[2] as? String)?.isEmpty == false)
                #expect(seconds > last, "times increase")
                #expect(seconds <= Self.end - Self.start + 1e-6)
                last = seconds
            }
            #expect(lines.count > 20)
            // The first event is play's set-up: the alternate screen, the cursor hidden, a clear.
            #expect(lines[1].hasPrefix("[0.000000, \"o\", \"\\u001b[?1049h"))
        }
    }

    @Test(
        "replayed in tmux up to a moment, the recording shows the screen render --at draws for it",
        arguments: [
            0.0, // the first frame
            4.5, // a line being swept
            6.3, // mid-word
            9.0, // just after a line change
            13.7, // another sweep
            18.0, // the end of the span
        ])
    func replayMatchesRender(offset: Double) throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let (file, _) = try Self.record(into: folder)
            let script = folder.appendingPathComponent("replay.py")
            try replayScript.write(to: script, atomically: true, encoding: .utf8)
            let time = Self.start + offset
            let render = try KaraokeProcess.run([
                "render", KaraokeProcess.song("paper-boats.lrc"), "--at", "\(time)", "--cols", "\(Self.columns)",
                "--rows", "\(Self.rows)", "--format", "text",
            ])
            #expect(render.status == 0)
            let expected = render.stdout.components(separatedBy: "\n").prefix(Self.rows).map(Self.trimmed)
            let session = try TmuxSession(
                "python3 \(script.path) \(file.path) \(offset)", columns: Self.columns, rows: Self.rows)
            let screen = try session.waitFor { Array($0.prefix(Self.rows)).map(Self.trimmed) == expected }
            #expect(
                Array(screen.prefix(Self.rows)).map(Self.trimmed) == expected,
                "at \(time) s:\n\(screen.joined(separator: "\n"))\nexpected:\n\(expected.joined(separator: "\n"))")
        }
    }

    @Test("--format svg writes one SVG picture: animated over a span, a still with --at; -o refuses to overwrite")
    func svg() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let song = KaraokeProcess.song("paper-boats.lrc")
            let file = folder.appendingPathComponent("demo.svg")
            let animated = try KaraokeProcess.run([
                "render", song, "--from", "8", "--to", "12", "--format", "svg", "--cols", "40", "--rows", "10",
                "-o", file.path,
            ])
            #expect(animated.status == 0, "\(animated.stderr)")
            let picture = try String(contentsOf: file, encoding: .utf8)
            #expect(picture.hasPrefix("<svg") && picture.contains("@keyframes"))
            #expect(XMLParser(data: Data(picture.utf8)).parse())
            let again = try KaraokeProcess.run([
                "render", song, "--from", "8", "--to", "12", "--format", "svg", "-o", file.path,
            ])
            #expect(again.status == 1)
            #expect(again.stderr.contains("exists; --force replaces it"))
            let still = try KaraokeProcess.run(["render", song, "--at", "9.3", "--format", "svg"])
            #expect(still.status == 0)
            #expect(still.stdout.hasPrefix("<svg") && !still.stdout.contains("@keyframes"))
            #expect(XMLParser(data: Data(still.stdout.utf8)).parse())
        }
    }

    @Test("render --score draws an UltraStar song's note lanes above its lyrics; a song without notes gets a warning")
    func lanes() throws {
        let json = try KaraokeProcess.run([
            "render", KaraokeProcess.song("harbour-bells.txt"), "--score", "--at", "6.5", "--cols", "80", "--rows",
            "20", "--format", "json",
        ])
        #expect(json.status == 0, "\(json.stderr)")
        let frame = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let kinds = (frame["screen"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        let firstLanes = try #require(kinds.firstIndex(of: "lanes"), "\(kinds)")
        #expect(kinds.firstIndex(of: "lyric").map { $0 > firstLanes } == true, "\(kinds)")
        let plain = try KaraokeProcess.run([
            "render", KaraokeProcess.song("paper-boats.lrc"), "--score", "--at", "6.5", "--format", "json",
        ])
        #expect(plain.status == 0)
        #expect(plain.stderr.contains("has no notes; --score draws no lanes"))
        #expect(!plain.stdout.contains("\"lanes\""))
    }

    @Test("asciicast to stdout with -o -, the same bytes as to a file")
    func stdout() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let (file, _) = try Self.record(into: folder)
            let printed = try KaraokeProcess.run(
                [
                    "render", KaraokeProcess.song("paper-boats.lrc"), "--from", "\(Self.start)", "--to", "\(Self.end)",
                    "--cols", "\(Self.columns)", "--rows", "\(Self.rows)", "--format", "asciicast", "-o", "-",
                ],
                environment: ["TERM": "tmux-256color", "SOURCE_DATE_EPOCH": "1700000000"])
            #expect(printed.status == 0)
            #expect(printed.stdout == (try String(contentsOf: file, encoding: .utf8)))
        }
    }

    /// A row without its trailing blanks, as `render --format text` writes it.
    static func trimmed(_ row: String) -> String {
        var row = Substring(row)
        while row.last == " " { row.removeLast() }
        return String(row)
    }
}
