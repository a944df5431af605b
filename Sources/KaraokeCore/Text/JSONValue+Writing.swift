extension JSONValue {
    /// The value as JSON text: two spaces of indentation a level, members sorted by name (so that the same
    /// value always gives the same text), a newline at the end.
    ///
    /// Whole numbers are written without a fraction (`3`, not `3.0`); a number that is not finite, which
    /// JSON cannot write, is written as `null`.
    func writtenText() -> String {
        var output = ""
        write(to: &output, indent: "")
        output += "\n"
        return output
    }

    /// Appends the value, its nested lines indented by `indent` and two more spaces a level.
    private func write(to output: inout String, indent: String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += JSONValue.numberText(value)
        case .string(let text): appendJSONString(text, to: &output)
        case .array(let items):
            guard !items.isEmpty else { output += "[]"; return }
            output += "[\n"
            for (index, item) in items.enumerated() {
                output += indent + "  "
                item.write(to: &output, indent: indent + "  ")
                output += index < items.count - 1 ? ",\n" : "\n"
            }
            output += indent + "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{\n"
            let names = members.keys.sorted()
            for (index, name) in names.enumerated() {
                output += indent + "  "
                appendJSONString(name, to: &output)
                output += ": "
                members[name]?.write(to: &output, indent: indent + "  ")
                output += index < names.count - 1 ? ",\n" : "\n"
            }
            output += indent + "}"
        }
    }

    /// A number as JSON writes it: whole numbers that a double holds exactly without a fraction.
    static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), value.magnitude < 0x1p53 { return String(Int(value)) }
        return "\(value)"
    }
}

extension JSONValue {
    /// The value as JSON text on one line, members sorted by name, with `<`, `>`, `&`, U+2028 and U+2029
    /// escaped as well: what the party's server sends (DESIGN §20.2).
    ///
    /// `writtenText` leaves `<` as it is, which JSON allows; a guest's name such as `</script><script>` then
    /// reaches the browser as written. Served as `application/json` it is not read as HTML, but escaping it
    /// costs nothing and keeps the text harmless wherever a page puts it.
    func compactText() -> String {
        var output = ""
        writeCompact(to: &output)
        return output
    }

    /// Appends the value without white space.
    private func writeCompact(to output: inout String) {
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .number(let value): output += JSONValue.numberText(value)
        case .string(let text): JSONValue.appendSafeString(text, to: &output)
        case .array(let items):
            output += "["
            for (index, item) in items.enumerated() {
                if index > 0 { output += "," }
                item.writeCompact(to: &output)
            }
            output += "]"
        case .object(let members):
            output += "{"
            for (index, name) in members.keys.sorted().enumerated() {
                if index > 0 { output += "," }
                JSONValue.appendSafeString(name, to: &output)
                output += ":"
                members[name]?.writeCompact(to: &output)
            }
            output += "}"
        }
    }

    /// Appends `text` as a JSON string with `appendJSONString`'s escapes and `\u` escapes for the characters
    /// that mean something to HTML or end a line in JavaScript.
    private static func appendSafeString(_ text: String, to output: inout String) {
        var escaped = ""
        appendJSONString(text, to: &escaped)
        output += escaped.replacingCharacters([
            "<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u{2028}": "\\u2028", "\u{2029}": "\\u2029",
        ])
    }
}
