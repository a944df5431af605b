/// The printed forms of a frame: `render --format text|ansi|json` (DESIGN §1, §5).
extension Frame {
    /// Each row as displayed, trailing spaces trimmed, one line per row.
    public func textRendering() -> String {
        var output = ""
        for row in rows {
            output += row.text
            output += "\n"
        }
        return output
    }

    /// The rows with SGR colour codes for `depth`, each row ending in a reset.
    ///
    /// Right-to-left rows are already in visual order, so the text is wrapped in BDSM explicit mode
    /// (`CSI 8 h` … `CSI 8 l`) to ask terminals that reorder not to do it again.
    public func ansiRendering(depth: ColorDepth) -> String {
        let escape = "\u{1B}["
        var output = hasRightToLeftRows ? escape + "8h" : ""
        for row in rows {
            var column = 0
            var current: TerminalStyle? = nil
            for cell in row.cells {
                if cell.column > column {
                    if current != nil { output += escape + "0m"; current = nil }
                    output += String(repeating: " ", count: cell.column - column)
                }
                let style = TerminalStyle.of(cell, depth: depth)
                if style != current {
                    output += escape + "0"
                    switch style.weight {
                    case .bold: output += ";1"
                    case .dim: output += ";2"
                    case .normal: break
                    }
                    if let rgb = style.rgb { output += ";38;2;\(rgb.red);\(rgb.green);\(rgb.blue)" }
                    if let index = style.paletteIndex { output += index < 8 ? ";3\(index)" : ";38;5;\(index)" }
                    if let rgb = style.backgroundRGB { output += ";48;2;\(rgb.red);\(rgb.green);\(rgb.blue)" }
                    if let index = style.backgroundIndex { output += index < 8 ? ";4\(index)" : ";48;5;\(index)" }
                    output += "m"
                    current = style
                }
                output += TerminalStyle.glyph(of: cell, depth: depth)
                column = cell.column + cell.width
            }
            if current != nil { output += escape + "0m" }
            output += "\n"
        }
        if hasRightToLeftRows { output += escape + "8l" }
        return output
    }

    /// The JSON object of DESIGN §5, one screen row per line of output.
    public func jsonRendering() -> String {
        var output = "{\"time\":\(jsonNumber(time)),\"cols\":\(columns),\"rows\":\(rows.count),\"size\":\(size)"
        output += ",\"screen\":[\n"
        for (index, row) in rows.enumerated() {
            output += "{\"row\":\(index),\"kind\":\"\(row.kind.rawValue)\",\"text\":"
            appendJSONString(row.text, to: &output)
            if let line = row.line { output += ",\"line\":\(line)" }
            if row.kind == .lyric || row.kind == .translation || row.kind == .countIn {
                output += ",\"cells\":["
                for (k, cell) in (row.bigGraphemes ?? row.cells).enumerated() {
                    if k > 0 { output += "," }
                    output += "{\"col\":\(cell.column),\"text\":"
                    appendJSONString(String(cell.grapheme), to: &output)
                    output += ",\"width\":\(cell.width),\"fill\":\(jsonNumber((cell.fill * 1000).rounded() / 1000))}"
                }
                output += "]"
            }
            output += index == rows.count - 1 ? "}\n" : "},\n"
        }
        output += "]}\n"
        return output
    }
}

/// A JSON number for a finite double (Swift's shortest round-trip form is valid JSON).
func jsonNumber(_ value: Double) -> String {
    guard value.isFinite else { return "0" }
    if value == value.rounded(), abs(value) < 1e15 { return "\(Int(value)).0" }
    return "\(value)"
}

/// Appends `text` as a JSON string literal, escaping quotes, backslashes and control characters.
func appendJSONString(_ text: String, to output: inout String) {
    output += "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": output += "\\\""
        case "\\": output += "\\\\"
        case "\n": output += "\\n"
        case "\r": output += "\\r"
        case "\t": output += "\\t"
        default:
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) {
                let hex = Array("0123456789abcdef")
                output += "\\u00" + String(hex[Int(scalar.value >> 4)]) + String(hex[Int(scalar.value & 0xF)])
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
    }
    output += "\""
}
