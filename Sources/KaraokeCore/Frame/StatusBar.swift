/// The bottom row: state, elapsed / total, a progress bar, the offset when not 0, the singer's key,
/// tempo and vocals when changed, key hints (DESIGN §4, §14.1).
public enum StatusBar {
    /// The status text for `width` cells; parts that do not fit are dropped, hints first, the bar last.
    /// A notice (the volume, a missing mpv) takes the hints' place; `singing` (`key +2  tempo 0.85×`)
    /// follows the offset.
    public static func text(
        elapsed: Double, total: Double, paused: Bool, userOffset: Int, width: Int,
        notice: String? = nil, singing: String? = nil, queuePosition: String? = nil
    ) -> String {
        layOut(
            elapsed: elapsed, total: total, paused: paused, userOffset: userOffset, width: width, notice: notice,
            singing: singing, queuePosition: queuePosition
        ).text
    }

    /// The elapsed time the bar shows: `elapsed` held within 0…`total` (and 0 for a negative total).
    static func shownElapsed(_ elapsed: Double, total: Double) -> Double { min(max(0, elapsed), max(0, total)) }

    /// The status text and the width of the progress bar in it (0 when there is none).
    ///
    /// The text depends on the elapsed time only through its whole seconds and the bar's played cells
    /// (`filledCells` for that width), so a caller can keep the text while those stay the same.
    ///
    /// While scoring, `score` (`♪ 4,210 great`) follows the time and the queue position: it is kept when
    /// the hints and the bar are dropped (DESIGN §15.4).
    static func layOut(
        elapsed: Double, total: Double, paused: Bool, userOffset: Int, width: Int,
        notice: String?, singing: String? = nil, queuePosition: String? = nil, score: String? = nil
    ) -> (text: String, barWidth: Int) {
        let clampedTotal = max(0, total)
        let clamped = shownElapsed(elapsed, total: total)
        var head = "\(paused ? "⏸" : "▶") \(clock(clamped)) / \(clock(clampedTotal))"
        // In a queue the song's place follows the time, as much a part of where the evening stands.
        if let queuePosition { head += "  " + queuePosition }
        if let score, !score.isEmpty { head += "  " + score }
        let offset = userOffset == 0 ? "" : "offset \(signedSeconds(userOffset))"
        let hints = "␣ pause  ←→ seek  ? help  q quit"
        var tail: [String] = []
        if !offset.isEmpty { tail.append(offset) }
        if let singing, !singing.isEmpty { tail.append(singing) }
        if let notice {
            // A notice matters more than the progress bar: it takes the hints' place and, when it does not
            // leave room for a bar, the bar's too; cut with an ellipsis only when the row is too narrow.
            let shown = ControlCharacters.strip(notice)
            let room = width - head.count - tail.reduce(0) { $0 + $1.count + 2 } - 2
            if room >= 8 {
                let fitted = shown.count <= room ? shown : String(shown.prefix(room - 1)) + "…"
                let barRoom = room - fitted.count - 2
                var parts = [head]
                if barRoom >= 10 { parts.append(bar(elapsed: clamped, total: clampedTotal, width: barRoom)) }
                parts.append(contentsOf: tail + [fitted])
                return (parts.joined(separator: "  "), barRoom >= 10 ? barRoom : 0)
            }
        }
        let barMinimum = 10
        var used = head.count + tail.reduce(0) { $0 + $1.count + 2 }
        if used + hints.count + 2 + barMinimum + 2 <= width {
            tail.append(hints)
            used += hints.count + 2
        }
        let barWidth = width - used - 2
        var parts = [head]
        if barWidth >= 4 { parts.append(bar(elapsed: clamped, total: clampedTotal, width: barWidth)) }
        parts.append(contentsOf: tail)
        var line = parts.joined(separator: "  ")
        if line.count > width { line = String(line.prefix(width)) }
        return (line, barWidth >= 4 ? barWidth : 0)
    }

    /// The progress bar, `width` cells: heavy for the part played.
    static func bar(elapsed: Double, total: Double, width: Int) -> String {
        let done = filledCells(elapsed: elapsed, total: total, width: width)
        return String(repeating: "━", count: done) + String(repeating: "─", count: width - done)
    }

    /// The cells of a `width`-cell bar that show as played, for an elapsed time within 0…`total`.
    static func filledCells(elapsed: Double, total: Double, width: Int) -> Int {
        total > 0 ? Int((elapsed / total * Double(width)).rounded(.down)) : 0
    }

    /// The whole seconds `clock` shows for `seconds`.
    static func wholeSeconds(_ seconds: Double) -> Int { Int(max(0, seconds).rounded(.down)) }

    /// `m:ss` (or `h:mm:ss`) for seconds, rounded down.
    public static func clock(_ seconds: Double) -> String {
        let total = wholeSeconds(seconds)
        let hours = total / 3600, minutes = total / 60 % 60, secs = total % 60
        let paddedSeconds = secs < 10 ? "0\(secs)" : "\(secs)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(paddedSeconds)" }
        return "\(minutes):\(paddedSeconds)"
    }

    /// `+0.3s` / `-1.25s` for an offset in milliseconds: exact, with at least one decimal.
    ///
    /// Not rounded to the tenth the keys step by: `--offset 30` must not read as `+0.0s`.
    public static func signedSeconds(_ milliseconds: Int) -> String {
        let magnitude = milliseconds.magnitude
        var decimals = String(magnitude % 1000)
        decimals = String(repeating: "0", count: 3 - decimals.count) + decimals
        while decimals.count > 1 && decimals.last == "0" { decimals.removeLast() }
        return "\(milliseconds < 0 ? "-" : "+")\(magnitude / 1000).\(decimals)s"
    }
}
