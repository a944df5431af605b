/// The note lanes drawn above the lyrics while scoring: each singer's notes as bars at their pitch, the
/// sung pitch as a trail, scrolling right to left past a "now" column (DESIGN §15.3).
///
/// A value the composer is given once; `draw` is pure and reads the singers' `SingerProgress` only.
public struct NoteLanes: Sendable, Equatable {
    /// The song's notes.
    public let track: NoteTrack
    /// The singers' parts, one strip each (`nil` for a song without parts); two parts make a duet.
    public let parts: [Voice?]
    /// The lines each part sings, in beat order: found once, not every frame.
    private let partLines: [[NoteLine]]

    /// Lanes for the singers of `parts` (an empty list means one singer of every line).
    public init(track: NoteTrack, parts: [Voice?]) {
        self.track = track
        self.parts = parts.isEmpty ? [nil] : parts
        partLines = self.parts.map { part in track.lines(for: part).sorted { $0.firstBeat < $1.firstBeat } }
    }

    /// Lanes for every part the track has: one strip for a song without parts, one per part for a duet.
    public init(track: NoteTrack) {
        self.init(track: track, parts: track.parts)
    }

    /// The progress of the singer of `part`: the one whose part it is, else, with one singer per part, the
    /// singer in that part's place.
    func progress(of part: Voice?, in singers: [SingerProgress]) -> SingerProgress? {
        if let exact = singers.first(where: { $0.part == part }) { return exact }
        guard singers.count == parts.count, let index = parts.firstIndex(of: part) else { return nil }
        return singers[index]
    }

    /// The smallest height of one strip, in rows.
    static let minimumHeight = 4
    /// The largest height of one strip, in rows.
    static let maximumHeight = 8
    /// Rows the lyric area keeps at least: a strip that would leave fewer is left out (DESIGN §15.3).
    static let minimumLyricRows = 3
    /// The screen height from which a duet gets one strip per singer instead of one shared strip.
    static let twoStripRows = 20
    /// A column stands for at least this many milliseconds, so a fast song's line still fits the width.
    static let minimumMillisecondsPerColumn = 40.0

    /// How the strips sit on a screen of `rows`: how many strips (0 when there is no room) and each one's height.
    ///
    /// One strip is a third of the rows between title and status, 4 to 8 rows; a duet on a screen of 20 rows
    /// or more gets two strips of a quarter each (4 to 8), on a shorter one a shared strip.
    func arrangement(screenRows rows: Int) -> (strips: Int, height: Int) {
        let between = rows - 2
        if parts.count >= 2 && rows >= NoteLanes.twoStripRows {
            let height = min(NoteLanes.maximumHeight, max(NoteLanes.minimumHeight, between / 4))
            if between - 2 * height >= NoteLanes.minimumLyricRows { return (2, height) }
        }
        var height = min(NoteLanes.maximumHeight, max(NoteLanes.minimumHeight, between / 3))
        while height > NoteLanes.minimumHeight && between - height < NoteLanes.minimumLyricRows { height -= 1 }
        return between - height >= NoteLanes.minimumLyricRows ? (1, height) : (0, 0)
    }

    /// The rows the strips take on a screen of `rows` (0 when they are left out).
    public func totalRows(screenRows rows: Int) -> Int {
        let (strips, height) = arrangement(screenRows: rows)
        return strips * height
    }

    /// Beats one scrolling column stands for: 1, or more for a song whose beats are shorter than 40 ms.
    var beatsPerColumn: Int {
        guard track.millisecondsPerBeat > 0 else { return 1 }
        return max(1, Int((NoteLanes.minimumMillisecondsPerColumn / track.millisecondsPerBeat).rounded(.up)))
    }

    /// The lines `part` sings, in beat order.
    func lines(for part: Voice?) -> [NoteLine] {
        if let index = parts.firstIndex(of: part) { return partLines[index] }
        return track.lines(for: part).sorted { $0.firstBeat < $1.firstBeat }
    }

    /// The line whose notes set the pitch scale at `beat`: the last one started, else the first.
    static func currentLine(of lines: [NoteLine], at beat: Double) -> NoteLine? {
        lines.last { Double($0.firstBeat) <= beat } ?? lines.first
    }

