/// What a command takes besides its options' values (DESIGN §1): how many FILEs, the options it needs, the
/// options that exclude each other and those that go with an audio FILE only.
///
/// The parser checks a command line against its command's shape before it reads any value, so the one walk
/// in `CommandLineParser.parse` serves every command; what no table can say (fetch's two ways of naming a
/// song) is the shape's `rule`.
struct CommandShape: Sendable {
    /// An option given on the command line, with its value as written (`""` for a flag).
    typealias Given = (option: CommandLineOption, value: String)

    /// How many FILEs (the arguments that are not options) a command takes.
    enum Files: Sendable {
        /// None: it works on something else (a player, the microphone, the settings).
        case none
        /// Exactly one.
        case one
        /// At least one.
        case oneOrMore
        /// Any number, none too: the shape's `rule` says what else (party's FOLDERs, none the current one).
        case any
    }

    /// How many FILEs the command takes.
    var files: Files
    /// An option that makes the command take no FILE (`sync --calibrate` plays its own clicks).
    var withoutFiles: String? = nil
    /// The options the command needs (`render --at`); the help says "required" after their sentence.
    var required: [String] = []
    /// Pairs of options that contradict each other.
    var exclusive: [(String, String)] = []
    /// Options that name where an audio FILE's lyrics come from, and so need an audio FILE among the FILEs.
    var audioOnly: [String] = []
    /// What else the command refuses, from its FILEs and options.
    var rule: (@Sendable (_ files: [String], _ given: [Given]) -> UsageProblem?)? = nil

    /// The shape of `command`.
    static func of(_ command: CommandLineOption.Command) -> CommandShape {
        switch command {
        case .play:
            // Several FILEs make a queue (DESIGN §14.2), and each song's audio is found beside it.
            CommandShape(
                files: .oneOrMore, exclusive: [("--audio", "--no-audio"), ("--print", "--score")],
                audioOnly: ["--lyrics", "--fetch"],
                rule: { files, given in
                    if files.count > 1 && given.contains(where: { $0.option.name == "--print" }) {
                        return .printForQueue
                    }
                    return files.count > 1 && given.contains { $0.option.name == "--audio" } ? .audioForQueue : nil
                })
        case .render:
            // One moment (`--at`) or a span (`--from` and `--to`, DESIGN §26); the span's format is checked
            // once the values are read, as a config file may set it.
            CommandShape(
                files: .one, exclusive: [("--at", "--from"), ("--at", "--to")], audioOnly: ["--lyrics"],
                rule: renderRule)
        case .check: CommandShape(files: .oneOrMore, audioOnly: ["--lyrics"])
        case .convert: CommandShape(files: .one, required: ["--to"])
        case .fetch: CommandShape(files: .any, exclusive: [("--output", "--save")], rule: fetchRule)
        case .sync:
            CommandShape(
                files: .one, withoutFiles: "--calibrate", exclusive: [("--resume", "--no-resume")],
                rule: { _, given in
                    given.contains { $0.option.name == "--output" && $0.value == "-" } ? .syncToStdout : nil
                })
        // FOLDER...: none searches the current folder (`PartyRequest.searchedFolders`).
        case .party: CommandShape(files: .any, exclusive: [("--resume", "--no-resume")])
        // mic prints its analyses as JSON; the current line is follow's and play's (DESIGN §28).
        case .mic:
            CommandShape(
                files: .none,
                rule: { _, given in
                    given.first { $0.option.name == "--print" && $0.value != StatusLineForm.json.rawValue }
                        .map { .printFormForMic($0.value) }
                })
        case .follow, .calibrate, .config: CommandShape(files: .none)
        }
    }

    /// What `fetch` needs besides its options: AUDIO files, or `--artist` and `--title` instead; `--save`
    /// only with AUDIO, `-o` only for one song.
    private static func fetchRule(files: [String], given: [Given]) -> UsageProblem? {
        let names = Set(given.map(\.option.name))
        if names.contains("--artist") || names.contains("--title") {
            if !files.isEmpty { return .filesAndNames }
            if !names.contains("--artist") || !names.contains("--title") { return .needsBothNames }
            if names.contains("--save") { return .saveWithoutFiles }
            return nil
        }
        if files.isEmpty { return .nothingToFetch }
        if let option = ["--album", "--duration"].first(where: names.contains) {
            return .goesWithNames(option: option)
        }
        if names.contains("--output"), files.count > 1 { return .outputForSeveral(count: files.count) }
        return nil
    }

    /// What `render` needs besides its options: `--at`, or `--from` and `--to` together.
    private static func renderRule(files: [String], given: [Given]) -> UsageProblem? {
        let names = Set(given.map(\.option.name))
        switch (names.contains("--from"), names.contains("--to")) {
        case (true, false): return .spanNeedsBoth(given: "--from", missing: "--to")
        case (false, true): return .spanNeedsBoth(given: "--to", missing: "--from")
        case (false, false): return names.contains("--at") ? nil : .missingMoment
        case (true, true): return nil
        }
    }

    /// The first thing wrong with `command` given the FILEs `positional` and the options `given`, before any
    /// value is read.
    func problem(
        of command: CommandLineOption.Command, positional: [String], given: [Given]
    ) -> UsageProblem? {
        let names = Set(given.map(\.option.name))
        if let option = withoutFiles, names.contains(option) {
            if !positional.isEmpty { return .unexpectedFileWith(option: option) }
        } else {
            switch files {
            case .none where !positional.isEmpty: return .unexpectedFile(command)
            case .one where positional.count > 1: return .tooManyFiles(command, count: positional.count)
            case .one where positional.isEmpty, .oneOrMore where positional.isEmpty: return .missingFile(command)
            default: break
            }
        }
        if let option = required.first(where: { !names.contains($0) }) {
            return .missingOption(command, option: option)
        }
        if let option = audioOnly.first(where: names.contains), !positional.contains(where: AudioFiles.isAudio) {
            return .needsAudioFile(option: option)
        }
        if let (first, second) = exclusive.first(where: { names.contains($0.0) && names.contains($0.1) }) {
            return .contradiction(first, second)
        }
        return rule?(positional, given)
    }
}
