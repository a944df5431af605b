/// Scores one singer: pitch frames in, beats judged against the notes, points out (DESIGN §15.2).
///
/// The edge feeds it the frames the microphone gives (`hear`) and tells it the song's file time every tick
/// (`judge`); the lanes and the status bar read `progress`. A beat is judged once, when it ended at least
/// `lateness` ago, so that frames still on their way from the capture thread count; after that it never
/// changes, also when the song is sought back over it.
public struct ScoreKeeper: Sendable {
    /// How long after a beat ends it is judged, in ms: frames reach the keeper this late at most.
    public static let lateness = 120.0
    /// The loudness (dBFS) from which a frame counts as a voice on a rap note, voiced or not.
    public static let voiceThreshold = -45.0
    /// How far from the middle of a beat without frames the nearest frame may be and still stand in, in ms.
    public static let nearestReach = 40.0
    /// How much of the sung trail is kept, in ms.
    public static let trailSpan = 8000.0
    /// A frame this much older than the newest one in the trail means the song was sought back, in ms.
    static let seekBackStep = 1000.0
    /// At most this many unjudged frames are kept (minutes of singing), so a keeper that is never asked to
    /// judge does not grow without end.
    static let pendingLimit = 1 << 16

    /// The notes of the song.
    public let track: NoteTrack
    /// How close the pitch must be.
    public let difficulty: Difficulty
    /// Where the singer stands, for the lanes, the status bar and the final card.
    public private(set) var progress: SingerProgress
    /// The result of every line judged so far, in the order they were judged.
    public private(set) var lineResults: [LineResult] = []

    /// The singer's scored notes (weight above 0 and a length), in beat order, none overlapping another.
    private let notes: [ScoredNote]
    /// The singer's lines that have scored notes.
    private var lines: [ScoredLine]
    /// Σ length × weight over the singer's notes: the weight all 9,000 note points are shared by.
    private let totalWeight: Int
    /// The beat after the last one of the singer's lines: once it is judged, the singer is finished.
    private let endBeat: Int
    /// The next note to judge, an index into `notes`.
    private var nextNote = 0
    /// The next beat of that note to judge.
    private var nextBeat = Int.min
    /// Frames not yet used by a judged beat, in time order.
    private var pending: [PitchFrame] = []
    /// The hit weight of normal and rap beats so far.
    private var hitWeight = 0
    /// The hit weight of golden beats so far.
    private var hitGoldenWeight = 0
    /// Σ accuracy over the lines judged so far, for the line bonus.
    private var accuracySum = 0.0

    /// A keeper for the singer of `part` (nil: the whole song) at `difficulty`.
    public init(track: NoteTrack, part: Voice?, difficulty: Difficulty) {
        self.track = track
        self.difficulty = difficulty
        progress = SingerProgress(part: part)
        var endBeat = Int.min
        var candidates: [ScoredNote] = []
        for index in track.lineIndices(for: part) {
            endBeat = max(endBeat, track.lines[index].endBeat)
            for note in track.lines[index].notes where note.kind.weight > 0 && note.length > 0 {
                candidates.append(ScoredNote(note: note, line: index))
            }
        }
        // Stable: the notes of one line are already in beat order, and lines of two parts may interleave.
        let keyed = candidates.indices.map { (beat: candidates[$0].note.beat, index: $0) }
        var notes = keyed.sorted { $0.beat != $1.beat ? $0.beat < $1.beat : $0.index < $1.index }.map {
            candidates[$0.index]
        }
        // A beat names one note: a note that runs into the next is cut at its start, as the lyrics cut it
        // (a file's mistake, or a line sung together laid over a part's own).
        for k in notes.indices.dropLast() {
            notes[k].note.length = min(notes[k].note.length, notes[k + 1].note.beat - notes[k].note.beat)
        }
        notes.removeAll { $0.note.length <= 0 }
        var lines: [ScoredLine] = []
        var slots: [Int: Int] = [:]
        var totalWeight = 0
        for k in notes.indices {
            let slot = slots[notes[k].line] ?? lines.count
            if slot == lines.count {
                slots[notes[k].line] = slot
                lines.append(ScoredLine(index: notes[k].line, weight: 0, unjudgedNotes: 0))
            }
            let weight = notes[k].note.length * notes[k].note.kind.weight
            lines[slot].weight += weight
            lines[slot].unjudgedNotes += 1
            totalWeight += weight
            notes[k].line = slot
        }
        self.notes = notes
        self.lines = lines
        self.totalWeight = totalWeight
        self.endBeat = endBeat
    }

