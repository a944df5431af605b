import Glibc
import KaraokeCore

/// Reads and parses a lyric file, refusing what cannot be used with a message for the user.
enum LyricFile {
    /// A loaded file: the song (or plain lyrics) and the warnings about it.
    struct Loaded {
        /// The lyrics: a timed song, or plain lyrics (only where they were accepted).
        var content: LyricsContent
        var diagnostics: [Diagnostic]
        /// The name to show when the file has no `[ti:]`: its last path component.
        var fallbackTitle: String
        /// The CD+G file's bytes, for `.graphics` content (an MP3+G song, DESIGN §19.7).
        var graphics: [UInt8]?

        /// A loaded timed song.
        init(song: Song, diagnostics: [Diagnostic], fallbackTitle: String) {
            self.init(content: .timed(song), diagnostics: diagnostics, fallbackTitle: fallbackTitle)
        }

        /// Loaded lyrics.
        init(content: LyricsContent, diagnostics: [Diagnostic], fallbackTitle: String) {
            self.content = content
            self.diagnostics = diagnostics
            self.fallbackTitle = fallbackTitle
        }

        /// The song: the timed one, or a song without lines for plain lyrics.
        var song: Song { content.song }

        /// The lyrics to show, without translation lines when `showsTranslations` is false.
        func shown(showsTranslations: Bool) -> LyricsContent {
            guard !showsTranslations, case .timed(let song) = content else { return content }
            return .timed(song.withoutTranslations())
        }
    }

    /// Why a file could not be used; `message` is the text after `karaoke: `.
    struct Failure: Error {
        /// The text after `karaoke: `.
        private(set) var message: String
        /// The file the message is about (as shown), when it names one; a queue names it its own way.
        private(set) var file: String?
        /// The message without the file: `no such file`, `no lyrics found (looked beside it, in its tags)`.
        private(set) var reason: String
        /// Diagnostics found before giving up (a file without timed lines still has its warnings).
        var diagnostics: [Diagnostic] = []
        /// Whether the search for an audio file's lyrics found nothing (rather than something unusable).
        private(set) var isNotFound = false

        /// A failure worded as `message`, which names no file a queue could show apart from its reason.
        init(message: String, diagnostics: [Diagnostic] = []) {
            self.message = message
            reason = message
            self.diagnostics = diagnostics
        }

        /// `FILE: reason`, with `file` as shown.
        init(file: String, reason: String, diagnostics: [Diagnostic] = []) {
            message = "\(file): \(reason)"
            self.file = file
            self.reason = reason
            self.diagnostics = diagnostics
        }

        /// The search for an audio file's lyrics found nothing: worded as `play` says it, with the reason
        /// apart for a queue.
        init(notFound: LyricsLookup.NotFound) {
            message = notFound.message
            file = notFound.audio
            reason = notFound.reason
            isNotFound = true
        }

        /// Adds `hint` after the message and the reason: `…; '--fetch' asks LRCLIB`.
        mutating func add(hint: String) {
            message += hint
            reason += hint
        }
    }

    /// Loads the file of a `play` or `render` request; when it cannot be used, prints why on stderr
    /// (its diagnostics, then `karaoke: FILE: reason`) and returns nil, for exit status 1.
    static func loadOrReport(_ path: String, maxSize: Int, encoding: String? = nil) -> Loaded? {
        switch load(path, maxSize: maxSize, encoding: encoding) {
        case .success(let loaded):
            return loaded
        case .failure(let failure):
            StandardStreams.report(failure.diagnostics)
            StandardStreams.err("karaoke: \(failure.message)")
            return nil
        }
    }