    /// The window of beats the strip shows at `beat`: scrolling with "now" a quarter across, or under
    /// reduce motion the current line as a page across the whole width.
    func window(
        at beat: Double, page: NoteLine?, areaStart: Int, areaWidth: Int, reduceMotion: Bool
    ) -> LaneWindow {
        if reduceMotion, let page {
            let span = Double(max(1, page.endBeat - page.firstBeat))
            return LaneWindow(
                origin: Double(page.firstBeat), originColumn: areaStart,
                beatsPerColumn: span / Double(max(1, areaWidth)), areaStart: areaStart, areaWidth: areaWidth,
                nowColumn: nil)
        }
        let k = Double(beatsPerColumn)
        let now = areaStart + areaWidth / 4
        return LaneWindow(
            origin: (beat / k).rounded(.down) * k, originColumn: now, beatsPerColumn: k, areaStart: areaStart,
            areaWidth: areaWidth, nowColumn: now)
    }

    /// Draws the strips for `fileTime` (ms) into `screen` from row `top`, across the lyric area; returns the
    /// rows used.
    @discardableResult
    func draw(
        at fileTime: Double, singers: [SingerProgress], into screen: inout [FrameRow], top: Int,
        areaStart: Int, areaWidth: Int, theme: Theme, restOpacity: Double, reduceMotion: Bool
    ) -> Int {
        let (strips, height) = arrangement(screenRows: screen.count)
        let beat = track.beat(at: fileTime)
        // A broken beat grid or an absurd time draws nothing rather than trapping on an integer conversion.
        guard strips > 0, track.millisecondsPerBeat > 0, NoteLanes.isDrawable(beat) else { return 0 }
        let isDuet = parts.count >= 2
        let groups: [[Voice?]] = strips >= parts.count ? parts.map { [$0] } : [parts]
        for (index, group) in groups.enumerated() {
            var grid = LaneGrid(rows: height, areaStart: areaStart, areaWidth: areaWidth)
            let groupLines = group.map { lines(for: $0) }
            let currents = groupLines.map { NoteLanes.currentLine(of: $0, at: beat) }
            let scale = LaneScale(range: NoteLanes.union(currents.compactMap { $0?.pitchRange }), rows: height)
            // A shared strip turns its page with the first part's line.
            let window = window(
                at: beat, page: currents.compactMap { $0 }.first, areaStart: areaStart, areaWidth: areaWidth,
                reduceMotion: reduceMotion)
            if let now = window.nowColumn { grid.markNow(column: now, color: theme.status) }
            for (k, part) in group.enumerated() {
                let ink = isDuet ? theme.ink(for: part ?? .part(0)) : theme.foreground
                // The plain foreground keeps the terminal's own colour on 8 colours; inks and gold keep their hue.
                let accent: RGB? = ink == theme.foreground ? nil : ink
                let progress = progress(of: part, in: singers)
                let drawn = LaneInk(
                    ink: ink, accent: accent, gold: theme.gold, background: theme.background, rest: restOpacity)
                grid.drawNotes(of: groupLines[k], window: window, scale: scale, progress: progress, ink: drawn)
                if let progress {
                    let visible = window.beats
                    let near = groupLines[k].filter {
                        $0.endBeat > visible.lowerBound && $0.firstBeat <= visible.upperBound
                    }
                    grid.drawTrail(
                        progress.trail, upTo: fileTime, track: track, lines: near, window: window, scale: scale,
                        ink: drawn)
                }
            }
            let first = top + index * height
            for r in 0..<height where first + r < screen.count {
                screen[first + r] = FrameRow(kind: .lanes, cells: grid.cells(ofRow: height - 1 - r))
            }
        }
        return strips * height
    }

    /// Whether a beat is finite and near enough to the song to be given a column.
    static func isDrawable(_ beat: Double) -> Bool { beat.isFinite && abs(beat) < 1e9 }

    /// The smallest range holding all of `ranges`, or nil for none.
    static func union(_ ranges: [ClosedRange<Int>]) -> ClosedRange<Int>? {
        guard let low = ranges.map(\.lowerBound).min(), let high = ranges.map(\.upperBound).max() else { return nil }
        return low...high
    }
}

/// Which columns beats fall on: `column = originColumn + ⌊(beat − origin) / beatsPerColumn⌋` (DESIGN §15.3).
struct LaneWindow: Equatable {
    /// The beat at the left edge of `originColumn`.
    var origin: Double
    /// The column where `origin` is.
    var originColumn: Int
    /// Beats per column: a whole number when scrolling, the page's beats over its width under reduce motion.
    var beatsPerColumn: Double
    /// The first column of the strip.
    var areaStart: Int
    /// The strip's width.
    var areaWidth: Int
    /// The "now" column when scrolling; nil for a page.
    var nowColumn: Int?

