/// Ticks to milliseconds for one MIDI file, exactly: integer arithmetic, segment by segment through the tempo map.
///
/// With ticks per quarter note (PPQ), a quarter lasts 500,000 µs until the first tempo change and what the last
/// change says after that; every change applies to every track (format 1 keeps them on the first track, but files
/// put them anywhere). A tick's time is Σ Δticks × µs-per-quarter over the segments before it, divided by
/// PPQ × 1000 and rounded to the nearest millisecond (halves up), so it is the exact time to the millisecond. With an
/// SMPTE division the tempo map does not apply: a tick is 1 / (frames a second × ticks a frame) s, where 29 frames
/// means 29.97 (30 × 1000 / 1001). Times are clamped to 100 hours.
struct MIDITempoMap {
    /// The quarter note's length before the first tempo change: 120 beats a minute.
    static let defaultMicrosecondsPerQuarter = 500_000

    /// One stretch of constant tempo.
    private struct Segment {
        /// Its first tick.
        var tick: Int
        /// µs per quarter note within it.
        var microsecondsPerQuarter: Int
        /// Σ Δticks × µs-per-quarter before `tick` (µs × PPQ), saturated.
        var elapsed: Int
    }

    /// The segments in tick order, the first at tick 0; empty for an SMPTE division.
    private let segments: [Segment]
    /// The divisor that turns the elapsed product into milliseconds: PPQ × 1000, or for SMPTE frames × ticks.
    private let divisor: Int
    /// For SMPTE: ms = ticks × `smpteNumerator` / `divisor`.
    private let smpteNumerator: Int

    /// The map of `division` and the file's tempo changes (in tick order).
    init(division: MIDIFile.Division, changes: [MIDIFile.TempoChange]) {
        switch division {
        case .ticksPerQuarter(let ppq):
            divisor = ppq * 1000
            smpteNumerator = 0
            var segments = [
                Segment(tick: 0, microsecondsPerQuarter: MIDITempoMap.defaultMicrosecondsPerQuarter, elapsed: 0)
            ]
            for change in changes {
                let last = segments[segments.count - 1]
                if change.tick == last.tick {
                    // Two changes on one tick: the later one holds.
                    segments[segments.count - 1].microsecondsPerQuarter = change.microsecondsPerQuarter
                    continue
                }
                let elapsed = MIDITempoMap.saturatingAdd(
                    last.elapsed,
                    MIDITempoMap.saturatingMultiply(change.tick - last.tick, last.microsecondsPerQuarter))
                segments.append(
                    Segment(tick: change.tick, microsecondsPerQuarter: change.microsecondsPerQuarter, elapsed: elapsed))
            }
            self.segments = segments
        case .smpte(let rate, let ticksPerFrame):
            segments = []
            if rate == 29 {
                // 29.97 frames a second: a tick is 1001 / (30000 × ticks a frame) s.
                smpteNumerator = 1_001_000
                divisor = 30_000 * ticksPerFrame
            } else {
                smpteNumerator = 1000
                divisor = rate * ticksPerFrame
            }
        }
    }

    /// The time of `tick` in milliseconds, rounded to the nearest (halves up), at most 100 hours.
    func milliseconds(atTick tick: Int) -> Int {
        let product: Int
        if segments.isEmpty {
            product = MIDITempoMap.saturatingMultiply(tick, smpteNumerator)
        } else {
            // The last segment starting at or before the tick.
            var low = 0, high = segments.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if segments[middle].tick <= tick { low = middle } else { high = middle - 1 }
            }
            let segment = segments[low]
            product = MIDITempoMap.saturatingAdd(
                segment.elapsed, MIDITempoMap.saturatingMultiply(tick - segment.tick, segment.microsecondsPerQuarter))
        }
        let rounded = product / divisor + (product % divisor * 2 >= divisor ? 1 : 0)
        return min(rounded, ByteScanner.timeLimit)
    }

    /// `a × b` for non-negative numbers, or `Int.max` when it does not fit.
    static func saturatingMultiply(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? Int.max : value
    }

    /// `a + b` for non-negative numbers, or `Int.max` when it does not fit.
    static func saturatingAdd(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : value
    }
}