    /// Reads `path` (refusing more than `maxSize` bytes), decodes it and parses it in the format its
    /// content (else its extension) shows.
    ///
    /// With `acceptsPlain`, a `.txt` file that is no lyric format and has no timed line (such as the untimed
    /// lyrics `fetch --save` writes) is read as plain lyrics (DESIGN §10.1); without it, that is a failure.
    static func load(
        _ path: String, maxSize: Int, encoding: String? = nil, acceptsPlain: Bool = false
    ) -> Result<Loaded, Failure> {
        let shown = ControlCharacters.strip(path)
        let bytes: [UInt8]
        switch read(path, maxSize: maxSize) {
        case .success(let data): bytes = data
        case .failure(let failure): return .failure(Failure(file: shown, reason: failure.message))
        }
        if LyricFormat.isMIDI(bytes: bytes, fileName: shown) {
            return loadMIDI(bytes, shown: shown, encoding: encoding)
        }
        var notes: [Diagnostic] = []
        let utf8: [UInt8]
        if let encoding {
            switch TextEncoding.convert(bytes, from: encoding) {
            case .success(let text):
                // A converted UTF-8 or UTF-16 file may still open with a byte order mark.
                utf8 = text.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(text.dropFirst(3)) : text
            case .failure(.unknownEncoding(let name)):
                return .failure(
                    Failure(
                        message: "unknown encoding '\(ControlCharacters.strip(name))' "
                            + "('iconv -l' lists the names)"))
            case .failure(.invalidBytes(let name, let offset)):
                return .failure(
                    Failure(
                        file: shown,
                        reason:
                            "not valid \(ControlCharacters.strip(name)) (byte \(offset + 1)); try another --encoding"))
            }
        } else {
            switch SourceText.utf8(from: bytes) {
            case .success(let text):
                if TextEncoding.isMostlyUTF8(text) {
                    utf8 = text
                } else if let declared = TextEncoding.declared(in: text),
                    case .success(let converted) = TextEncoding.convert(text, from: declared)
                {
                    // The file names its encoding (UltraStar's #ENCODING): no guess, no warning.
                    utf8 = converted
                } else if let guess = TextEncoding.guess(text) {
                    // Never mojibake without a word: say what was guessed and how to choose.
                    utf8 = guess.utf8
                    notes.append(
                        Diagnostic(
                            .warning, file: shown, line: 0, column: 0,
                            "not UTF-8; read as \(guess.encoding), a guess (--encoding NAME chooses another)"))
                } else {
                    utf8 = text
                }
            case .failure: return .failure(Failure(file: shown, reason: "not a text file (binary data)"))
            }
        }
        let result = LyricsReader.parse(utf8, file: shown)
        guard let song = result.song else {
            // The parser's own error says the same as the message; only the warnings are kept with it.
            // Another error (TTML without libxml2) is the message itself.
            let warnings = result.diagnostics.filter { $0.severity == .warning }
            if let error = TTMLParser.libraryMissingError(in: result) {
                return .failure(Failure(file: shown, reason: "\(error)", diagnostics: notes + warnings))
            }
            let format = LyricFormat.detect(utf8: utf8, fileName: shown)
            if acceptsPlain, format == .lrc, shown.lowercased().hasSuffix(".txt") {
                let plain = PlainLyrics(text: String(decoding: utf8, as: UTF8.self))
                // A line that opens like a timestamp says the file meant to be LRC: its faults are shown instead.
                let meantTimed = plain.lines.contains { line in
                    line.first == "[" && line.dropFirst().first?.isNumber == true
                }
                if !plain.isEmpty, !meantTimed {
                    let name = shown.split(separator: "/").last.map(String.init) ?? shown
                    return .success(Loaded(content: .plain(plain), diagnostics: notes, fallbackTitle: name))
                }
            }
            let hint =
                format == .lrc
                ? " (a lyric line starts with a timestamp such as '[00:12.34]')"
                : " (read as \(format.displayName))"
            return .failure(
                Failure(file: shown, reason: "no timed lyric line" + hint, diagnostics: notes + warnings))
        }
        let name = shown.split(separator: "/").last.map(String.init) ?? shown
        return .success(Loaded(song: song, diagnostics: notes + result.diagnostics, fallbackTitle: name))
    }

    /// A MIDI karaoke file, read from its bytes: the parser decodes the lyric text itself (in `encoding` when given).
    static func loadMIDI(_ bytes: [UInt8], shown: String, encoding: String?) -> Result<Loaded, Failure> {
        if let encoding, case .failure(.unknownEncoding(let name)) = TextEncoding.convert([], from: encoding) {
            return .failure(
                Failure(message: "unknown encoding '\(ControlCharacters.strip(name))' ('iconv -l' lists the names)"))
        }
        let result = MIDIKaraokeParser.parse(bytes, file: shown, encoding: encoding)
        guard let song = result.song else {
            // The parser's error says why (not MIDI, no lyrics, cut short): it is the reason, the warnings go before.
            let warnings = result.diagnostics.filter { $0.severity == .warning }
            let error = result.diagnostics.last { $0.severity == .error }?.message ?? "no lyrics in the MIDI file"
            return .failure(Failure(file: shown, reason: error, diagnostics: warnings))
        }
        let name = shown.split(separator: "/").last.map(String.init) ?? shown
        return .success(Loaded(song: song, diagnostics: result.diagnostics, fallbackTitle: name))
    }

    /// The whole file, or why not.
    static func read(_ path: String, maxSize: Int) -> Result<[UInt8], Failure> {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return .failure(Failure(message: describe(errno))) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Failure(message: describe(errno))) }
        if info.st_mode & S_IFMT == S_IFDIR { return .failure(Failure(message: "is a directory")) }
        if info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) > maxSize {
            return .failure(
                Failure(
                    message: "\(megabytes(Int(info.st_size))) MB is over the --max-size "
                        + "limit of \(megabytes(maxSize)) MB"))
        }
        var data: [UInt8] = []
        data.reserveCapacity(info.st_mode & S_IFMT == S_IFREG ? Int(info.st_size) : 65536)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(Failure(message: describe(errno)))
            }
            if count == 0 { break }
            data.append(contentsOf: chunk[0..<count])
            // A pipe or device has no size up front: stop as soon as it passes the limit.
            if data.count > maxSize {
                return .failure(Failure(message: "over the --max-size limit of \(megabytes(maxSize)) MB"))
            }
        }
        return .success(data)
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + 524_288) / 1_048_576
        return "\(tenths / 10).\(tenths % 10)"
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ENOENT: return "no such file"
        case EACCES: return "permission denied"
        case EISDIR: return "is a directory"
        default: return String(cString: strerror(code)).lowercased()
        }
    }
}
