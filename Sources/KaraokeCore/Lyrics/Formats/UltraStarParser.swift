import Glibc

/// Reads UltraStar song files (`.txt`): header tags, notes, line breaks and duet parts.
///
/// Every sung note is a word segment and every phrase (the notes between two line breaks) a line. A
/// note's beat becomes file time as the format defines it: `GAP + beat × 60000 / (BPM × 4)`, because
/// the BPM an UltraStar file states counts quarter beats. The reader is lenient the way UltraStar
/// Play is: tag names in any case and with spaces around them, a decimal comma in numbers, no space
/// after the note type, several spaces between fields. A line it cannot use is a warning and skipped.
public enum UltraStarParser {
    /// The tempo assumed when a file has no usable `#BPM` tag: a common one for UltraStar songs.
    ///
    /// UltraStar Play's own test songs leave the tag out, and their notes still have an order and
    /// lengths worth showing, so the song plays at this tempo with a warning instead of not at all.
    static let assumedBPM = 300.0

    /// Parses the UTF-8 text of an UltraStar file (without BOM; see `SourceText`). `file` names it in messages.
    public static func parse(_ utf8: [UInt8], file: String) -> ParseResult {
        var reader = UltraStarReader(file: file)
        utf8.withUnsafeBufferPointer { reader.run($0) }
        return reader.finish()
    }
}

/// A space, which UltraStar puts where a word ends.
private let space = UInt8(ascii: " ")
/// Times beyond 100 hours either way are clamped: they are nonsense, and they must not overflow.
private let timeLimit = Double(ByteScanner.timeLimit)
/// Numbers in notes have at most this many digits; longer ones are malformed, not overflowed.
private let maximumDigits = 9

/// One note as read, in beats: its syllable is a range of the reader's shared syllable bytes.
private struct Note {
    /// The start beat, already absolute in relative mode.
    var beat: Int
    /// How many beats the note lasts.
    var length: Int
    /// The pitch as written: semitones from middle C.
    var pitch: Int
    /// The kind its first letter names.
    var kind: NoteKind
    /// Where its syllable is in `UltraStarReader.syllables`.
    var syllable: Range<Int>
}

/// The notes between two line breaks, and who sings them.
private struct Phrase {
    /// Where its notes are in `UltraStarReader.notes`.
    var notes: Range<Int>
    /// The part that sings it; nil in a song without parts.
    var voice: Voice?
    /// The file line of its first note.
    var sourceLine: Int
}

/// The reader's state while it walks one file.
private struct UltraStarReader {
    /// The warnings so far.
    var log: DiagnosticLog
    /// Title, artist and audio file.
    var metadata = SongMetadata()
    /// `#MP3:`, kept apart because `#AUDIO:` (format 1.1) wins over it whatever their order.
    var mp3: String?
    /// `#AUDIO:`.
    var audio: String?
    /// `#BPM:`, nil until a usable one is read.
    var bpm: Double?
    /// `#GAP:` in milliseconds.
    var gap = 0.0
    /// `#RELATIVE:yes`.
    var relative = false
    /// Every note read, in file order.
    var notes: [Note] = []
    /// The syllables of all notes, control characters already removed, one after another.
    var syllables: [UInt8] = []
    /// The phrases closed so far.
    var phrases: [Phrase] = []
    /// Where the notes of the phrase being read start in `notes`.
    var phraseStart = 0
    /// The file line of the current phrase's first note.
    var phraseLine = 0
    /// The part the notes being read belong to.
    var voice: Voice?
    /// In relative mode, the beat the current phrase's beats count from.
    var relativeBase = 0
    /// The 1-based number of the line being read.
    var lineNumber = 0
    /// Where the line being read starts in the buffer, for columns.
    var lineStart = 0

    /// A reader for the file named `file` in messages.
    init(file: String) { log = DiagnosticLog(file: file) }

    /// The 1-based byte column of `index` on the current line.
    func column(_ index: Int) -> Int { index - lineStart + 1 }