    /// The column of a (fractional) beat; columns outside the strip are returned as they are.
    func column(of beat: Double) -> Int {
        // A hair of slack so a beat exactly on a column edge is not pushed left by rounding.
        originColumn + Int(((beat - origin) / beatsPerColumn + 1e-9).rounded(.down))
    }

    /// The columns beat `beat` covers: at least one, more when a page gives a beat several columns.
    func columns(ofBeat beat: Int) -> ClosedRange<Int> {
        let first = column(of: Double(beat))
        return first...max(first, column(of: Double(beat + 1)) - 1)
    }

    /// The beats in view, from the strip's left edge to its right edge.
    var beats: ClosedRange<Int> {
        let low = origin + Double(areaStart - originColumn) * beatsPerColumn
        let high = origin + Double(areaStart + areaWidth - originColumn) * beatsPerColumn
        return Int(low.rounded(.down))...max(Int(low.rounded(.down)), Int(high.rounded(.up)))
    }
}

/// Maps a pitch to a strip row (0 at the bottom), relative to the current line's pitch range (DESIGN §15.3).
///
/// A range narrower than the strip gets one row per semitone, centred; one that fits an octave is
/// compressed onto the rows; a wider one is folded into one octave above its lowest note first, as
/// UltraStar games fold octaves (scoring ignores the octave too). Pitches outside the range (other lines,
/// the sung trail) are moved by octaves towards it first, then held to the strip.
struct LaneScale: Equatable {
    /// The lowest pitch of the range.
    var low: Int
    /// The highest pitch of the range.
    var high: Int
    /// The strip's height.
    var rows: Int

    /// The scale for `range` (a line without a pitched note is taken as middle C) on `rows` rows.
    init(range: ClosedRange<Int>?, rows: Int) {
        low = range?.lowerBound ?? 0
        high = range?.upperBound ?? 0
        self.rows = max(1, rows)
    }

    /// Whether the range is wider than an octave and folded.
    var isFolded: Bool { high - low > 11 }

    /// The middle of the range, the octave a pitch with no note to follow is folded to.
    var middle: Double { Double(low + high) / 2 }

    /// `pitch` moved by whole octaves as near as it gets to `target`.
    static func fold(_ pitch: Double, toward target: Double) -> Double {
        pitch + 12 * ((target - pitch) / 12).rounded()
    }

    /// The row of `pitch` (UltraStar pitch, fractional for a sung one), folded towards `target` when it is
    /// outside the range (the line's middle when nil).
    func row(of pitch: Double, near target: Double? = nil) -> Int {
        let span = high - low
        let top = rows - 1
        var p = pitch
        if p < Double(low) - 0.5 || p > Double(high) + 0.5 { p = LaneScale.fold(p, toward: target ?? middle) }
        let row: Int
        if span < rows {
            let base = low - (top - span) / 2
            row = Int((p - Double(base)).rounded())
        } else if span <= 11 {
            row = Int(((p - Double(low)) * Double(top) / Double(span)).rounded())
        } else {
            var q = (pitch - Double(low)).truncatingRemainder(dividingBy: 12)
            if q < 0 { q += 12 }
            row = Int((q * Double(top) / 11).rounded())
        }
        return min(top, max(0, row))
    }
}

/// The colours one singer's bars are drawn in.
struct LaneInk {
    /// The singer's ink: hit beats, the trail.
    var ink: RGB
    /// The hue kept on an 8-colour terminal (nil: the terminal's own colour).
    var accent: RGB?
    /// Golden notes.
    var gold: RGB
    /// The background unsung bars fade into.
    var background: RGB
    /// The brightness of unsung bars.
    var rest: Double

    /// An unsung or missed bar of ink `color`.
    func dim(_ color: RGB) -> RGB { background.mixed(with: color, rest) }
}

/// A strip being drawn: at most one cell per row and column.
struct LaneGrid {
    /// The cell of each row (0 at the bottom) and column of the strip.
    private var cells: [[FrameCell?]]
    /// The strip's first column.
    let areaStart: Int
    /// The strip's width.
    let areaWidth: Int

    /// An empty strip.
    init(rows: Int, areaStart: Int, areaWidth: Int) {
        cells = Array(repeating: Array(repeating: nil, count: max(0, areaWidth)), count: rows)
        self.areaStart = areaStart
        self.areaWidth = areaWidth
    }

    /// The glyphs of the lanes (DESIGN §15.3).
    enum Glyph {
        /// A beat not sung yet, or missed.
        static let unsung = "▒"
        /// A beat judged a hit.
        static let hit = "█"
        /// A freestyle beat: hollow, never scored.
        static let freestyle = "┄"
        /// A rap beat, scored on the voice alone.
        static let rap = "×"
        /// One heard pitch of the trail.
        static let trail = "•"
        /// The "now" line.
        static let now = "│"
    }

