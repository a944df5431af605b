/// Frames recorded as one animated SVG picture that loops, for a README (DESIGN §27).
///
/// Each distinct row is drawn once in `<defs>`; each row position holds the drawings it shows side by side in
/// a strip, and a CSS animation slides the strip so that the drawing of the moment sits in the picture. Only
/// changes are stored: a row that stays the same costs nothing per frame. A pure value: no files, no clock.
public struct SVGRecording: Sendable {
    /// One change of a row position: from `time` on it shows `drawing` (an index into `drawings`, or -1 blank).
    struct Change: Sendable, Equatable {
        var time: Double
        var drawing: Int
    }

    /// Width in cells.
    public let columns: Int
    /// Height in rows.
    public let rows: Int
    /// The page's colours: the theme's background, and its foreground for text without a colour of its own.
    let theme: Theme
    /// Every distinct row drawing, in the order first seen.
    private(set) var drawings: [SVGRowDrawing] = []
    /// Where each drawing is in `drawings`.
    private var drawingIndex: [SVGRowDrawing: Int] = [:]
    /// For each row position, its changes in time order; the first is the first frame's row.
    private(set) var changes: [[Change]]
    /// The time of the last frame appended.
    private var lastTime: Double?
    /// The rows of the last frame appended: a row equal to its predecessor is not drawn again.
    private var lastRows: [FrameRow?]

    /// An empty recording of a screen `columns` × `rows` cells, in the colours of `options.theme`.
    public init(columns: Int, rows: Int, options: FrameOptions) {
        self.columns = max(1, columns)
        self.rows = max(1, rows)
        theme = options.theme
        changes = Array(repeating: [], count: self.rows)
        lastRows = Array(repeating: nil, count: self.rows)
    }

    /// Adds `frame`, shown from `seconds` after the start until the next frame (or the loop's end).
    ///
    /// Times should increase; a time before the previous frame's is taken as the previous frame's, so the
    /// later frame replaces it. Rows beyond `rows` and cells beyond `columns` are left out.
    public mutating func append(_ frame: Frame, at seconds: Double) {
        var time = seconds.isFinite ? seconds : 0
        if let lastTime { time = max(time, lastTime) }
        lastTime = time
        for position in 0..<rows {
            let row = position < frame.rows.count ? frame.rows[position] : .blank
            // Most rows are as they were a frame ago; comparing is cheaper than drawing them again.
            if row == lastRows[position] { continue }
            lastRows[position] = row
            let drawing = SVGRowDrawing(row, columns: columns, foreground: theme.foreground)
            let index = drawing.isBlank ? -1 : intern(drawing)
            if let last = changes[position].last {
                guard last.drawing != index else { continue }
                if last.time == time {
                    changes[position][changes[position].count - 1].drawing = index
                    continue
                }
            }
            changes[position].append(Change(time: time, drawing: index))
        }
    }

    /// The drawing's index, adding it the first time it is seen.
    private mutating func intern(_ drawing: SVGRowDrawing) -> Int {
        if let index = drawingIndex[drawing] { return index }
        drawings.append(drawing)
        drawingIndex[drawing] = drawings.count - 1
        return drawings.count - 1
    }

