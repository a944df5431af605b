extension ConfigFile {
    /// What `karaoke config` prints: every setting in the help's order with its value and where it came
    /// from (the command line, the config file's line, or the default), itself a valid config file.
    ///
    /// Every setting line is config text that reads back to its value: a default is a setting behind `# `,
    /// so the listing can be saved as a config file and changes nothing until a line is uncommented, and
    /// uncommenting it sets the default as it is. What a value cannot say (what `auto` means, a default
    /// that is no value, such as "the terminal's, else 80") goes on a comment line of its own above it.
    static func listing(config: ConfigFile?, given: [(option: String, value: String)]) -> String {
        // Each entry is a comment line of its own, a setting line with its source, or both (comment first).
        var entries: [(note: String?, setting: String?, source: String)] = []
        for option in settable {
            let key = String(option.name.dropFirst(2))
            let fromCommandLine = given.filter { $0.option == option.name }
            let fromFile = config?.settings.filter { $0.option == option.name } ?? []
            var values: [(value: String, source: String)] = []
            if !fromCommandLine.isEmpty {
                values = fromCommandLine.map { (option.takesValue ? $0.value : "true", "command line") }
            } else if let config, !fromFile.isEmpty {
                // A repeatable option keeps every line; any other takes the last, as the command line does.
                let shown = option.isRepeatable ? fromFile : [fromFile[fromFile.count - 1]]
                values = shown.map { ($0.value, "\(config.path):\($0.line)") }
            }
            for (value, source) in values {
                if let setting = setting(key, value) {
                    entries.append((nil, setting, source))
                } else {
                    // Text no config line can hold (a line break, a control character): said, not written.
                    entries.append(("\(key): the value from \(source) cannot be written in a config file", nil, ""))
                }
            }
            guard values.isEmpty else { continue }
            let value = option.takesValue ? option.defaultValue : "false"
            var note: String?
            if let text = option.defaultText, option.defaultMeaning != nil {
                note = "\(key): by default \(text)"
            } else if value == nil {
                note = "\(key): none by default"
            }
            entries.append((note, value.flatMap { setting(key, $0) }.map { "# " + $0 }, "default"))
        }
        let width = min(48, entries.compactMap { $0.setting?.count }.max() ?? 0)
        let file = config.map { "\($0.path)" } ?? "no config file"
        var text = "# karaoke's settings: the command line, then \(Diagnostic.visible(file)), then the defaults\n"
        for entry in entries {
            if let note = entry.note { text += "# " + Diagnostic.visible(note) + "\n" }
            guard let setting = entry.setting else { continue }
            let padding = String(repeating: " ", count: max(1, width + 2 - setting.count))
            text += setting + padding + "# " + Diagnostic.visible(entry.source) + "\n"
        }
        return text
    }

    /// `key = value` as a config line that reads back to exactly `value`: quoted when it has outer blanks,
    /// a ` # ` or quotes around it; nil when no line can hold it.
    static func setting(_ key: String, _ value: String) -> String? {
        guard Diagnostic.visible(value) == value, !value.contains(where: \.isNewline) else { return nil }
        for written in [value, "\"" + value + "\""] where unquoted(withoutComment(trimmed(Substring(written)))) == value
        {
            return "\(key) = \(written)"
        }
        return nil
    }
}

extension CommandLineOption {
    /// Whether the option may be given more than once, each adding to a list: its help sentence says "(repeatable)".
    var isRepeatable: Bool { help.includes("(repeatable)") }
}