    /// Puts a cell at `column` of `row`, when both are in the strip.
    private mutating func put(
        _ glyph: String, row: Int, column: Int, fill: Double, color: RGB, accent: RGB?
    ) {
        let x = column - areaStart
        guard row >= 0, row < cells.count, x >= 0, x < areaWidth else { return }
        var cell = FrameCell(
            column: column, grapheme: Character(glyph), glyph: glyph, width: 1, role: .lanes, fill: fill, color: color)
        cell.accent = accent
        cells[row][x] = cell
    }

    /// Whether a bar already sits at `column` of `row`.
    private func hasBar(row: Int, column: Int) -> Bool {
        let x = column - areaStart
        guard row >= 0, row < cells.count, x >= 0, x < areaWidth, let cell = cells[row][x] else { return false }
        return cell.glyph != Glyph.now && cell.glyph != Glyph.trail
    }

    /// The "now" line down the whole strip, under everything drawn later.
    mutating func markNow(column: Int, color: RGB) {
        for row in cells.indices { put(Glyph.now, row: row, column: column, fill: 0, color: color, accent: nil) }
    }

    /// Draws the bars of `lines` that fall in `window`: hit beats (judged) full, the rest dim.
    mutating func drawNotes(
        of lines: [NoteLine], window: LaneWindow, scale: LaneScale, progress: SingerProgress?, ink: LaneInk
    ) {
        let visible = window.beats
        for line in lines where line.endBeat > visible.lowerBound && line.firstBeat <= visible.upperBound {
            for note in line.notes {
                let row = scale.row(of: Double(note.pitch))
                let first = max(note.beat, visible.lowerBound)
                let last = min(note.beat + note.length - 1, visible.upperBound)
                guard first <= last else { continue }
                for beat in first...last {
                    let hit =
                        note.kind != .freestyle
                        && (progress.map { beat < $0.judgedThrough && $0.hitBeats.contains(beat) }
                            ?? false)
                    let base = note.kind.isGolden ? ink.gold : ink.ink
                    let accent = note.kind.isGolden ? ink.gold : ink.accent
                    let glyph: String
                    switch note.kind {
                    case .freestyle: glyph = Glyph.freestyle
                    case .rap, .goldenRap: glyph = Glyph.rap
                    case .normal, .golden: glyph = hit ? Glyph.hit : Glyph.unsung
                    }
                    for column in window.columns(ofBeat: beat) {
                        // Where several beats share a column, a hit stays shown.
                        if !hit, hasBar(row: row, column: column),
                            cells[row][column - areaStart]?.fill == 1
                        {
                            continue
                        }
                        put(
                            glyph, row: row, column: column, fill: hit ? 1 : 0, color: hit ? base : ink.dim(base),
                            accent: accent)
                    }
                }
            }
        }
    }

    /// Draws the sung pitches of `trail` heard by `fileTime`, each folded to the octave of the note sung
    /// at its time (or the line's middle), where no bar is.
    mutating func drawTrail(
        _ trail: [PitchFrame], upTo fileTime: Double, track: NoteTrack, lines: [NoteLine], window: LaneWindow,
        scale: LaneScale, ink: LaneInk
    ) {
        for frame in trail where frame.time <= fileTime {
            guard let midi = frame.midi else { continue }
            let beat = track.beat(at: frame.time)
            guard NoteLanes.isDrawable(beat), midi.isFinite, abs(midi) < 1000 else { continue }
            let column = window.column(of: beat)
            if let now = window.nowColumn, column > now { continue }
            let sung = LaneGrid.note(in: lines, at: beat)
            let target = sung.flatMap { $0.kind == .freestyle ? nil : Double($0.pitch) }
            let row = scale.row(of: midi - 60, near: target)
            guard !hasBar(row: row, column: column) else { continue }
            put(Glyph.trail, row: row, column: column, fill: 0.5, color: ink.ink, accent: ink.accent)
        }
    }

    /// The note sounding at `beat`, if any.
    static func note(in lines: [NoteLine], at beat: Double) -> SungNote? {
        let whole = Int(beat.rounded(.down))
        for line in lines where line.firstBeat <= whole && whole < line.endBeat {
            if let note = line.notes.first(where: { $0.beat <= whole && whole < $0.beat + $0.length }) { return note }
        }
        return nil
    }

    /// The cells of `row` (0 at the bottom) in column order.
    func cells(ofRow row: Int) -> [FrameCell] { cells[row].compactMap { $0 } }
}
