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
    private static func numberText(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        if value == value.rounded(), value.magnitude < 0x1p53 { return String(Int(value)) }
        return "\(value)"
    }
}
