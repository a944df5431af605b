/// Where one visible grapheme sits for the sweep: its cells counted in reading order.
public struct FillSlot: Sendable, Equatable {
    /// Cells before it in reading order: from the line's start for a line-timed line, from its
    /// segment's start for a word-timed one (a in DESIGN §3.3).
    public var offset: Int
    /// The cells it takes (w).
    public var width: Int
    /// Its word segment, or 0 on a line-timed line.
    public var segment: Int
    /// Cells of the line before its row, in reading order: reduce motion lights a row as a unit.
    public var rowStart: Int

    /// Creates a slot.
    public init(offset: Int, width: Int, segment: Int = 0, rowStart: Int = 0) {
        self.offset = offset
        self.width = width
        self.segment = segment
        self.rowStart = rowStart
    }
}

/// How much of each grapheme of a line is sung at a moment (DESIGN §3.3 and §3.4).
public enum LineFill {
    /// The fill of a grapheme at offset `a`, `w` cells wide, when `sung` cells are sung: clamp((x − a) / w).
    @inlinable
    public static func fill(sung: Double, offset: Int, width: Int) -> Double {
        guard width > 0 else { return sung > Double(offset) ? 1 : 0 }
        return min(1, max(0, (sung - Double(offset)) / Double(width)))
    }

    /// How far a line-timed line's sweep has got, 0…1: it runs from the start for
    /// `min(end − start, cap)`, so a long gap after the line does not slow it down.
    @inlinable
    public static func progress(of line: LyricLine, at fileTime: Double, cap: Int) -> Double {
        span(from: line.start, to: line.start + min(line.end - line.start, cap), at: fileTime)
    }

    /// How far a sweep from `start` to `end` has got at `time`, 0…1; a zero span is a step at `start`.
    @inlinable
    public static func span(from start: Int, to end: Int, at time: Double) -> Double {
        let from = Double(start)
        guard end > start else { return time >= from ? 1 : 0 }
        return min(1, max(0, (time - from) / Double(end - start)))
    }

    /// The fills of a line's graphemes, one per slot, at `fileTime`.
    ///
    /// - Parameters:
    ///   - totalCells: the sum of the row widths (line-timed lines).
    ///   - segmentCells: the cells of each segment (word-timed lines).
    ///   - cap: the song's sweep cap, `Song.sweepCap`.
    public static func fills(
        of line: LyricLine, slots: [FillSlot], totalCells: Int, segmentCells: [Int],
        at fileTime: Double, cap: Int, reduceMotion: Bool
    ) -> [Double] {
        var result = [Double](repeating: 0, count: slots.count)
        if line.isWordTimed {
            var progress = [Double](repeating: 0, count: line.segments.count)
            for (index, segment) in line.segments.enumerated() {
                progress[index] = span(from: segment.start, to: segment.end, at: fileTime)
            }
            for (index, slot) in slots.enumerated() {
                let p = progress[slot.segment]
                if reduceMotion {
                    result[index] = p > 0 ? 1 : 0
                } else {
                    result[index] = fill(
                        sung: p * Double(segmentCells[slot.segment]), offset: slot.offset,
                        width: slot.width)
                }
            }
        } else {
            let sung = progress(of: line, at: fileTime, cap: cap) * Double(totalCells)
            for (index, slot) in slots.enumerated() {
                if reduceMotion {
                    result[index] = sung > Double(slot.rowStart) ? 1 : 0
                } else {
                    result[index] = fill(sung: sung, offset: slot.offset, width: slot.width)
                }
            }
        }
        return result
    }
}