    /// The picture: the frames appended, looping every `duration` seconds (frames from then on are left out).
    ///
    /// The first frame is shown from the start of each loop even when it was appended later than 0.
    public func svg(duration: Double) -> String {
        let loop = duration.isFinite && duration > 0 ? duration : 1
        let width = columns * SVGCell.width, height = rows * SVGCell.height
        // Each position's strip: the drawings it shows, and when each comes, as keyframe offsets.
        var strips: [(slots: [Int], keyframes: [(percent: String, slot: Int)])] = []
        for position in 0..<rows {
            var keyframes: [(percent: String, slot: Int)] = []
            var slots: [Int] = []
            for (k, change) in changes[position].enumerated() {
                guard k == 0 || change.time < loop else { break }
                let percent = k == 0 ? "0" : SVGNumber.decimal(change.time / loop * 100, places: 4)
                let slot = slots.firstIndex(of: change.drawing) ?? slots.count
                if slot == slots.count { slots.append(change.drawing) }
                // Two changes that round to one offset: the later is what shows.
                if keyframes.last?.percent == percent { keyframes.removeLast() }
                if keyframes.last?.slot == slot { continue }
                keyframes.append((percent, slot))
            }
            strips.append((slots, keyframes))
        }
        var used = Set<Int>()
        for strip in strips { for (_, slot) in strip.keyframes { used.insert(strip.slots[slot]) } }
        var ids: [Int: String] = [:]
        for index in used.sorted() where index >= 0 { ids[index] = SVGRecording.identifier(ids.count) }

        var output = "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\""
        output += " width=\"\(SVGNumber.decimal(Double(width) * SVGCell.scale, places: 1))\""
        output += " height=\"\(SVGNumber.decimal(Double(height) * SVGCell.scale, places: 1))\""
        // `xml:space` keeps runs of spaces for renderers that ignore the style's `white-space`.
        output += " fill=\"\(theme.foreground)\" xml:space=\"preserve\">"
        // Rows are already in visual order (right-to-left ones too), so no reordering; spaces are cells.
        output += "<style>text{font:\(SVGCell.fontSize)px \(SVGCell.fontFamily);white-space:pre;"
        output += "unicode-bidi:bidi-override;direction:ltr}.b{font-weight:bold}"
        let seconds = SVGNumber.decimal(loop, places: 3) + "s"
        for (position, strip) in strips.enumerated() where strip.keyframes.count > 1 {
            output += ".r\(position){animation:k\(position) \(seconds) step-end infinite}@keyframes k\(position){"
            for slot in strip.slots.indices {
                let offsets = strip.keyframes.filter { $0.slot == slot }.map { $0.percent + "%" }
                guard !offsets.isEmpty else { continue }
                output += offsets.joined(separator: ",") + "{transform:translate("
                output += slot == 0 ? "0)}" : "-\(slot * width)px)}"
            }
            output += "}"
        }
        output += "</style><rect width=\"100%\" height=\"100%\" fill=\"\(theme.background)\"/>"
        if !ids.isEmpty {
            output += "<defs>"
            for index in ids.keys.sorted() { output += drawings[index].definition(id: ids[index]!) }
            output += "</defs>"
        }
        for (position, strip) in strips.enumerated() {
            let y = position * SVGCell.height + SVGCell.baseline
            if strip.keyframes.count == 1 {
                if let id = ids[strip.slots[strip.keyframes[0].slot]] { output += "<use href=\"#\(id)\" y=\"\(y)\"/>" }
                continue
            }
            guard strip.keyframes.count > 1 else { continue }
            output += "<g transform=\"translate(0 \(y))\"><g class=\"r\(position)\">"
            for (slot, drawing) in strip.slots.enumerated() {
                // A blank slot is only a place the strip can slide to.
                guard let id = ids[drawing] else { continue }
                output += slot == 0 ? "<use href=\"#\(id)\"/>" : "<use href=\"#\(id)\" x=\"\(slot * width)\"/>"
            }
            output += "</g></g>"
        }
        output += "</svg>\n"
        return output
    }

    /// One frame as a picture: the same drawing as a recording's, without animation.
    public static func still(_ frame: Frame, options: FrameOptions) -> String {
        var recording = SVGRecording(columns: frame.columns, rows: frame.rowCount, options: options)
        recording.append(frame, at: 0)
        return recording.svg(duration: 1)
    }

    /// A short XML name for the drawing numbered `number`: `a` … `z`, `aa`, `ab`, … (letters only, so it never
    /// meets the row classes `r0`, `r1`, …).
    static func identifier(_ number: Int) -> String {
        var letters: [Character] = []
        var n = number
        repeat {
            letters.append(Character(Unicode.Scalar(UInt8(97 + n % 26))))
            n = n / 26 - 1
        } while n >= 0
        return String(letters.reversed())
    }
}

/// Numbers as an SVG or its CSS writes them: short, with no exponent.
enum SVGNumber {
    /// `value` rounded to `places` decimals, trailing zeros and a trailing point dropped: `12.5`, `40`.
    static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = Int((abs(value) * scale).rounded())
        let whole = scaled / Int(scale), fraction = scaled % Int(scale)
        var text = (value < 0 && scaled != 0 ? "-" : "") + String(whole)
        if fraction != 0 {
            var digits = String(fraction)
            digits = String(repeating: "0", count: places - digits.count) + digits
            while digits.last == "0" { digits.removeLast() }
            text += "." + digits
        }
        return text
    }
}