    /// Reads every line up to `E`; LF, CRLF and a lone CR each end a line.
    mutating func run(_ bytes: UnsafeBufferPointer<UInt8>) {
        var lines = TextLines(count: bytes.count)
        while let line = lines.next(bytes) {
            lineNumber += 1
            // `E` ends the song: whatever follows it (notes, comments, a second song) is not read.
            if !readLine(bytes, line) { break }
        }
        endPhrase()
    }

    /// Reads one line; false when it is the end mark `E`.
    mutating func readLine(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        lineStart = range.lowerBound
        let end = range.upperBound
        // A BOM left where a line starts (the caller did not use `SourceText`, or two files were joined).
        let i = ByteScanner.skip(
            bytes, from: ByteScanner.skipByteOrderMark(bytes, at: range.lowerBound, end: end), to: end)
        guard i < end else { return true }
        switch bytes[i] {
        case UInt8(ascii: "#"):
            readTag(bytes, i..<end)
        case UInt8(ascii: ":"), UInt8(ascii: "*"), UInt8(ascii: "F"), UInt8(ascii: "R"), UInt8(ascii: "G"):
            readNote(bytes, i..<end)
        case UInt8(ascii: "-"):
            readLineBreak(bytes, i..<end)
        case UInt8(ascii: "P"):
            readPart(bytes, i..<end)
        case UInt8(ascii: "E") where (i + 1..<end).allSatisfy({ ByteScanner.isBlank(bytes[$0]) }):
            return false
        case UInt8(ascii: "B") where i + 1 < end && ByteScanner.isBlank(bytes[i + 1]):
            log.warn(
                line: lineNumber, column: column(i),
                "tempo change \(ByteScanner.quoted(bytes, i..<end)) is not supported; line ignored")
        default:
            log.warn(
                line: lineNumber, column: column(i),
                "unrecognised line \(ByteScanner.quoted(bytes, i..<end)); line ignored")
        }
        return true
    }

    // MARK: Header

    /// Reads `#NAME:VALUE`, with spaces allowed around the name and the value.
    mutating func readTag(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var colonAt = range.lowerBound + 1
        while colonAt < range.upperBound, bytes[colonAt] != UInt8(ascii: ":") { colonAt += 1 }
        guard colonAt < range.upperBound else {
            log.warn(
                line: lineNumber, column: column(range.lowerBound),
                "header \(ByteScanner.quoted(bytes, range)) has no ':'; line ignored")
            return
        }
        let name = ByteScanner.trimmed(bytes, (range.lowerBound + 1)..<colonAt)
        guard !name.isEmpty else {
            log.warn(
                line: lineNumber, column: column(range.lowerBound),
                "header \(ByteScanner.quoted(bytes, range)) has no tag name; line ignored")
            return
        }
        let valueRange = ByteScanner.trimmed(bytes, (colonAt + 1)..<range.upperBound)
        let valueColumn = column(ByteScanner.skip(bytes, from: colonAt + 1, to: range.upperBound))
        // Only the tags used here are looked at; the rest (#VIDEO, #COVER, #ENCODING, …) are read past.
        switch asciiUppercase(bytes, name) {
        case "TITLE": metadata.title = text(bytes, valueRange)
        case "ARTIST": metadata.artist = text(bytes, valueRange)
        case "MP3": mp3 = text(bytes, valueRange)
        case "AUDIO": audio = text(bytes, valueRange)
        case "BPM":
            if let value = decimal(bytes, valueRange), value > 0, value.isFinite {
                bpm = value
            } else {
                log.warn(
                    line: lineNumber, column: valueColumn,
                    "malformed bpm \(ByteScanner.quoted(bytes, valueRange)); expected a positive number such as '300' or '300,5'"
                )
            }
        case "GAP":
            if let value = decimal(bytes, valueRange), value.magnitude < timeLimit {
                gap = value
            } else if !valueRange.isEmpty {
                log.warn(
                    line: lineNumber, column: valueColumn,
                    "malformed gap \(ByteScanner.quoted(bytes, valueRange)); expected milliseconds such as '1500'")
            }
        case "RELATIVE":
            let value = asciiUppercase(bytes, valueRange)
            relative = value == "YES" || value == "TRUE" || value == "1"
        default:
            break
        }
    }

