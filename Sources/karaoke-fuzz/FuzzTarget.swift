import KaraokeCore

#if canImport(Glibc)
    import Glibc
#endif

/// What one fuzz run exercises: a parser, the format detection, or layout and fill over a parsed song.
///
/// libFuzzer owns `main`, so the target is chosen by the `KARAOKE_FUZZ_TARGET` environment variable
/// (`make fuzz` runs each in turn); the replayer takes it the same way, defaulting to `frame`.
enum FuzzTarget: String, CaseIterable {
    /// `LRCParser.parse` (LRC, Enhanced LRC, ESLyric).
    case lrc
    /// The SRT parser.
    case srt
    /// The WebVTT parser.
    case webvtt
    /// The ASS/SSA parser.
    case ass
    /// The UltraStar parser.
    case ultrastar
    /// The TTML parser (libxml2 underneath).
    case ttml
    /// The MIDI karaoke reader on the raw bytes (no text decoding first), then frames of what it read.
    case midi
    /// Format detection, then whatever parser it picks, then frames at several sizes and times, encoded.
    case frame
    /// The CD+G decoder and report: the bytes as a `.cdg` file, decoded forwards and back (DESIGN §19).
    case cdg
    /// The party's API: the bytes as a run of guests' requests and host's keys against one evening, and as a
    /// journal (DESIGN §20); no request may crash the handler or leave a rotation its rules could not make.
    case party

    /// The target the environment names; an unknown name stops the run at once rather than fuzz the wrong thing.
    static let selected: FuzzTarget = {
        guard let raw = getenv("KARAOKE_FUZZ_TARGET") else { return .frame }
        let name = String(cString: raw)
        guard let target = FuzzTarget(rawValue: name) else {
            print(
                "karaoke-fuzz: unknown KARAOKE_FUZZ_TARGET '\(name)'; expected one of "
                    + FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))
            exit(2)
        }
        return target
    }()

    /// The format this target parses, or nil for the detecting one.
    var format: LyricFormat? {
        switch self {
        case .lrc: return .lrc
        case .srt: return .srt
        case .webvtt: return .webvtt
        case .ass: return .ass
        case .ultrastar: return .ultrastar
        case .ttml: return .ttml
        case .midi: return .midi
        case .frame, .cdg, .party: return nil
        }
    }
}

/// One fuzz input: bytes as a lyric file (or a CD+G file), through the selected target.
///
/// Any input must end in a song or in diagnostics, never in a crash or a hang (issue 2's bad input).
func exercise(_ bytes: [UInt8], target: FuzzTarget = .selected) {
    if target == .midi {
        // Binary: the reader takes the file's bytes as they are, as `LyricFile` hands them over.
        guard let song = MIDIKaraokeParser.parse(bytes, file: "fuzz.kar").song else { return }
        composeFrames(of: song, variant: bytes.count)
        return
    }
    // CD+G is binary: it never goes through the text decoding.
    if target == .cdg { return exerciseGraphics(bytes) }
    if target == .party { return exerciseParty(bytes) }
    guard case .success(let utf8) = SourceText.utf8(from: bytes) else { return }
    switch target {
    case .lrc:
        // The LRC parser directly, as `karaoke` called it before detection existed.
        _ = LRCParser.parse(utf8, file: "fuzz.lrc")
    case .srt, .webvtt, .ass, .ultrastar, .ttml:
        // An explicit format skips detection and calls that parser alone.
        _ = LyricsReader.parse(utf8, file: "fuzz", format: target.format)
    case .midi, .cdg, .party:
        // Binary: read above, before any text decoding.
        break
    case .frame:
        guard let song = LyricsReader.parse(utf8, file: "fuzz").song else { return }
        composeFrames(of: song, variant: bytes.count)
    }
}

