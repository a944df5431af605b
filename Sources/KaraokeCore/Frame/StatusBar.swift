/// The bottom row: state, elapsed / total, a progress bar, then the score, the offset, the singer's key,
/// tempo and vocals, and a notice or key hints (DESIGN §4, §14.1, §15.4).
///
/// The row has three places, each a function of the width and the song alone, so nothing jumps when a
/// notice comes or goes: the clock at the left, the progress bar after it at a fixed width, and the
/// message place after the bar, which takes the rest (`Zones`).
public enum StatusBar {
    /// The status text for `width` cells. A notice (the volume, a missing mpv) takes the hints' place;
    /// `singing` (`key +2  tempo 0.85×`) follows the offset.
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

    /// The key hints, longest first: the longest that fits the message place is shown.
    static let hints = ["␣ pause  ←→ seek  ? help  q quit", "? help  q quit", "? help"]
    /// The fewest cells a notice is given beside the score and the settings, and the least room the clock
    /// leaves the messages before it gives up the queue's place and then the total.
    static let noticeMinimum = 10
    /// The widest the progress bar gets, however wide the row.
    static let barMaximum = 40
    /// The narrowest progress bar drawn: one narrower tells too little to be worth its room.
    static let barMinimum = 8

    /// Where the clock, the bar and the messages stand on a row: what depends on the width, the song's
    /// length and its place in a queue, never on the moment, the offset or a notice.
    struct Zones: Equatable {
        /// Whether the clock shows the total (`▶ 0:30 / 2:00`) or only the elapsed time (`▶ 0:30`).
        var showsTotal: Bool
        /// Whether the queue's place (`2/7`) follows the clock.
        var showsQueuePosition: Bool
        /// The progress bar's width: 0 when the row has no room for one.
        var barWidth: Int
        /// The cells left for the score, the offset, the singer's settings and the notice or hints.
        var messageWidth: Int
    }

    /// The places on a row of `width` cells for a song of `total` seconds (DESIGN §4).
    ///
    /// 1. The clock: `▶ m:ss / m:ss`, the elapsed time padded to the total's width, then the queue's place;
    ///    the place goes when it would leave the messages fewer than `noticeMinimum` cells, then the total.
    /// 2. The bar, two cells after the clock, when that leaves the messages room for the short hints (14
    ///    cells): a tenth of the row, at least `barMinimum` and at most `barMaximum` cells. Small, because
    ///    the messages are what a user reads: a notice of 55 cells fits at 80 columns, 91 at 120.
    /// 3. The messages, two cells after the bar (or the clock): the rest of the row.
    static func zones(width: Int, total: Double, queuePosition: String?) -> Zones {
        let totalWidth = clock(max(0, total)).count
        let full = 2 + totalWidth + 3 + totalWidth
        let queue = queuePosition.map { 2 + DisplayWidth.of($0) } ?? 0
        var zones = Zones(showsTotal: true, showsQueuePosition: queuePosition != nil, barWidth: 0, messageWidth: 0)
        var clockWidth = full + queue
        if width - clockWidth - 2 < noticeMinimum, queuePosition != nil {
            zones.showsQueuePosition = false
            clockWidth = full
        }
        if width - clockWidth - 2 < noticeMinimum {
            zones.showsTotal = false
            clockWidth = 2 + totalWidth
        }
        let free = width - clockWidth - 2
        // A bar only where the messages keep room for the short hints (and so for a notice) beside it.
        if free - barMinimum - 2 >= DisplayWidth.of(hints[1]) {
            zones.barWidth = max(barMinimum, min(barMaximum, width / 10))
        }
        zones.messageWidth = max(0, free - (zones.barWidth > 0 ? zones.barWidth + 2 : 0))
        return zones
    }