    /// A tag's name or a short value in upper case, for comparison; long ones are never a known name.
    func asciiUppercase(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        guard range.count <= 16 else { return "" }
        return String(
            decoding: range.map { bytes[$0] >= 97 && bytes[$0] <= 122 ? bytes[$0] - 32 : bytes[$0] }, as: UTF8.self)
    }

    /// A tag's value as shown: control characters removed, nil when empty.
    func text(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String? {
        var kept: [UInt8] = []
        ControlCharacters.appendStripped(bytes, range, to: &kept)
        let value = String(decoding: kept, as: UTF8.self)
        return value.isEmpty ? nil : value
    }

    /// `300`, `300.5`, `300,5` or `-12`; nil for anything else.
    func decimal(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        var negative = false
        if i < range.upperBound, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard let value = ByteScanner.readDecimal(bytes, &i, range.upperBound, decimalComma: true),
            i == range.upperBound
        else { return nil }
        return negative ? -value : value
    }

    // MARK: Notes

    /// Reads `T start length pitch syllable` for a note type T in `: * F R G`.
    ///
    /// The syllable is everything after the single blank that follows the pitch, spaces kept: they
    /// are where UltraStar marks the ends of words.
    mutating func readNote(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        var i = range.lowerBound + 1
        let end = range.upperBound
        var fields = (0, 0, 0)
        for index in 0..<3 {
            i = ByteScanner.skip(bytes, from: i, to: end)
            guard let (value, next) = integer(bytes, i, end), next == end || ByteScanner.isBlank(bytes[next]) else {
                let what = ["start beat", "length", "pitch"][index]
                log.warn(
                    line: lineNumber, column: column(min(i, end)),
                    "malformed note \(ByteScanner.quoted(bytes, range)) (expected a whole number as its \(what)); note ignored"
                )
                return
            }
            switch index {
            case 0: fields.0 = value
            case 1: fields.1 = value
            default: fields.2 = value
            }
            i = next
        }
        if fields.1 < 0 {
            log.warn(
                line: lineNumber, column: column(range.lowerBound),
                "note \(ByteScanner.quoted(bytes, range)) has a negative length; note ignored")
            return
        }
        // One blank separates the pitch from the syllable; any more belong to the syllable.
        if i < end { i += 1 }
        let first = syllables.count
        ControlCharacters.appendStripped(bytes, i..<end, to: &syllables)
        if notes.count == phraseStart { phraseLine = lineNumber }
        let beat = relative ? relativeBase + fields.0 : fields.0
        notes.append(
            Note(
                beat: beat, length: fields.1, pitch: fields.2, kind: noteKind(bytes[range.lowerBound]),
                syllable: first..<syllables.count))
    }

    /// The kind of note the letter `type` starts (one of `: * F R G`, as `readLine` dispatches).
    func noteKind(_ type: UInt8) -> NoteKind {
        switch type {
        case UInt8(ascii: "*"): .golden
        case UInt8(ascii: "F"): .freestyle
        case UInt8(ascii: "R"): .rap
        case UInt8(ascii: "G"): .goldenRap
        default: .normal
        }
    }

    /// A whole number at `i` with an optional sign, and the index after it; nil when there is none.
    func integer(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int)? {
        var i = start
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        let (value, digits) = ByteScanner.readDigits(bytes, &i, end, keeping: maximumDigits)
        guard digits > 0, digits <= maximumDigits else { return nil }
        return (negative ? -value : value, i)
    }

    /// Reads `- beat [beat2]`, which ends the phrase; in relative mode the next beats count from its
    /// second number, or its first when there is one.
    mutating func readLineBreak(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        endPhrase()
        var i = range.lowerBound + 1
        let end = range.upperBound
        var numbers: [Int] = []
        while i < end {
            i = ByteScanner.skip(bytes, from: i, to: end)
            guard i < end else { break }
            guard numbers.count < 2, let (value, next) = integer(bytes, i, end),
                next == end || ByteScanner.isBlank(bytes[next])
            else {
                log.warn(
                    line: lineNumber, column: column(i),
                    "malformed line break \(ByteScanner.quoted(bytes, range)); expected '- beat' (the break still counts)"
                )
                return
            }
            numbers.append(value)
            i = next
        }
        if relative, let shift = numbers.last { relativeBase += shift }
    }

    /// Reads `P1`, `P2` (also `P 1`), which select the part that sings the notes after it; `P3` is both.
    mutating func readPart(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) {
        let i = ByteScanner.skip(bytes, from: range.lowerBound + 1, to: range.upperBound)
        guard let (number, next) = integer(bytes, i, range.upperBound), number >= 1,
            (next..<range.upperBound).allSatisfy({ ByteScanner.isBlank(bytes[$0]) })
        else {
            log.warn(
                line: lineNumber, column: column(range.lowerBound),
                "malformed part \(ByteScanner.quoted(bytes, range)); expected 'P1' or 'P2'; line ignored")
            return
        }
        endPhrase()
        // Each part counts its beats from the song's start again.
        relativeBase = 0
        voice = number == 3 ? .together : .part(number - 1)
    }

    /// Closes the phrase being read, if it has notes.
    mutating func endPhrase() {
        guard notes.count > phraseStart else { return }
        phrases.append(Phrase(notes: phraseStart..<notes.count, voice: voice, sourceLine: phraseLine))
        phraseStart = notes.count
    }

    // MARK: Lines

    /// The song: each phrase a line, timed by `#BPM` and `#GAP`.
    mutating func finish() -> ParseResult {
        metadata.audioFile = audio ?? mp3
        if bpm == nil {
            log.warn(
                line: 0, column: 0, "no usable '#BPM' tag; beats are timed at \(Int(UltraStarParser.assumedBPM)) bpm")
        }
        let clock = BeatClock(bpm: bpm ?? UltraStarParser.assumedBPM, gap: gap)
        var lines: [LyricLine] = []
        lines.reserveCapacity(phrases.count)
        var noteLines: [NoteLine] = []
        noteLines.reserveCapacity(phrases.count)
        for phrase in phrases {
            let order = beatOrder(phrase)
            if let line = makeLine(phrase, order: order, clock: clock) { lines.append(line) }
            noteLines.append(makeNoteLine(phrase, order: order))
        }
        var song = SongAssembly.assemble(metadata: metadata, timedLines: lines)
        // Set after assembly, which builds a new song: the notes are kept for scoring (DESIGN §7.3, §15), also
        // the phrases that show nothing (only `~` or blank syllables), since they are still sung.
        noteLines.sortByFirstBeat()
        song?.notes = NoteTrack(millisecondsPerBeat: clock.millisecondsPerBeat, gap: gap, lines: noteLines)
        return log.finish(song: song, noSongMessage: "no sung note")
    }

    /// The indices of a phrase's notes in beat order; notes on one beat keep file order.
    func beatOrder(_ phrase: Phrase) -> [Int] {
        var order = Array(phrase.notes)
        // Notes are written in order; a file that is not gets a stable sort, so ties keep file order.
        if !order.indices.dropFirst().allSatisfy({ notes[order[$0 - 1]].beat <= notes[order[$0]].beat }) {
            order.sort { notes[$0].beat != notes[$1].beat ? notes[$0].beat < notes[$1].beat : $0 < $1 }
        }
        return order
    }

    /// The notes of a phrase with their pitch and kind, every one of them (holds and empty syllables too).
    func makeNoteLine(_ phrase: Phrase, order: [Int]) -> NoteLine {
        let sung = order.map { index in
            let note = notes[index]
            return SungNote(
                beat: note.beat, length: note.length, pitch: note.pitch, kind: note.kind,
                syllable: String(decoding: syllables[note.syllable], as: UTF8.self))
        }
        return NoteLine(notes: sung, voice: phrase.voice, sourceLine: phrase.sourceLine)
    }

    /// The line of a phrase: one segment a sung syllable, the spaces between words moved to the ends
    /// of words; nil when nothing in it is sung.
    func makeLine(_ phrase: Phrase, order: [Int], clock: BeatClock) -> LyricLine? {
        var pieces: [Piece] = []
        var lineEnd = Int.min
        for index in order {
            let note = notes[index]
            let start = clock.time(note.beat), end = clock.time(note.beat + note.length)
            lineEnd = max(lineEnd, end)
            // Stripping made tabs spaces, so trimming blanks trims the spaces.
            let sung = ByteScanner.trimmed(syllables, note.syllable)
            let low = sung.lowerBound, high = sung.upperBound
            let leadingSpace = low > note.syllable.lowerBound
            let trailingSpace = high < note.syllable.upperBound
            // A space before a word ends the word before it.
            if leadingSpace, !pieces.isEmpty { pieces[pieces.count - 1].spaceAfter = true }
            if high - low == 1, syllables[low] == UInt8(ascii: "~") {
                // `~` holds the vowel before it: that syllable lasts longer, nothing new is shown.
                if !pieces.isEmpty {
                    pieces[pieces.count - 1].end = max(pieces[pieces.count - 1].end, end)
                    if trailingSpace { pieces[pieces.count - 1].spaceAfter = true }
                }
                continue
            }
            guard low < high else {
                // A note without a syllable (or only a space) is sung but shows nothing.
                if trailingSpace, !pieces.isEmpty { pieces[pieces.count - 1].spaceAfter = true }
                continue
            }
            pieces.append(Piece(start: start, end: end, bytes: low..<high, spaceAfter: trailingSpace))
        }
        guard !pieces.isEmpty else { return nil }
        var segments: [WordSegment] = []
        segments.reserveCapacity(pieces.count)
        var word: [UInt8] = []
        for (k, piece) in pieces.enumerated() {
            word.removeAll(keepingCapacity: true)
            // Runs of blanks inside a syllable show as one space, as everywhere else.
            var previousWasSpace = false
            for i in piece.bytes {
                let byte = syllables[i]
                if byte == space {
                    if !previousWasSpace { word.append(space) }
                    previousWasSpace = true
                } else {
                    word.append(byte)
                    previousWasSpace = false
                }
            }
            let isLast = k == pieces.count - 1
            if piece.spaceAfter && !isLast { word.append(space) }
            // Ends never reach past the next syllable's start, so segments never overlap.
            let nextStart = isLast ? Int.max : pieces[k + 1].start
            let end = max(piece.start, min(piece.end, nextStart))
            segments.append(WordSegment(start: piece.start, end: end, text: String(decoding: word, as: UTF8.self)))
        }
        let text = segments.map(\.text).joined()
        return LyricLine(
            start: segments[0].start, end: max(lineEnd, segments[segments.count - 1].end), text: text,
            segments: segments, sourceLine: phrase.sourceLine, voice: phrase.voice)
    }
}

extension [NoteLine] {
    /// Sorts the lines by their first beat; lines starting on one beat keep their order (a duet's parts).
    fileprivate mutating func sortByFirstBeat() {
        guard !indices.dropFirst().allSatisfy({ self[$0 - 1].firstBeat <= self[$0].firstBeat }) else { return }
        let keys = indices.map { (beat: self[$0].firstBeat, index: $0) }
        let order = keys.sorted { $0.beat != $1.beat ? $0.beat < $1.beat : $0.index < $1.index }
        self = order.map { self[$0.index] }
    }
}

/// A sung syllable on its way to a segment: its times and its bytes without outer spaces.
private struct Piece {
    /// When it is sung, in file-time milliseconds.
    var start: Int
    /// When it ends, a `~` after it included.
    var end: Int
    /// Its text in `UltraStarReader.syllables`, without outer spaces.
    var bytes: Range<Int>
    /// Whether a word ends after it, so its segment ends with a space.
    var spaceAfter: Bool
}

/// Beats to file time: `GAP + beat × 60000 / (BPM × 4)`, rounded to the millisecond.
private struct BeatClock {
    /// 60000 / (BPM × 4).
    let millisecondsPerBeat: Double
    /// `#GAP` in milliseconds.
    let gap: Double

    /// A clock for the file's `#BPM` and `#GAP`.
    init(bpm: Double, gap: Double) {
        millisecondsPerBeat = 15_000 / bpm
        self.gap = gap
    }

    /// The file time of a beat, clamped to ±100 hours.
    func time(_ beat: Int) -> Int {
        let value = gap + Double(beat) * millisecondsPerBeat
        // A tiny BPM and a huge beat would not fit an Int; nothing that far off is a real time anyway.
        return Int(min(max(value, -timeLimit), timeLimit).rounded())
    }
}
