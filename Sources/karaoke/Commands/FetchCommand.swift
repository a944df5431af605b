import Glibc
import KaraokeCore

/// `karaoke fetch`: asks LRCLIB for a song's lyrics and prints them or writes them (DESIGN §11).
///
/// The names come from `--artist`/`--title`, or for each AUDIO from its tags (`readTags`), else its file
/// name `Artist - Title.ext`. The cache is asked first; then `/api/get`, and on 404 `/api/search`. The
/// lyrics go through the LRC parser and writer, as `convert` writes them, so nothing unsafe reaches the
/// terminal or the file.
enum FetchCommand {
    /// How one song's lookup ended.
    enum Outcome {
        /// Lyrics written or printed, or an instrumental said so.
        case done
        /// No lyrics, or a failure already reported.
        case failed
    }

    /// Runs the request; `readTags` gives an audio file's tags (nil when it has none or cannot be read).
    static func run(_ request: FetchRequest, readTags: (String) -> AudioTags? = { _ in nil }) -> Int32 {
        let server = LRCLIBLookup.server(request.server)
        let cache = LRCLIBCache.standard()
        if request.audioFiles.isEmpty {
            let query = LRCLIBQuery(
                artist: request.artist ?? "", title: request.title ?? "", album: request.album,
                duration: request.duration)
            return fetch(query, server: server, cache: cache, request: request, destination: request.output) == .done
                ? 0 : 1
        }
        var status: Int32 = 0
        for audio in request.audioFiles {
            let shown = ControlCharacters.strip(audio)
            guard let query = LRCLIBQuery(tags: readTags(audio), audioPath: audio) else {
                StandardStreams.err(
                    "karaoke: \(shown): no artist and title in its tags or its name (expected 'Artist - Title.ext'); "
                        + "use --artist and --title")
                status = 1
                continue
            }
            let destination = request.save ? base(of: audio) : request.output
            if fetch(query, server: server, cache: cache, request: request, destination: destination) != .done {
                status = 1
            }
        }
        return status
    }

    /// `audio`'s path without its extension, for `--save` to add `.lrc` or `.txt` to.
    static func base(of audio: String) -> String {
        let slash = audio.lastIndex(of: "/").map { audio.index(after: $0) } ?? audio.startIndex
        guard let dot = audio[slash...].lastIndex(of: "."), dot != slash else { return audio }
        return String(audio[..<dot])
    }

    /// Looks one song up and writes what it found: to `destination` (a file with `-o`, a base name to
    /// complete with `--save`), or stdout when nil.
    static func fetch(
        _ query: LRCLIBQuery, server: String, cache: LRCLIBCache?, request: FetchRequest, destination: String?
    ) -> Outcome {
        let asked = ControlCharacters.strip(query.artist) + " — " + ControlCharacters.strip(query.title)
        let records: [LRCLIBRecord]
        switch LRCLIBLookup.records(for: query, server: server, cache: cache) {
        case .success(let found): records = found
        case .failure(let failure):
            StandardStreams.err("karaoke: \(asked): \(failure.message)")
            return .failed
        }
        let ranked = LRCLIBRecord.ranked(records, duration: query.duration)
        guard !ranked.isEmpty else {
            StandardStreams.err("karaoke: \(asked): no lyrics found on \(LRCLIBQuery.host(of: server))")
            return .failed
        }
        guard let chosen = choose(ranked, pick: request.pick) else {
            StandardStreams.err("karaoke: \(asked): none of the candidates taken")
            return .failed
        }
        // The match taken is always named: a search may find a different recording than the one asked for.
        let note = ranked.count > 1 && !request.pick ? " (best of \(ranked.count); --pick chooses)" : ""
        StandardStreams.err("karaoke: found \(chosen.summary) [lrclib:\(chosen.id)]\(note)")
        let text: String
        var fileExtension = ".lrc"
        switch chosen.lyrics() {
        case .instrumental:
            StandardStreams.err("karaoke: \(asked): instrumental, no lyrics")
            return .done
        case .none:
            StandardStreams.err("karaoke: \(asked): no lyrics found on \(LRCLIBQuery.host(of: server))")
            return .failed
        case .timed(let lrc, let warnings):
            StandardStreams.report(warnings)
            text = lrc
        case .untimed(let plain):
            StandardStreams.err(
                "karaoke: warning: \(asked): only untimed lyrics on \(LRCLIBQuery.host(of: server)); written as text")
            text = plain
            fileExtension = ".txt"
        }
        guard let destination else {
            StandardStreams.out(text)
            return .done
        }
        let path = request.save ? destination + fileExtension : destination
        switch TextFile.save(text, to: path, replacing: request.force) {
        case .success:
            if request.save { StandardStreams.err("karaoke: wrote \(ControlCharacters.strip(path))") }
            return .done
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return .failed
        }
    }

    /// The record to take: the first of `ranked`, or with `pick` and a terminal on stdin the one the user
    /// names; nil when the user declines them all.
    static func choose(_ ranked: [LRCLIBRecord], pick: Bool) -> LRCLIBRecord? {
        guard pick, ranked.count > 1 else { return ranked.first }
        guard isatty(STDIN_FILENO) == 1 else {
            StandardStreams.err("karaoke: warning: '--pick' needs a terminal on stdin; taking the best match")
            return ranked.first
        }
        var list = ""
        for (index, record) in ranked.enumerated() { list += "  \(index + 1). \(record.summary)\n" }
        StandardStreams.write(list, to: STDERR_FILENO)
        while true {
            StandardStreams.write("which one? [1-\(ranked.count), Enter for 1, q for none] ", to: STDERR_FILENO)
            guard let answer = readAnswer() else { return nil }
            let trimmed = String(answer.filter { $0 != " " })
            if trimmed.isEmpty { return ranked.first }
            if trimmed == "q" { return nil }
            if let number = Int(trimmed), (1...ranked.count).contains(number) { return ranked[number - 1] }
        }
    }

    /// A line from stdin, without its newline; nil at end of input.
    private static func readAnswer() -> String? {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while read(STDIN_FILENO, &byte, 1) == 1 {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            if bytes.count < 100 { bytes.append(byte) }
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }
}