/// The party's API over a run of requests: records split at NUL bytes, each a method (its first byte), then path,
/// query and body split at 0x01 bytes; a record starting with 0x02 is a host's key or the next song instead.
/// After each, the reply must be one HTTP can carry and the rotation must survive its journal's checks.
func exerciseParty(_ bytes: [UInt8]) {
    let songs = PartySongs(
        ["one.lrc", "two.kar", "Artist - Three.zip"].map {
            PartySongs.Song(folder: "/songs", path: $0, title: nil, artist: nil, duration: nil)
        })
    var api = PartyAPI(songs: songs, code: "4711", page: Array("<p>page</p>".utf8), rotation: PartyRotation())
    let methods = ["GET", "POST", "DELETE", "PUT", "", "get"]
    for (index, record) in bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(200).enumerated() {
        if record.first == 2 {
            let id = Int(record.dropFirst().first ?? 0) % 8
            switch (record.count + id) % 5 {
            case 0: try? api.rotation.apply(.remove(id))
            case 1: try? api.rotation.apply(.moveUp(id))
            case 2: try? api.rotation.apply(.toggleRequests)
            case 3: _ = api.rotation.next()
            default: api.rotation.putBackCurrent()
            }
        } else {
            let parts = record.dropFirst().split(separator: 1, maxSplits: 2, omittingEmptySubsequences: false)
            let text = { (part: Int) in parts.count > part ? String(decoding: parts[part], as: UTF8.self) : "" }
            let request = HTTPRequest(
                method: methods[Int(record.first ?? 0) % methods.count], path: text(0), query: text(1),
                body: parts.count > 2 ? Array(parts[2]) : [], bodyTooLarge: false, client: "10.0.0.\(index % 3)")
            let reply = api.respond(to: request, at: Double(index))
            precondition((200...599).contains(reply.status), "a status HTTP cannot carry")
            if reply.contentType == PartyAPI.jsonType {
                precondition(reply.body.first == UInt8(ascii: "{") && reply.body.last == UInt8(ascii: "}"), "not JSON")
            }
        }
        let journal = PartyJournal(
            day: "2026-12-02", code: api.code, rotation: api.rotation, scoreboard: PartyScoreboard(), keys: SingerKeys()
        )
        precondition((try? PartyJournal(decoding: Array(journal.encoded().utf8))) == journal, "a journal not read back")
    }
    _ = try? PartyJournal(decoding: bytes)
}

/// A CD+G file: its report, its picture after every packet and at a few moments out of order (a seek back
/// starts again), and the exact time reader on the input's first bytes as text.
func exerciseGraphics(_ bytes: [UInt8]) {
    let report = CDGReport(bytes: bytes)
    _ = report.diagnostics(file: "fuzz.cdg")
    _ = report.summary(file: "fuzz.cdg")
    var decoder = CDGDecoder(bytes: bytes)
    for count in 0...decoder.packetCount {
        decoder.advance(toPacketCount: count)
        if let area = decoder.takeChangedArea() {
            precondition(area.x >= 0 && area.y >= 0 && area.x + area.width <= CDGPicture.width, "area off the picture")
            precondition(area.y + area.height <= CDGPicture.height, "area off the picture")
        }
    }
    _ = decoder.picture.ppm()
    for count in [decoder.packetCount / 2, 1, decoder.packetCount + 5, -1] {
        decoder.advance(toPacketCount: count)
        _ = decoder.picture.rgb24()
    }
    _ = CDGTime(seconds: String(decoding: bytes.prefix(40), as: UTF8.self))
}

/// Frames of `song` at a few sizes (tiny ones included) and times around its first lines, in every encoding,
/// and painted as `play` paints them: one `ScreenWriter` per colour depth gets the frames in turn, so it
/// paints each over the last, then the terminal changes size.
///
/// Which sizes depends on the input's length, so each run composes two of them and stays fast.
func composeFrames(of song: Song, variant: Int) {
    let sizes = [(40, 12), (13, 5), (80, 24), (1, 1), (2, 200), (300, 2)]
    let chosen = [sizes[variant % sizes.count], sizes[(variant / sizes.count + 1) % sizes.count]]
    let depths: [ColorDepth] = [.direct, .indexed256, .basic, .none]
    var writers = depths.map {
        ScreenWriter(codes: .xterm(direct: $0 == .direct), depth: $0, columns: chosen[0].0, rows: chosen[0].1)
    }
    var bytes: [UInt8] = []
    for (step, (columns, rows)) in chosen.enumerated() {
        var options = FrameOptions()
        options.reduceMotion = variant % 2 == 0
        options.alignment = variant % 3 == 0 ? .left : .center
        var composer = FrameComposer(song: song, fallbackTitle: "fuzz", columns: columns, rows: rows, options: options)
        for line in song.lines.prefix(3) {
            let start = Double(line.start - song.metadata.offset) / 1000
            for delta in [-0.1, 0.05, 0.3, 1.0] {
                let frame = composer.frame(at: max(0, start + delta), paused: delta < 0, showsHelp: delta > 0.9)
                _ = frame.textRendering()
                _ = frame.jsonRendering()
                _ = frame.ansiRendering(depth: variant % 5 == 0 ? .direct : .indexed256)
                for row in frame.rows { _ = ScreenRow(row, width: columns, depth: .direct) }
                for index in writers.indices {
                    // After a size change the first frame is painted at the old size too, as when the
                    // terminal shrinks or grows between composing a frame and painting it.
                    if step > 0, writers[index].columns != columns || writers[index].rows != rows {
                        writers[index].write(frame, into: &bytes)
                        writers[index].forgetScreen(columns: columns, rows: rows)
                    }
                    writers[index].write(frame, into: &bytes)
                    bytes.removeAll(keepingCapacity: true)
                }
            }
        }
    }
    for index in writers.indices { writers[index].handOver(row: 0, column: 0, into: &bytes) }
}

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        exercise(Array(UnsafeBufferPointer(start: data, count: size)))
        return 0
    }
#endif