    /// Whether every beat of the singer's lines has been judged.
    public var isFinished: Bool { progress.judgedThrough >= endBeat }

    /// Takes one frame: kept for the trail, and for scoring unless its beats are already judged.
    public mutating func hear(_ frame: PitchFrame) {
        guard frame.time.isFinite else { return }
        addToTrail(frame)
        guard frame.time >= earliestUsefulTime else { return }
        var index = pending.count
        while index > 0, pending[index - 1].time > frame.time { index -= 1 }
        pending.insert(frame, at: index)
        if pending.count > ScoreKeeper.pendingLimit { pending.removeFirst(pending.count - ScoreKeeper.pendingLimit) }
    }

    /// Judges every beat that ended at least `lateness` before `fileTime`; beats already judged stay as they are.
    public mutating func judge(through fileTime: Double) {
        let beat = track.beat(at: fileTime - ScoreKeeper.lateness)
        guard beat.isFinite else { return }
        let through = ScoreKeeper.wholeBeat(beat)
        guard through > progress.judgedThrough else { return }
        progress.judgedThrough = through
        judgeNotes(before: through, at: fileTime)
        let earliest = earliestUsefulTime
        if let used = pending.firstIndex(where: { $0.time >= earliest }) {
            pending.removeFirst(used)
        } else {
            pending.removeAll(keepingCapacity: true)
        }
        updatePoints()
    }

    /// The beat a fractional beat falls in, clamped to ±2^52: a time far outside any song cannot be an `Int`,
    /// and nothing of a song lies that far.
    static func wholeBeat(_ beat: Double) -> Int {
        guard !beat.isNaN else { return 0 }
        return Int(min(max(beat.rounded(.down), -0x1p52), 0x1p52))
    }

    /// Frames before this file time can only fall on judged beats (or stand in for the next one's middle).
    private var earliestUsefulTime: Double {
        guard progress.judgedThrough > Int.min else { return -Double.infinity }
        return track.time(ofBeat: progress.judgedThrough) - ScoreKeeper.nearestReach
    }

    /// Judges the scored beats before `through`, in beat order, closing the lines whose last beat is judged.
    private mutating func judgeNotes(before through: Int, at fileTime: Double) {
        while nextNote < notes.count {
            let scored = notes[nextNote]
            let beat = max(nextBeat, scored.note.beat)
            let noteEnd = scored.note.beat + scored.note.length
            if beat >= noteEnd {
                finishNote(scored, at: fileTime)
                continue
            }
            guard beat < through else { break }
            let stop = min(noteEnd, through)
            // Beats that no pending frame reaches are misses: skipped at once (a seek forward, a long rest).
            let silentUntil =
                pending.first.map { ScoreKeeper.wholeBeat(track.beat(at: $0.time - ScoreKeeper.nearestReach)) } ?? stop
            if silentUntil > beat {
                nextBeat = min(stop, silentUntil)
                continue
            }
            if beatIsHit(beat, of: scored.note) {
                progress.hitBeats.insert(beat)
                if scored.note.kind.isGolden {
                    hitGoldenWeight += scored.note.kind.weight
                } else {
                    hitWeight += scored.note.kind.weight
                }
                lines[scored.line].hitWeight += scored.note.kind.weight
            }
            nextBeat = beat + 1
            // Frames before the next beat's reach are of no more use.
            let earliest = track.time(ofBeat: nextBeat) - ScoreKeeper.nearestReach
            if let first = pending.first, first.time < earliest {
                pending.removeFirst(pending.firstIndex { $0.time >= earliest } ?? pending.count)
            }
        }
    }

    /// Counts a note as judged; its line is closed when it was the line's last.
    private mutating func finishNote(_ scored: ScoredNote, at fileTime: Double) {
        nextNote += 1
        nextBeat = Int.min
        lines[scored.line].unjudgedNotes -= 1
        guard lines[scored.line].unjudgedNotes == 0 else { return }
        let line = lines[scored.line]
        let accuracy = Double(line.hitWeight) / Double(line.weight)
        accuracySum += accuracy
        let result = LineResult(
            line: line.index, accuracy: accuracy, grade: LineGrade(accuracy: accuracy), judgedAt: fileTime)
        lineResults.append(result)
        progress.lastLine = result
    }

