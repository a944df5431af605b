/// Completion scripts for bash, zsh and fish, made from the option table (DESIGN §14.5): the commands,
/// each command's options, the values of options that have a fixed set, and lyric and audio files.
enum ShellCompletion {
    /// What an option's value is completed from.
    enum ValueKind: Equatable {
        /// One of these words.
        case choices([String])
        /// A file name.
        case file
        /// A folder name.
        case folder
        /// Anything: nothing is offered.
        case free
    }

    /// What `option`'s value is completed from, read from its rule: its choices, files, folders, or nothing.
    static func valueKind(of option: CommandLineOption) -> ValueKind {
        if let words = option.rule.candidates { return .choices(words) }
        switch option.rule {
        case .file: return .file
        case .folder: return .folder
        default: return .free
        }
    }

    /// The commands, as the shell offers them.
    static var commandNames: [String] { CommandLineOption.Command.allCases.map(\.rawValue) }

    /// The options `command` takes, long names first.
    static func optionNames(of command: CommandLineOption.Command) -> [String] {
        let options = CommandLineOption.options(of: command)
        return options.map(\.name) + options.compactMap(\.shortName)
    }

    /// The file name endings of the files the commands read: lyrics, karaoke files and audio.
    static var fileExtensions: [String] {
        let all =
            AudioFiles.lyricExtensions + ["txt", "ttml", "xml", "m3u", "m3u8"] + AudioFiles.midiExtensions + [
                "cdg", "zip",
            ]
            + AudioFiles.audioExtensions
        var seen: Set<String> = []
        return all.filter { seen.insert($0).inserted }
    }

    /// The script for `shell` (bash, zsh or fish); nil for another shell.
    static func script(for shell: String) -> String? {
        switch shell {
        case "bash": bash
        case "zsh": zsh
        case "fish": fish
        default: nil
        }
    }

    /// What the bash script does for the word after `option`: offer its choices, files or folders, or nothing.
    static func bashValueCompletion(of option: CommandLineOption) -> String {
        switch valueKind(of: option) {
        case .choices(let words): "COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return"
        case .file: "COMPREPLY=($(compgen -f -- \"$cur\")); return"
        case .folder: "COMPREPLY=($(compgen -d -- \"$cur\")); return"
        case .free: option.takesValue && option.bareValue == nil ? "return" : ":"
        }
    }

    /// The bash script: `complete -F` with a function that looks at the command and the previous word.
    static var bash: String {
        var script = """
            # bash completion for karaoke, made by 'karaoke --generate bash' from its option table
            _karaoke() {
                local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}"
                if [ "$COMP_CWORD" -eq 1 ]; then
                    COMPREPLY=($(compgen -W "\(commandNames.joined(separator: " ")) --help --version" -- "$cur"))
                    return
                fi
                case "$prev" in

            """
        var files: [String] = []
        var folders: [String] = []
        var free: [String] = []
        // A name declared for several commands (`--to`) completes its value by the command (DESIGN §1).
        var sharedNames: [String] = []
        for option in CommandLineOption.all
        where !sharedNames.contains(option.name) && CommandLineOption.all.count(where: { $0.name == option.name }) > 1 {
            sharedNames.append(option.name)
        }
        for name in sharedNames {
            script += "        \(name)) case \"${COMP_WORDS[1]}\" in\n"
            for option in CommandLineOption.all where option.name == name {
                let commands = CommandLineOption.Command.allCases.filter(option.commands.contains).map(\.rawValue)
                script += "            \(commands.joined(separator: "|"))) \(bashValueCompletion(of: option));;\n"
            }
            script += "            esac;;\n"
        }
        for option in CommandLineOption.all where !sharedNames.contains(option.name) {
            let names = ([option.name] + (option.shortName.map { [$0] } ?? [])).joined(separator: "|")
            switch valueKind(of: option) {
            case .choices(let words):
                script +=
                    "        \(names)) COMPREPLY=($(compgen -W \"\(words.joined(separator: " "))\" -- \"$cur\")); return;;\n"
            case .file: files.append(names)
            case .folder: folders.append(names)
            // An optional value comes after '=' in the same word: the next word is not the option's.
            case .free: if option.takesValue && option.bareValue == nil { free.append(names) }
            }
        }
        script += "        \(files.joined(separator: "|"))) COMPREPLY=($(compgen -f -- \"$cur\")); return;;\n"
        script += "        \(folders.joined(separator: "|"))) COMPREPLY=($(compgen -d -- \"$cur\")); return;;\n"
        script += "        \(free.joined(separator: "|"))) return;;\n"
        script += "    esac\n    local options\n    case \"${COMP_WORDS[1]}\" in\n"
        for command in CommandLineOption.Command.allCases {
            script += "        \(command.rawValue)) options=\"\(optionNames(of: command).joined(separator: " "))\";;\n"
        }
        let pattern = "!*.@(" + fileExtensions.flatMap { [$0, $0.uppercased()] }.joined(separator: "|") + ")"
        script += """
                esac
                if [[ "$cur" == -* ]]; then
                    COMPREPLY=($(compgen -W "$options" -- "$cur"))
                elif [ "${COMP_WORDS[1]}" = party ]; then
                    # FOLDER...: the folders of the party's songs.
                    local IFS=$'\\n'
                    COMPREPLY=($(compgen -d -- "$cur"))
                else
                    # Lyric and audio files, and folders to go into.
                    local IFS=$'\\n'
                    COMPREPLY=($(shopt -s extglob; compgen -f -X '\(pattern)' -- "$cur"; compgen -d -- "$cur"))
                fi
            }
            complete -o filenames -F _karaoke karaoke

            """
        return script
    }

