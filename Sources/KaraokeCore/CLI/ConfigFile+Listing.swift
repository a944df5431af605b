extension ConfigFile {
    /// What `karaoke config` prints: every setting in the help's order with its value and where it came
    /// from (the command line, the config file's line, or the default), itself a valid config file.
    ///
    /// Defaults are written as comments, so the listing can be saved as a config file and changes nothing
    /// until a line is uncommented.
    static func listing(config: ConfigFile?, given: [(option: String, value: String)]) -> String {
        var rows: [(setting: String, source: String)] = []
        for option in settable {
            let key = String(option.name.dropFirst(2))
            let fromCommandLine = given.filter { $0.option == option.name }
            let fromFile = config?.settings.filter { $0.option == option.name } ?? []
            if !fromCommandLine.isEmpty {
                for entry in fromCommandLine {
                    rows.append(("\(key) = \(option.takesValue ? entry.value : "true")", "command line"))
                }
            } else if let config, !fromFile.isEmpty {
                // A repeatable option keeps every line; any other takes the last, as the command line does.
                let shown = option.isRepeatable ? fromFile : [fromFile[fromFile.count - 1]]
                for setting in shown { rows.append(("\(key) = \(setting.value)", "\(config.path):\(setting.line)")) }
            } else {
                let value = option.takesValue ? (option.defaultValue ?? "") : "false"
                rows.append(("# \(key) = \(value)", value.isEmpty ? "default: none" : "default"))
            }
        }
        let width = min(48, rows.map(\.setting.count).max() ?? 0)
        let file = config.map { "\($0.path)" } ?? "no config file"
        var text = "# karaoke's settings: the command line, then \(Diagnostic.visible(file)), then the defaults\n"
        for row in rows {
            let padding = String(repeating: " ", count: max(1, width + 2 - row.setting.count))
            text += Diagnostic.visible(row.setting) + padding + "# " + Diagnostic.visible(row.source) + "\n"
        }
        return text
    }
}

extension CommandLineOption {
    /// Whether the option may be given more than once, each adding to a list: its help sentence says "(repeatable)".
    var isRepeatable: Bool { help.includes("(repeatable)") }
}