    /// The status text and the width of the progress bar in it (0 when there is none), with the cell the
    /// score starts at when it is shown.
    ///
    /// The text depends on the elapsed time only through its whole seconds and the bar's played cells
    /// (`filledCells` for that width), so a caller can keep the text while those stay the same. The bar's
    /// place and width are `zones(width:total:queuePosition:)`'s whatever else the row shows.
    ///
    /// The messages, in this order: the score while scoring (`♪ 4,210 great`, DESIGN §15.4), the offset,
    /// the singer's settings, then the notice or else the longest key hints that fit. A notice takes what
    /// is left, cut with "…" when it is longer, but never fewer than `noticeMinimum` cells: for those the
    /// singer's settings give way, then the offset, then the score, while it lasts. On a row without a bar
    /// (under 39 cells), a notice longer than the messages' place takes the whole row while it lasts.
    static func layOut(
        elapsed: Double, total: Double, paused: Bool, userOffset: Int, width: Int,
        notice: String?, singing: String? = nil, queuePosition: String? = nil, score: String? = nil
    ) -> (text: String, barWidth: Int, scoreStart: Int?) {
        let clampedTotal = max(0, total)
        let clamped = shownElapsed(elapsed, total: total)
        let zones = zones(width: width, total: clampedTotal, queuePosition: queuePosition)
        let shownNotice = notice.map(ControlCharacters.strip).flatMap { $0.isEmpty ? nil : $0 }
        // On a row without a bar nothing keeps its place anyway: a notice too long for the messages' place
        // is better read whole than cut, so it takes the row while it lasts.
        if let shownNotice, zones.barWidth == 0, DisplayWidth.of(shownNotice) > zones.messageWidth {
            return (fitted(shownNotice, width), 0, nil)
        }
        let totalText = clock(clampedTotal)
        var elapsedText = clock(clamped)
        elapsedText = String(repeating: " ", count: max(0, totalText.count - elapsedText.count)) + elapsedText
        var head = "\(paused ? "⏸" : "▶") \(elapsedText)"
        if zones.showsTotal { head += " / " + totalText }
        if zones.showsQueuePosition, let queuePosition { head += "  " + queuePosition }
        var line = head
        if zones.barWidth > 0 { line += "  " + bar(elapsed: clamped, total: clampedTotal, width: zones.barWidth) }
        let room = zones.messageWidth
        let shownScore = score.flatMap { $0.isEmpty ? nil : $0 }
        var settings: [String] = []
        if userOffset != 0 { settings.append("offset \(signedSeconds(userOffset))") }
        if let singing, !singing.isEmpty { settings.append(singing) }
        var messages: [String]
        if let shownNotice {
            var lead = shownScore.map { [$0] } ?? []
            // What is left for the notice after what the row shows anyway.
            func left() -> Int {
                let before = lead + settings
                return room - (before.isEmpty ? 0 : joinedWidth(before) + 2)
            }
            // The notice gets at least `noticeMinimum` cells: the settings give way first, then the score.
            while left() < noticeMinimum, !settings.isEmpty { settings.removeLast() }
            if left() < noticeMinimum { lead = [] }
            messages = lead + settings + [fitted(shownNotice, left())]
        } else {
            messages = (shownScore.map { [$0] } ?? []) + settings
            if let hint = hints.first(where: { joinedWidth(messages + [$0]) <= room }) { messages.append(hint) }
        }
        let message = fitted(messages.joined(separator: "  "), room)
        var scoreStart: Int?
        if !message.isEmpty {
            line += "  "
            if let shownScore, message.hasPrefix(shownScore) { scoreStart = DisplayWidth.of(line) }
            line += message
        }
        // Below the smallest screen (which shows no status bar) the clock alone may be too wide.
        if DisplayWidth.of(line) > width { return (prefix(line, width), 0, nil) }
        return (line, zones.barWidth, scoreStart)
    }

    /// The characters of `text` that fit in `width` cells.
    private static func prefix(_ text: String, _ width: Int) -> String {
        var result = "", used = 0
        for character in text {
            used += DisplayWidth.of(character)
            if used > width { break }
            result.append(character)
        }
        return result
    }

    /// The cells `parts` take joined by two spaces.
    private static func joinedWidth(_ parts: [String]) -> Int {
        parts.isEmpty ? 0 : parts.reduce(0) { $0 + DisplayWidth.of($1) } + 2 * (parts.count - 1)
    }

    /// `text` within `width` cells: as it is when it fits, else cut with "…" at the end (nothing for a width
    /// of 0 or less).
    static func fitted(_ text: String, _ width: Int) -> String {
        guard DisplayWidth.of(text) > width else { return text }
        guard width > 0 else { return "" }
        return prefix(text, width - 1) + "…"
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