    /// Whether at least half the frames in the beat hit the note; a beat without frames takes the one nearest
    /// its middle, if that is within `nearestReach`.
    private func beatIsHit(_ beat: Int, of note: SungNote) -> Bool {
        let start = track.time(ofBeat: beat), end = track.time(ofBeat: beat + 1)
        var count = 0, hits = 0
        var nearest: PitchFrame?
        let middle = (start + end) / 2
        for frame in pending {
            if frame.time >= end + ScoreKeeper.nearestReach { break }
            if frame.time >= start && frame.time < end {
                count += 1
                if isHit(frame, on: note) { hits += 1 }
            } else if abs(frame.time - middle) <= ScoreKeeper.nearestReach,
                nearest.map({ abs(frame.time - middle) < abs($0.time - middle) }) ?? true
            {
                nearest = frame
            }
        }
        if count > 0 { return 2 * hits >= count }
        return nearest.map { isHit($0, on: note) } ?? false
    }

    /// Whether one frame sings `note`: a rap note by loudness alone, any other by its pitch folded into the
    /// note's octave.
    private func isHit(_ frame: PitchFrame, on note: SungNote) -> Bool {
        if note.kind.isRap { return frame.level >= ScoreKeeper.voiceThreshold }
        guard let midi = frame.midi, midi.isFinite, midi.magnitude < 1e6 else { return false }
        return abs(ScoreKeeper.foldedDistance(midi: midi, target: note.midiNote)) <= difficulty.tolerance
    }

    /// The semitones from `target` to `midi` rounded to the nearest semitone, brought into −6…+5 by whole
    /// octaves: singing an octave away is singing the note.
    static func foldedDistance(midi: Double, target: Int) -> Int {
        let difference = Int(midi.rounded()) - target
        return ((difference + 6) % 12 + 12) % 12 - 6
    }

    /// Puts the points into `progress`, rounded so that the parts add up to the rounded whole: a perfect song
    /// is 10,000, not 9,999 or 10,001.
    private mutating func updatePoints() {
        guard totalWeight > 0 else { return }
        let golden = 9000 * Double(hitGoldenWeight) / Double(totalWeight)
        let notes = golden + 9000 * Double(hitWeight) / Double(totalWeight)
        let all = notes + 1000 * accuracySum / Double(lines.count)
        let roundedGolden = Int(golden.rounded()), roundedNotes = Int(notes.rounded())
        progress.points = ScorePoints(
            notes: roundedNotes - roundedGolden, golden: roundedGolden, lineBonus: Int(all.rounded()) - roundedNotes)
    }

    /// Keeps the last `trailSpan` of frames in time order; a frame from well before the newest starts the
    /// trail again from there (the song was sought back).
    private mutating func addToTrail(_ frame: PitchFrame) {
        if let last = progress.trail.last, frame.time < last.time - ScoreKeeper.seekBackStep {
            progress.trail.removeAll { $0.time > frame.time }
        }
        var index = progress.trail.count
        while index > 0, progress.trail[index - 1].time > frame.time { index -= 1 }
        progress.trail.insert(frame, at: index)
        let newest = progress.trail[progress.trail.count - 1].time
        if let first = progress.trail.first, first.time < newest - ScoreKeeper.trailSpan {
            progress.trail.removeFirst(
                progress.trail.firstIndex { $0.time >= newest - ScoreKeeper.trailSpan } ?? progress.trail.count)
        }
    }
}

/// A note the keeper scores, with the singer's line it belongs to.
private struct ScoredNote: Sendable {
    /// The note, cut where the next one starts.
    var note: SungNote
    /// Its line: an index into `NoteTrack.lines` while the keeper is made, then into the keeper's `lines`.
    var line: Int
}

/// A line the keeper scores: its weight and how much of it was hit.
private struct ScoredLine: Sendable {
    /// Its index in `NoteTrack.lines`.
    var index: Int
    /// Σ length × weight of its notes.
    var weight: Int
    /// The weight of its beats judged hits.
    var hitWeight = 0
    /// How many of its notes still have beats to judge.
    var unjudgedNotes: Int
}
