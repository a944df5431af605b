/// When a frame next changes, as playback moves on: what lets a still screen sleep (DESIGN §17.2).
public enum FrameChange: Sendable, Equatable {
    /// Something moves with every frame (a sweep, the view gliding to a new line, the count-in's dots
    /// filling, the note lanes).
    case continuous
    /// Nothing changes before this playback position (seconds).
    case at(Double)
    /// Nothing changes however far playback goes.
    case never
}

extension FrameComposer {
    /// How far past a change's exact position the wake is put, in seconds: the change is a comparison
    /// against the position, and the position computed at the wake may fall a rounding error short.
    static let changeMargin = 0.000_001

    /// When the frame at playback `time` next changes with the title, the notice, the pause and the help
    /// held as they are, for a clock that runs (the caller schedules the title and the notice itself).
    ///
    /// It follows `frame(at:…)` part by part: the status bar's clock and progress bar, the untimed pages,
    /// the current line, the sweep of its cells or rows, the count-in and the note lanes. Nothing it
    /// misses may change the frame before the answer; the frame may stay the same at the answer. The
    /// status bar's progress bar has a width of its own, whatever the notice or the offset (DESIGN §4).
    public mutating func nextChange(after time: Double, userOffset: Int, reduceMotion: Bool) -> FrameChange {
        guard !isTooSmall else { return .never }
        // The status bar is looked at last: while a sweep runs its answer is not needed.
        var status: Double? { statusChange(after: time) }
        switch content {
        case .timed: break
        case .plain, .message:
            return FrameComposer.earliest(status, untimedChange(after: time))
        case .graphics:
            // The picture's own changes are the loop's to schedule: it holds the decoder (DESIGN §19.7).
            return FrameComposer.earliest(status, nil)
        }
        guard !song.lines.isEmpty else { return FrameComposer.earliest(status, nil) }
        if lanes != nil && laneRows > 0 { return .continuous }
        let fileTime = LyricClock.fileTime(playback: time, song: song, userOffset: userOffset)
        // Positions in file time (milliseconds) below; turned into playback seconds at the end.
        var file: Double?
        func consider(_ candidate: Double) {
            if candidate >= fileTime { file = min(file ?? .infinity, candidate) }
        }
        let current = LyricClock.currentLine(in: song, at: fileTime)
        let following = (current ?? -1) + 1
        if following < song.lines.count { consider(Double(song.lines[following].start)) }
        if let current {
            let line = song.lines[current]
            // A line's end is a moment the frame may change (a cue that ends before the next begins).
            consider(Double(line.end))
            if current > 0, !reduceMotion {
                let since = fileTime - Double(line.start)
                if since >= 0 && since < FrameComposer.scrollDuration { return .continuous }
            }
            if line.isWordTimed {
                for segment in line.segments {
                    if !reduceMotion && segment.end > segment.start && fileTime >= Double(segment.start)
                        && fileTime < Double(segment.end)
                    {
                        return .continuous
                    }
                    consider(Double(segment.start))
                    consider(Double(segment.end))
                }
            } else {
                let sweepEnd = line.start + min(line.end - line.start, song.sweepCap)
                if reduceMotion {
                    // Whole rows light as the sweep passes their first cell (LineFill, reduce motion).
                    let laid = sweepLayout(current)
                    let span = Double(sweepEnd - line.start)
                    if laid.totalCells > 0 {
                        for rowStart in Set(laid.slots.map(\.rowStart)) {
                            consider(Double(line.start) + span * Double(rowStart) / Double(laid.totalCells))
                        }
                    }
                } else if sweepEnd > line.start && fileTime >= Double(line.start) && fileTime < Double(sweepEnd) {
                    return .continuous
                } else {
                    consider(Double(line.start))
                }
            }
        }
        if options.countIn, following < song.lines.count {
            let start = song.lines[following].start
            let eligible =
                current.map { start - CountIn.sungEnd(of: song.lines[$0], cap: song.sweepCap) > CountIn.minimumGap }
                ?? true
            let opens = Double(start - CountIn.lead)
            if eligible {
                if !reduceMotion && fileTime > opens && fileTime < Double(start) { return .continuous }
                let beat = Double(CountIn.lead / CountIn.dotCount)
                for k in 0..<CountIn.dotCount { consider(opens + Double(k) * beat) }
            }
        }
        let playback = file.map { time + ($0 - fileTime) / 1000 }
        return FrameComposer.earliest(status, playback)
    }

    /// When the frame that `input` shows next changes, as `nextChange(after:userOffset:reduceMotion:)` says
    /// for its time, offset and reduce motion.
    public mutating func nextChange(for input: FrameInput) -> FrameChange {
        nextChange(after: input.time, userOffset: input.userOffset, reduceMotion: input.reduceMotion)
    }

    /// The next change of the status bar: its clock's next second, or the progress bar's next cell.
    private func statusChange(after time: Double) -> Double? {
        let total = max(0, Double(song.duration) / 1000)
        let shown = StatusBar.shownElapsed(time, total: total)
        guard shown < total else { return nil }
        var next = Double(StatusBar.wholeSeconds(shown) + 1)
        if next > total { next = .infinity }
        let barWidth = StatusBar.zones(width: columns, total: total, queuePosition: options.queuePosition).barWidth
        if barWidth > 0, total > 0 {
            let filled = StatusBar.filledCells(elapsed: shown, total: total, width: barWidth)
            if filled < barWidth { next = min(next, Double(filled + 1) * total / Double(barWidth)) }
        }
        // The clock held at 0 before the start changes when playback reaches it.
        return next.isFinite ? max(next, time) : nil
    }

    /// The next page turn of plain lyrics (a message never turns).
    private func untimedChange(after time: Double) -> Double? {
        let count = untimed.pages.count
        let duration = Double(song.duration) / 1000
        guard untimed.messageRows.isEmpty, count > 1, duration > 0 else { return nil }
        let page = UntimedLayout.page(at: time, duration: duration, count: count)
        guard page < count - 1 else { return nil }
        return max(time, Double(page + 1) * duration / Double(count))
    }

    /// The earlier of two positions as a change, with the margin that puts it safely past the comparison.
    private static func earliest(_ a: Double?, _ b: Double?) -> FrameChange {
        let next = min(a ?? .infinity, b ?? .infinity)
        return next.isFinite ? .at(next + changeMargin) : .never
    }
}
