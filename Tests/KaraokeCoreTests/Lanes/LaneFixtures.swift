@testable import KaraokeCore

/// Small UltraStar songs written from a note list, so a test has the song (from the real parser) and the
/// `NoteTrack` of the same notes without waiting for the parser to fill `Song.notes`.
enum LaneFixtures {
    /// One note: its UltraStar letter (`:` `*` `F` `R` `G`), beat, length, pitch and syllable.
    typealias Note = (kind: Character, beat: Int, length: Int, pitch: Int, syllable: String)

    /// The beat grid of every fixture: BPM 300 (50 ms a beat) from a 1 s gap.
    static let millisecondsPerBeat = 50.0
    static let gap = 1000.0

    /// A solo song of three lines: normal, golden, rap, freestyle and an octave leap.
    static let solo: [[Note]] = [
        [
            (":", 0, 4, 0, "Sing "), (":", 4, 4, 2, "a "), ("*", 8, 8, 4, "gol"), (":", 16, 4, 5, "den "),
            (":", 20, 8, 7, "song"),
        ],
        [
            (":", 32, 4, 3, "Talk "), ("R", 36, 4, 3, "it "), ("F", 40, 4, 5, "free "), (":", 44, 8, 7, "and "),
            (":", 52, 8, 12, "high"),
        ],
        [(":", 64, 8, 0, "Low "), (":", 72, 8, 2, "a"), (":", 80, 8, 4, "gain")],
    ]

    /// A duet: two parts of two lines each, then a line sung together.
    static let duet: [[[Note]]] = [
        [
            [(":", 0, 6, 0, "First "), (":", 6, 6, 2, "part "), ("*", 12, 8, 4, "sings")],
            [(":", 60, 6, 4, "Both "), (":", 66, 6, 2, "are "), (":", 72, 8, 0, "here")],
        ],
        [
            [(":", 24, 6, 7, "Se"), (":", 30, 6, 9, "cond "), (":", 36, 10, 11, "part")],
            [(":", 84, 6, 9, "and "), (":", 90, 6, 7, "now "), (":", 96, 8, 5, "end")],
        ],
    ]

    /// The UltraStar text of `parts` (one part is written without `P1`).
    static func text(title: String, parts: [[[Note]]]) -> String {
        var text = "#TITLE:\(title)\n#ARTIST:The Lanes\n#BPM:300\n#GAP:1000\n"
        for (index, lines) in parts.enumerated() {
            if parts.count > 1 { text += "P\(index + 1)\n" }
            for (k, line) in lines.enumerated() {
                for note in line { text += "\(note.kind) \(note.beat) \(note.length) \(note.pitch) \(note.syllable)\n" }
                if k < lines.count - 1, let last = line.last { text += "- \(last.beat + last.length + 1)\n" }
            }
        }
        return text + "E\n"
    }

    /// The song `parts` make, read by the UltraStar parser.
    static func song(title: String, parts: [[[Note]]]) throws -> Song {
        let result = UltraStarParser.parse(Array(text(title: title, parts: parts).utf8), file: "lanes.txt")
        guard let song = result.song else { throw Fixtures.FixtureError.noSong("lanes.txt") }
        return song
    }

    /// The note track of `parts`.
    static func track(parts: [[[Note]]]) -> NoteTrack {
        var lines: [NoteLine] = []
        for (index, partLines) in parts.enumerated() {
            for line in partLines {
                let notes = line.map { note in
                    SungNote(
                        beat: note.beat, length: note.length, pitch: note.pitch, kind: kind(note.kind),
                        syllable: note.syllable)
                }
                lines.append(NoteLine(notes: notes, voice: parts.count > 1 ? .part(index) : nil, sourceLine: 0))
            }
        }
        lines.sort { $0.firstBeat < $1.firstBeat }
        return NoteTrack(millisecondsPerBeat: millisecondsPerBeat, gap: gap, lines: lines)
    }

    /// The note kind of an UltraStar letter.
    static func kind(_ letter: Character) -> NoteKind {
        switch letter {
        case "*": .golden
        case "F": .freestyle
        case "R": .rap
        case "G": .goldenRap
        default: .normal
        }
    }

    /// The playback second of `beat` (the fixtures have no offset).
    static func seconds(atBeat beat: Double) -> Double { (gap + beat * millisecondsPerBeat) / 1000 }

    /// A singer of `part` judged up to `judgedThrough`, with `hits`, and a trail singing each note's pitch
    /// (`sharp` semitones off in the beats of `off`) every 25 ms from beat `from` to `judgedThrough`.
    static func progress(
        part: Voice?, track: NoteTrack, hits: [Int], judgedThrough: Int, from: Int, off: Set<Int> = [],
        sharp: Double = 3, octave: Int = 0, points: Int = 0
    ) -> SingerProgress {
        var progress = SingerProgress(part: part)
        progress.hitBeats = Set(hits)
        progress.judgedThrough = judgedThrough
        progress.points = ScorePoints(notes: points)
        let lines = track.lines(for: part)
        var time = track.time(ofBeat: from)
        while time < track.time(ofBeat: judgedThrough) {
            let beat = Int(track.beat(at: time).rounded(.down))
            if let note = LaneGrid.note(in: lines, at: Double(beat)) {
                let pitch = Double(note.pitch + 60 + 12 * octave) + (off.contains(beat) ? sharp : 0)
                progress.trail.append(PitchFrame(time: time, midi: pitch, level: -20))
            } else {
                progress.trail.append(PitchFrame(time: time, midi: nil, level: -60))
            }
            time += 25
        }
        return progress
    }
}