    /// The zsh script: `_arguments` for the command, then for each command's options and files.
    static var zsh: String {
        let glob = "*.(" + fileExtensions.flatMap { [$0, $0.uppercased()] }.joined(separator: "|") + ")"
        var script = """
            #compdef karaoke
            # zsh completion for karaoke, made by 'karaoke --generate zsh' from its option table

            _karaoke() {
                local -a commands
                commands=(

            """
        for entry in ManPage.commands {
            script += "        '\(entry.command.rawValue):\(zshQuoted(entry.summary))'\n"
        }
        script += """
                )
                if (( CURRENT == 2 )); then
                    _describe 'command' commands
                    compadd -- --help --version
                    return
                fi
                local command=$words[2]
                shift words; (( CURRENT-- ))
                case $command in

            """
        for command in CommandLineOption.Command.allCases {
            script += "        \(command.rawValue))\n            _arguments -S \\\n"
            for option in CommandLineOption.options(of: command) {
                let help = zshQuoted(
                    option.helpWithLimits(for: command).replacingEvery("[", with: "(").replacingEvery("]", with: ")"))
                var action = ""
                if let placeholder = option.placeholder {
                    // A colon would end the message early; brackets are kept out as in the help part.
                    let label = zshQuoted(
                        placeholder.replacingEvery(":", with: " ").replacingEvery("[", with: "(").replacingEvery(
                            "]", with: ")"))
                    switch valueKind(of: option) {
                    case .choices(let words): action = ":\(label):(\(words.joined(separator: " ")))"
                    case .file: action = ":\(label):_files"
                    case .folder: action = ":\(label):_files -/"
                    case .free: action = ":\(label): "
                    }
                    // An optional value: `--monitor=-` takes it after '=' in the same word, `::` says it may be left out.
                    if option.bareValue != nil { action = ":" + action }
                }
                let repeatable = option.isRepeatable ? "*" : ""
                if let short = option.shortName {
                    script +=
                        "                '\(repeatable)(\(short) \(option.name))'{\(short),\(option.name)}'[\(help)]\(action)' \\\n"
                } else {
                    let name = option.name + (option.bareValue == nil ? "" : "=-")
                    script += "                '\(repeatable)\(name)[\(help)]\(action)' \\\n"
                }
            }
            switch command {
            case .config, .follow, .calibrate, .mic: script += "            ;;\n"
            case .party: script += "                '*:folder:_files -/'\n            ;;\n"
            default: script += "                '*:file:_files -g \"\(glob)\"'\n            ;;\n"
            }
        }
        script += """
                esac
            }

            _karaoke "$@"

            """
        return script.replacingEvery(" \\\n            ;;", with: "\n            ;;")
    }

    /// The fish script: one `complete` line per command and per option, with its values.
    static var fish: String {
        var script = """
            # fish completion for karaoke, made by 'karaoke --generate fish' from its option table
            complete -c karaoke -f
            complete -c karaoke -n __fish_use_subcommand -l help -d 'print the help'
            complete -c karaoke -n __fish_use_subcommand -l version -d 'print the version'

            """
        for entry in ManPage.commands {
            script +=
                "complete -c karaoke -n __fish_use_subcommand -a \(entry.command.rawValue) -d '\(fishQuoted(entry.summary))'\n"
        }
        for option in CommandLineOption.all {
            let commands = CommandLineOption.Command.allCases.filter { option.commands.contains($0) }
            // One line for each sentence the option has: a command's own help is offered in that command only.
            var sentences: [(help: String, commands: [CommandLineOption.Command])] = []
            for command in commands {
                let help = option.helpWithLimits(for: command)
                if let index = sentences.firstIndex(where: { $0.help == help }) {
                    sentences[index].commands.append(command)
                } else {
                    sentences.append((help, [command]))
                }
            }
            for (help, commands) in sentences {
                var line =
                    "complete -c karaoke -n '__fish_seen_subcommand_from \(commands.map(\.rawValue).joined(separator: " "))'"
                line += " -l \(option.name.dropFirst(2))"
                if let short = option.shortName { line += " -s \(short.dropFirst())" }
                switch valueKind(of: option) {
                case .choices(let words): line += " -x -a '\(words.joined(separator: " "))'"
                case .file: line += " -r -F"
                case .folder: line += " -x -a '(__fish_complete_directories)'"
                case .free: if option.takesValue && option.bareValue == nil { line += " -x" }
                }
                script += line + " -d '\(fishQuoted(help))'\n"
            }
        }
        let lyricCommands = ["play", "render", "check", "convert", "fetch"].joined(separator: " ")
        let suffixes = fileExtensions.map { "." + $0 }.joined(separator: " ")
        script +=
            "complete -c karaoke -n '__fish_seen_subcommand_from \(lyricCommands)' -k -a "
            + "'(__fish_complete_suffix \(suffixes))'\n"
        // party's FOLDERs.
        script += "complete -c karaoke -n '__fish_seen_subcommand_from party' -a '(__fish_complete_directories)'\n"
        return script
    }

    /// `text` inside single quotes in zsh: a quote closes, escapes and reopens.
    static func zshQuoted(_ text: String) -> String { text.replacingEvery("'", with: "'\\''") }

    /// `text` inside single quotes in fish, where `\` and `'` are escaped.
    static func fishQuoted(_ text: String) -> String {
        text.replacingEvery("\\", with: "\\\\").replacingEvery("'", with: "\\'")
    }
}
