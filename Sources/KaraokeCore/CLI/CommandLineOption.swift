/// One option of `karaoke`'s commands, declared once (DESIGN §1): its name, its value's rule (range, choices,
/// or syntax) and placeholder, its default, its help sentence, the commands that take it and what its value sets.
///
/// The parser, the help texts, the man page, the completions and the "did you mean" suggestions all read
/// `CommandLineOption.all`, so an option cannot be accepted and left out of the help, and a range or a list
/// of choices is written in one place, the option's `rule`.
///
/// One name may be declared more than once when the declarations' commands are disjoint and the name is
/// command-line only (`--to` is convert's format and render's span end, DESIGN §1): an option is looked up
/// by its name and the command it is given to (`named(_:for:)`), and each command's help shows its own.
struct CommandLineOption: Sendable {
    /// A subcommand of `karaoke`.
    enum Command: String, CaseIterable, Sendable {
        case play, render, check, convert, fetch, follow, sync
        /// `karaoke calibrate` and `karaoke mic`: the microphone on its own (DESIGN §15.1).
        case calibrate, mic
        /// `karaoke party`: guests request songs from their phones (DESIGN §20).
        case party
        /// `karaoke config`: the settings in effect (DESIGN §14.4).
        case config
    }

    /// The long name, such as `--fps`.
    let name: String
    /// A one-letter alias, such as `-o`; nil when there is none.
    let shortName: String?
    /// What the value may be: the parser checks it, the help shows its range, the completions offer its choices.
    let rule: ValueRule
    /// What the value is called in the help (`N`, `left|center|right`); nil for a flag, which takes no value.
    let placeholder: String?
    /// The value the command uses without the option, written as the option takes it (`30`, `auto`), so
    /// `karaoke config` can print it as a setting; nil when no value says it (see `defaultMeaning`).
    let defaultValue: String?
    /// What the default is or means when its value alone does not say (`auto`: "an MPRIS player that plays,
    /// else MPD"), or the default itself when no value of the option says it ("the terminal's, else 80").
    let defaultMeaning: String?
    /// What the option does: lower case, no full stop, without its range (the help adds it from `rule`). The
    /// man page says it once for every command that takes the option, so it may name them.
    let help: String
    /// What a command's own help says instead of `help`, where the option does something else there: each
    /// command's help speaks of that command only.
    let helpFor: [Command: String]
    /// What a command's own help gives as the default instead of `defaultText`, where it differs there
    /// (render's `--size` is 1).
    let defaultFor: [Command: String]
    /// The value an option whose value is optional takes when given bare (`--monitor` is `--monitor=100`);
    /// nil when the value, if any, must be given. Such a value is given after `=`; as the next argument only
    /// when the rule is a choice and that argument is exactly one of its words (`--print lines`, DESIGN §28),
    /// else the next argument stays a FILE (so a FILE named `lines` is then written `./lines`).
    let bareValue: String?
    /// The commands that take it.
    private(set) var commands: Set<Command>
    /// Sets the value, read by `rule`, into what the command line sets; throws only for what needs the
    /// values set so far (`--mic` naming a part twice).
    let apply: @Sendable (inout OptionValues, OptionValue) throws(UsageProblem) -> Void

    /// Declares an option; a choice's placeholder is its words (`left|center|right`), a syntax's its shape.
    init(
        _ name: String, short shortName: String? = nil, _ rule: ValueRule = .flag, placeholder: String? = nil,
        default defaultValue: String? = nil, meaning defaultMeaning: String? = nil, bare bareValue: String? = nil,
        help: String, helpFor: [Command: String] = [:], defaultFor: [Command: String] = [:], commands: Set<Command>,
        apply: @escaping @Sendable (inout OptionValues, OptionValue) throws(UsageProblem) -> Void
    ) {
        self.name = name
        self.shortName = shortName
        self.rule = rule
        self.placeholder = rule == .flag ? nil : placeholder ?? rule.impliedPlaceholder
        self.defaultValue = defaultValue
        self.defaultMeaning = defaultMeaning
        self.bareValue = bareValue
        self.help = help
        self.helpFor = helpFor
        self.defaultFor = defaultFor
        self.commands = commands
        self.apply = apply
    }

    /// Whether the option takes a value.
    var takesValue: Bool { placeholder != nil }

    /// How the help names it: `-o, --output OUT`, or `--monitor[=PERCENT]` when the value is optional.
    var label: String {
        let value = placeholder.map { bareValue == nil ? " " + $0 : "[=" + $0 + "]" } ?? ""
        return (shortName.map { $0 + ", " } ?? "") + name + value
    }

    /// Checks and reads `text` by the option's rule, then sets it into `values`.
    func set(_ text: String, into values: inout OptionValues) throws(UsageProblem) {
        try apply(&values, try rule.read(text, for: name))
    }

    /// What the help says after the sentence besides the default: `required` when a command needs the
    /// option, and the range of a number (`1…120`).
    var limits: [String] {
        // This declaration's commands only: another of the same name may be required where this one is not.
        let required = commands.contains { CommandShape.of($0).required.contains(name) }
        return (required ? ["required"] : []) + (rule.writtenRange.map { [$0] } ?? [])
    }

    /// The sentence `command`'s help shows.
    func help(for command: Command) -> String { helpFor[command] ?? help }

    /// The help sentence (`command`'s own when given) with its limits after it, as the completions show it.
    func helpWithLimits(for command: Command? = nil) -> String {
        (command.map(help(for:)) ?? help) + (limits.isEmpty ? "" : " (" + limits.joined(separator: ", ") + ")")
    }

    /// The help sentence with its limits and default after it: `… (1…120, default 30)`.
    var helpWithDetails: String { help + (details.isEmpty ? "" : " (" + details.joined(separator: ", ") + ")") }

    /// The limits and the default, as `helpWithDetails` lists them.
    var details: [String] { limits + (defaultText.map { ["default " + $0] } ?? []) }

    /// The limits and the default as `command`'s own help lists them.
    func details(for command: Command) -> [String] {
        limits + ((defaultFor[command] ?? defaultText).map { ["default " + $0] } ?? [])
    }

    /// The default as the help words it: its value, what it means, or both (`auto: an MPRIS player …`).
    var defaultText: String? {
        switch (defaultValue, defaultMeaning) {
        case (let value?, let meaning?): value + ": " + meaning
        case (let value?, nil): value
        case (nil, let meaning?): meaning
        case (nil, nil): nil
        }
    }
}

/// What the options of one command line set, whichever command it is; the command's request is made
/// from it once every option has been read.
struct OptionValues: Sendable {
    /// `play` and `render`'s shared options.
    var display = DisplayRequest(file: "")
    /// `play`'s own options (its `display` is not used: see `display`).
    var play = PlayRequest(display: DisplayRequest(file: ""))
    /// `render --at`.
    var time: Double?
    /// `render --at` as written.
    var timeText = "0"
    /// `render --cols`.
    var columns: Int?
    /// `render --rows`.
    var rows: Int?
    /// `render --format`.
    var format = RenderRequest.Format.text
    /// `render --from`: the start of the span recorded.
    var spanStart: Double?
    /// `render --to`: the end of the span recorded.
    var spanEnd: Double?
    /// `convert`'s options (file not yet set).
    var convert = ConvertRequest(file: "", target: "")
    /// `check --strict`.
    var strict = false
    /// `--size`, as given (nil: the command's default, auto, or 1 for render).
    var size: LyricSize?
    /// `--max-size`, in bytes, for every command.
    var maxSize = 64 * 1_048_576
    /// `--encoding`, for every command.
    var encoding: String?
    /// `fetch`'s options (its audio files not yet set).
    var fetch = FetchRequest()
    /// `--help` was given.
    var help = false
    /// `--lyrics`, `--lyrics-dir`, `--fetch` and `--lrclib-url`, for play, render, check and follow.
    var lyrics = LyricsSearchOptions()
    /// `follow`'s own options (its display options are in `display`).
    var follow = FollowRequest(display: DisplayRequest(file: ""))
    /// `sync`'s own options (its file, audio, output, force, mpv options, size and encoding are set from
    /// the shared ones once every option is read).
    var sync = SyncRequest(file: "")
    /// `calibrate` and `mic`'s options (mpv options set from `play`'s once every option is read).
    var mic = MicRequest()
    /// `party`'s own options (its folders and its `play` options are set once every option is read).
    var party = PartyRequest()
}

extension CommandLineOption {
    /// The commands that show a song: they share most options.
    private static let display: Set<Command> = [.play, .render, .follow, .party]
    /// The commands that play songs through mpv: party takes play's audio and scoring options for every song.
    private static let playing: Set<Command> = [.play, .party]

    /// Every option, in the order the help texts list them, with `config` among the commands of each one a
    /// config file may set: `karaoke config` takes them all, to show how the command line changes the settings.
    static let all: [CommandLineOption] = declared.map { option in
        var option = option
        if !ConfigFile.commandLineOnly.contains(option.name) { option.commands.insert(.config) }
        return option
    }

    /// Every option as declared, in the order the help texts list them: each command's own first, the shared
    /// ones after.
    private static let declared: [CommandLineOption] = [
        // render's own
        CommandLineOption(
            "--at", .decimal(0...360_000), placeholder: "SECONDS", help: "the moment of playback to draw",
            commands: [.render]
        ) { values, value in
            values.time = value.decimal
            values.timeText = value.decimalText
        },
        // render over a span: the frames play shows from --from to --to, as asciicast or SVG (DESIGN §26)
        CommandLineOption(
            "--from", .decimal(0...360_000), placeholder: "SECONDS",
            help: "the start of the span of playback to record, with --to and --format asciicast or svg",
            commands: [.render]
        ) { values, value in values.spanStart = value.decimal },
        CommandLineOption(
            "--to", .decimal(0...360_000), placeholder: "SECONDS",
            help: "the end of the span of playback to record, after --from", commands: [.render]
        ) { values, value in values.spanEnd = value.decimal },
        CommandLineOption(
            "--cols", .integer(1...1000), placeholder: "N", meaning: "the terminal's, else 80",
            help: "frame width in cells", commands: [.render]
        ) { values, value in values.columns = value.integer },
        CommandLineOption(
            "--rows", .integer(1...1000), placeholder: "N", meaning: "the terminal's, else 24",
            help: "frame height in rows", commands: [.render]
        ) { values, value in values.rows = value.integer },
        CommandLineOption(
            "--format", .choice(of: RenderRequest.Format.self), default: "text",
            help:
                "plain rows, rows with colour codes, the JSON frame, a CD+G picture as PPM, an asciinema recording or SVG",
            helpFor: [
                .render:
                    "plain rows, rows with colour codes, the JSON frame, a CD+G file's picture as PPM; for a span "
                    + "(--from/--to) an asciinema recording, or SVG (a still with --at)"
            ],
            commands: [.render]
        ) { values, value in values.format = value.choice() },
        // follow's own: another player's track and clock (DESIGN §12)
        CommandLineOption(
            "--player", .player, default: "auto", meaning: "an MPRIS player that plays, else MPD",
            help: "the player to follow", commands: [.follow]
        ) { values, value in values.follow.player = value.player },
        CommandLineOption(
            "--music-dir", .folder(called: "folder"), placeholder: "DIR",
            meaning: "MPD's own, asked over a local socket",
            help: "the folder MPD plays from, to find the playing file's lyrics", commands: [.follow]
        ) { values, value in values.follow.musicDirectory = value.text },
        CommandLineOption(
            "--print", .choice(of: StatusLineForm.self), meaning: "the screen; given bare, json", bare: "json",
            help:
                "print instead of the screen, without a terminal: the current line (lines), waybar's JSON (waybar) "
                + "or JSON lines (json: follow, the player's state; play, the line and its time; mic, each analysis)",
            helpFor: [
                .follow:
                    "print instead of the screen: the current line at each change (lines), waybar's JSON (waybar), "
                    + "or the player's state as a JSON line at each change (json)",
                .play:
                    "print instead of the screen, without a terminal: the current line at each change (lines), "
                    + "waybar's JSON (waybar), or a JSON line with the time, the line and the next (json)",
                .mic: "print each analysis as a JSON line, instead of the screen (json only)",
            ],
            commands: [.follow, .play, .mic]
        ) { values, value in
            let form: StatusLineForm = value.choice()
            values.follow.print = form
            values.play.print = form
            values.mic.prints = true
        },
        // party's own: the server guests reach and the rotation's limit (DESIGN §20)
        CommandLineOption(
            "--port", .integer(0...65535), placeholder: "N", default: "\(PartyRequest().port)",
            help: "the port the guests' page is served on; 0 lets the system pick a free one", commands: [.party]
        ) { values, value in values.party.port = value.integer },
        CommandLineOption(
            "--bind", .ipv4Address, meaning: "every IPv4 address",
            help: "the IPv4 address to listen on (127.0.0.1: this machine only)", commands: [.party]
        ) { values, value in values.party.bind = value.text },
        CommandLineOption(
            "--code", .roomCode, meaning: "four random digits, shown on the card",
            help: "the room code guests type to ask for songs", commands: [.party]
        ) { values, value in values.party.code = value.text },
        CommandLineOption(
            "--max-per-singer", .integer(1...20), placeholder: "N",
            default: "\(PartyRotation.defaultMaximumPerSinger)",
            help: "the most songs one singer may have waiting", commands: [.party]
        ) { values, value in values.party.maximumPerSinger = value.integer },
        // play's own
        CommandLineOption(
            "--start", .decimal(0...360_000), placeholder: "SECONDS", default: "0",
            help: "start this far into the song", commands: [.play]
        ) { values, value in values.play.start = value.decimal },
        CommandLineOption(
            "--fps", .integer(1...120), placeholder: "N", default: "30",
            help: "frames per second while the sweep moves (render: of a span)",
            helpFor: [
                .play: "frames per second while the sweep moves", .follow: "frames per second while the sweep moves",
                .party: "frames per second while the sweep moves",
                .render: "frames per second of a span (--from/--to); not used for one frame (--at)",
            ], commands: display
        ) { values, value in values.display.framesPerSecond = value.integer },
        CommandLineOption(
            "--audio", .file, placeholder: "FILE",
            meaning: "the lyrics' name with .mp3, .flac, .ogg, .opus, .m4a, .wav, …, when there is one",
            help: "the audio to play", commands: [.play, .sync]
        ) { values, value in values.play.audio = .file(value.text) },
        CommandLineOption("--no-audio", help: "play silently, on karaoke's own clock", commands: playing) {
            values, _ in values.play.audio = .none
        },
        CommandLineOption(
            "--volume", .integer(0...PlayerState.maximumVolume), placeholder: "N", default: "100",
            help: "audio volume in percent",
            commands: playing
        ) { values, value in values.play.volume = value.integer },
        CommandLineOption(
            "--mpv-option", .mpvOption, help: "pass an option to mpv (repeatable), e.g. ao=null",
            commands: [.play, .sync, .calibrate, .party]
        ) { values, value in values.play.mpvOptions.append(value.text) },
        // the music of a MIDI song (DESIGN §18)
        CommandLineOption(
            "--soundfont", .file, placeholder: "FILE",
            meaning: "TimGM6mb.sf2, FluidR3_GM.sf2 or default-GM.sf2 in /usr/share/sounds/sf2, the first there is",
            help: "the General MIDI SoundFont that plays a MIDI song's music (without one: libsonivox)",
            commands: playing
        ) { values, value in values.play.soundfont = value.text },
        CommandLineOption(
            "--melody-channel", .integer(1...16), placeholder: "N",
            meaning: "the channel the song's lyrics follow",
            help: "the MIDI channel that v turns down in a MIDI song", commands: [.play]
        ) { values, value in values.play.melodyChannel = value.integer - 1 },
        // a CD+G song's picture (DESIGN §19.9)
        CommandLineOption(
            "--graphics", .choice(of: GraphicsChoice.self), default: "auto",
            meaning: "ask the terminal; sixel or kitty where it says so, else cells",
            help: "how a CD+G picture is drawn: in cells, or in pixels with sixel or kitty graphics",
            commands: [.play]
        ) { values, value in values.play.graphics = value.choice() },
        CommandLineOption(
            "--clock-log", .file, placeholder: "FILE",
            help: "write the lyric clock and the player's positions to FILE (for measuring sync)",
            commands: [.play, .follow]
        ) { values, value in
            values.play.clockLog = value.text
            values.follow.clockLog = value.text
        },
        // play's `s` key: saving the offset into the lyric file (DESIGN §13.2)
        CommandLineOption(
            "--apply-offset",
            help: "s saves the offset by moving every stamp (and dropping [offset:]) instead of in [offset:]",
            commands: [.play]
        ) { values, _ in values.play.appliesOffset = true },
        // sync's own: timing your own lyrics by tapping along (DESIGN §13.1)
        CommandLineOption(
            "--words",
            help: "stamp word by word (syllables where the text splits them with |) and write Enhanced LRC",
            commands: [.sync]
        ) { values, _ in values.sync.words = true },
        CommandLineOption(
            "--latency", .integer(0...2000), placeholder: "MS", default: "0",
            help: "your reaction time, subtracted from every tap", commands: [.sync]
        ) { values, value in values.sync.latency = value.integer },
        CommandLineOption(
            "--resume",
            help:
                "go on without asking: sync, from OUT.autosave when there is one; party, with today's unfinished party",
            helpFor: [
                .sync: "go on from OUT.autosave when there is one, without asking",
                .party: "go on with today's party when it was left unfinished, without asking",
            ],
            commands: [.sync, .party]
        ) { values, _ in
            values.sync.resume = true
            values.party.resume = true
        },
        CommandLineOption(
            "--no-resume",
            help:
                "start afresh without asking: sync, even when there is an OUT.autosave; party, even after an unfinished party today",
            helpFor: [
                .sync: "start afresh even when there is an OUT.autosave, without asking",
                .party: "start afresh even when today's party was left unfinished, without asking",
            ],
            commands: [.sync, .party]
        ) { values, _ in
            values.sync.resume = false
            values.party.resume = false
        },
        CommandLineOption(
            "--calibrate", help: "tap along to 16 clicks (no FILE): the median lateness is the --latency to use",
            commands: [.sync]
        ) { values, _ in values.sync.calibrates = true },
        // a karaoke night: play's vocals, key and tempo through mpv's filters (DESIGN §14.1), and the
        // count-in of every command that shows a song (DESIGN §14.3)
        CommandLineOption(
            "--no-countdown", help: "no count-in dots before the first line and after a silence of more than 5 s",
            commands: display
        ) { values, _ in values.display.frame.countIn = false },
        CommandLineOption(
            "--vocals", .integerOrWord(SingingSettings.vocalsRange, words: SingingSettings.vocalsWords),
            placeholder: "PERCENT", default: "100",
            help:
                "keep PERCENT of the centre of a stereo mix, where the lead vocal (and the bass) sit, as a guide; "
                + "normal is 100, reduced 0",
            commands: playing
        ) { values, value in values.play.singing.vocalsPercent = value.integer },
        CommandLineOption(
            "--key", .integer(SingingSettings.keyRange), placeholder: "N", default: "0",
            help: "move the key N semitones, the tempo kept", commands: playing
        ) { values, value in values.play.singing.key = value.integer },
        CommandLineOption(
            "--tempo", .decimal(0.5...1.5), placeholder: "X", default: "1",
            help: "play at X times the tempo, the pitch kept", commands: playing
        ) { values, value in values.play.singing.tempoPercent = Int((value.decimal * 100).rounded()) },
        // play's queue: several FILEs, a folder or a playlist (DESIGN §14.2)
        CommandLineOption("--shuffle", help: "play the queue in a random order", commands: [.play]) { values, _ in
            values.play.queue.shuffles = true
        },
        CommandLineOption(
            "--seed", .integer(0...Int.max), placeholder: "N", meaning: "from the clock",
            help: "the seed of --shuffle's order, for the same order again", commands: [.play]
        ) { values, value in
            values.play.queue.seed = UInt64(value.integer)
            values.play.queue.shuffles = true
        },
        CommandLineOption("--loop", help: "start the queue over after its last song", commands: [.play]) { values, _ in
            values.play.queue.loops = true
        },
        CommandLineOption(
            "--singer", .word, placeholder: "NAME",
            help: "who sings, shown on the card before each song (a playlist's #EXTSINGER wins)", commands: [.play]
        ) { values, value in values.play.queue.singer = value.text },
        // hearing yourself: the microphone to the speakers while the song plays (DESIGN §24)
        CommandLineOption(
            "--monitor", .integer(MonitorOptions.percentRange), placeholder: "PERCENT",
            meaning: "off; given bare, \(MonitorOptions.defaultPercent)", bare: "\(MonitorOptions.defaultPercent)",
            help: "send the microphone (--mic) to the speakers at PERCENT of its loudness while the song plays",
            commands: playing
        ) { values, value in values.play.monitor.percent = value.integer },
        CommandLineOption(
            "--monitor-sink", .word, placeholder: "SINK", meaning: "the server's default sink",
            help: "the PulseAudio sink the monitor plays to ('pactl list short sinks')", commands: playing
        ) { values, value in values.play.monitor.sink = value.text },
        CommandLineOption(
            "--reverb", help: "add a small room's echo to the monitor", commands: playing
        ) { values, _ in values.play.monitor.reverb = true },
        // scoring: the microphone against the UltraStar notes (DESIGN §15); --mic also for calibrate and mic
        CommandLineOption(
            "--score", help: "score the singing from the microphone against an UltraStar song's notes",
            helpFor: [
                .render: "draw the note lanes 'play --score' shows (UltraStar and MIDI karaoke), with nobody singing"
            ],
            commands: playing.union([.render])
        ) { values, _ in values.play.scoring.isOn = true },
        CommandLineOption(
            "--mic", .microphone, meaning: "the server's default source",
            help:
                "the PulseAudio source to listen to ('pactl list short sources'); play, party: P1=, P2= give each part of a duet its own (repeatable)",
            helpFor: [
                .play:
                    "the PulseAudio source to listen to ('pactl list short sources'); P1=SOURCE and P2=SOURCE give each part of a duet its own (repeatable)",
                .party:
                    "the PulseAudio source to listen to ('pactl list short sources'); P1=SOURCE and P2=SOURCE give each part of a duet its own (repeatable)",
                .calibrate: "the PulseAudio source to listen to ('pactl list short sources')",
                .mic: "the PulseAudio source to listen to ('pactl list short sources')",
            ],
            commands: [.play, .calibrate, .mic, .party]
        ) { values, value throws(UsageProblem) in
            let (microphone, argument) = value.microphone
            values.mic.source = microphone.source
            if values.play.scoring.microphones.contains(where: { $0.part != nil && $0.part == microphone.part }) {
                throw .samePartTwice(argument)
            }
            values.play.scoring.microphones.append(microphone)
        },
        CommandLineOption(
            "--difficulty", .choice(of: Difficulty.self), default: "medium",
            help: "how near the note a sung pitch must be: 2, 1 or 0 semitones", commands: playing
        ) { values, value in values.play.scoring.difficulty = value.choice() },
        CommandLineOption(
            "--mic-delay", .integer(ScoringOptions.micDelayRange), placeholder: "MS", default: "150",
            help: "how late the microphone hears the song, in milliseconds ('karaoke calibrate' measures it)",
            commands: playing
        ) { values, value in values.play.scoring.micDelay = value.integer },
        CommandLineOption(
            "--score-out", .file, placeholder: "FILE", help: "write the score as JSON to FILE when the song ends",
            commands: [.play]
        ) { values, value in values.play.scoring.output = value.text },
        // convert's own
        CommandLineOption(
            "--to", .namedChoice(ConvertRequest.targets), placeholder: "FORMAT",
            help: "lrc (line timing), elrc (Enhanced LRC, word timing), srt, vtt (WebVTT)", commands: [.convert]
        ) { values, value in values.convert.target = value.text },
        CommandLineOption(
            "--output", short: "-o", .file, placeholder: "OUT",
            help: "write to OUT instead of stdout ('-' is stdout); sync: instead of FILE's name with .lrc",
            helpFor: [
                .render: "write to OUT instead of stdout ('-' is stdout)",
                .convert: "write to OUT instead of stdout ('-' is stdout)",
                .fetch: "write to OUT instead of stdout ('-' is stdout)",
                .sync: "write the timed lyrics to OUT instead of FILE's name with .lrc",
            ],
            commands: [.render, .convert, .fetch, .sync]
        ) { values, value in
            values.convert.output = value.text == "-" ? nil : value.text
            values.fetch.output = values.convert.output
        },
        CommandLineOption(
            "--force", help: "replace the file written when it exists (without it, an existing file is an error)",
            commands: [.render, .convert, .fetch, .sync]
        ) { values, _ in
            values.convert.force = true
            values.fetch.force = true
        },
        // fetch's own: lyrics from LRCLIB (DESIGN §11)
        CommandLineOption(
            "--artist", .name, placeholder: "A", help: "the artist to look up (with --title, instead of AUDIO files)",
            commands: [.fetch]
        ) { values, value in values.fetch.artist = value.text },
        CommandLineOption(
            "--title", .name, placeholder: "T", help: "the title to look up (with --artist)", commands: [.fetch]
        ) { values, value in values.fetch.title = value.text },
        CommandLineOption(
            "--album", .name, placeholder: "AL", help: "the album, to tell versions apart", commands: [.fetch]
        ) { values, value in values.fetch.album = value.text },
        CommandLineOption(
            "--duration", .decimal(1...86_400), placeholder: "S",
            help: "the song's length in seconds; lyrics within 2 s of it are preferred", commands: [.fetch]
        ) { values, value in values.fetch.duration = value.decimal },
        CommandLineOption(
            "--save", help: "write the lyrics beside each AUDIO (its name with .lrc, or .txt for untimed lyrics)",
            commands: [.fetch]
        ) { values, _ in values.fetch.save = true },
        CommandLineOption(
            "--pick", help: "list the candidates and ask which one (needs a terminal on stdin)", commands: [.fetch]
        ) { values, _ in values.fetch.pick = true },
        // check's own
        CommandLineOption("--strict", help: "count warnings as errors", commands: [.check]) { values, _ in
            values.strict = true
        },
        // shared by the commands that show a song
        CommandLineOption(
            "--reduce-motion", help: "no sweep: rows and words light up whole; the title stands still",
            commands: display
        ) { values, _ in values.display.frame.reduceMotion = true },
        CommandLineOption(
            "--rest-opacity", .decimal(0...1), placeholder: "X", default: "0.35",
            help: "brightness of text not yet sung", commands: display
        ) { values, value in values.display.frame.restOpacity = value.decimal },
        CommandLineOption(
            "--offset", .integer(-Overlay.offsetLimit...Overlay.offsetLimit), placeholder: "MS", default: "0",
            help: "added to the file's [offset:]; positive shows lyrics earlier", commands: display
        ) { values, value in values.display.frame.userOffset = value.integer },
        CommandLineOption(
            "--align", .choice(of: FrameOptions.Alignment.self), default: "center", help: "alignment of lyric rows",
            commands: display
        ) { values, value in values.display.frame.alignment = value.choice() },
        CommandLineOption(
            "--size", .choice(["auto"] + LyricSize.sizes.map(String.init)), default: "auto",
            meaning: "the largest size at which each line and the next fit",
            help: "how big the lyrics are: 1 is text, 2 to 4 big glyphs drawn from GNU Unifont",
            helpFor: [
                .render:
                    "how big the lyrics are: 1 is text, 2 to 4 big glyphs drawn from GNU Unifont; a config file's size is not used"
            ], defaultFor: [.render: "1"], commands: display
        ) { values, value in values.size = LyricSize(value.text) },
        CommandLineOption(
            "--big-cells", .choice(of: BigTextCells.self), default: "quadrants",
            help: "the block characters of big lyrics: quadrants (2×2 pixels a cell), halves (1×2) or sextants (2×3)",
            commands: display
        ) { values, value in values.display.frame.bigCells = value.choice() },
        CommandLineOption(
            "--color", .choice(of: ColorChoice.self), default: "auto",
            help: "colours when the terminal has them and NO_COLOR is unset", commands: display
        ) { values, value in values.display.color = value.choice() },
        CommandLineOption(
            "--theme", .choice(of: ThemeChoice.self), default: "auto", meaning: "COLORFGBG, else dark",
            help: "colours for a dark or light background", commands: display
        ) { values, value in values.display.theme = value.choice() },
        CommandLineOption(
            "--graphemes", .choice(of: GraphemesChoice.self), default: "auto",
            meaning: "ask the terminal; whole where it is in grapheme-cluster mode or can be put in it",
            help:
                "how emoji sequences (families, skin tones, keycaps) are painted: whole, or reduced to their first emoji",
            helpFor: [
                .render:
                    "how emoji sequences (families, skin tones, keycaps) are drawn: whole, or reduced to their first emoji"
            ],
            defaultFor: [.render: "auto: reduced, as render has no terminal to ask"], commands: display
        ) { values, value in values.display.graphemes = value.choice() },
        CommandLineOption(
            "--colors", .colorList, default: "pink,orange,yellow,mint,cyan,purple",
            help: "title gradient colours, names or #rrggbb, comma separated", commands: display
        ) { values, value in values.display.frame.gradient.colors = value.colors },
        CommandLineOption(
            "--gradient-duration", .decimal(0.1...3600), placeholder: "S", default: "4",
            help: "seconds for the title gradient to drift one cycle", commands: display
        ) { values, value in values.display.frame.gradient.cycle = value.decimal },
        CommandLineOption(
            "--max-size", .decimal(0.001...65536), placeholder: "MB", default: "64", help: "refuse larger lyric files",
            commands: [.play, .render, .check, .convert, .follow, .sync, .party]
        ) { values, value in values.maxSize = Int(value.decimal * 1_048_576) },
        CommandLineOption(
            "--encoding", .encoding, help: "the file's encoding when it is not UTF-8 (GBK, SHIFT_JIS, CP1252, …)",
            commands: [.play, .render, .check, .convert, .follow, .sync, .party]
        ) { values, value in values.encoding = value.text },
        CommandLineOption("--no-translation", help: "hide translation lines", commands: display) { values, _ in
            values.display.showsTranslations = false
        },
        // romanization rows (DESIGN §29.3)
        CommandLineOption("--no-romanization", help: "hide romanization lines", commands: display) { values, _ in
            values.display.frame.showsRomanization = false
        },
        CommandLineOption(
            "--romanize", help: "make romanization lines for lines without one (Japanese, Korean)", commands: display
        ) { values, _ in values.display.frame.romanizes = true },
        // finding lyrics for an audio FILE (DESIGN §10.1)
        CommandLineOption(
            "--lyrics", .file, placeholder: "FILE", help: "the lyrics of an audio FILE, instead of looking for them",
            commands: [.play, .render, .check]
        ) { values, value in values.lyrics.file = value.text },
        CommandLineOption(
            "--lyrics-dir", .folder(called: "DIR"), placeholder: "DIR",
            meaning: "$XDG_DATA_HOME/karaoke/lyrics and ~/.lyrics",
            help: "a folder of lyric files to look in for an audio FILE's lyrics (repeatable)",
            helpFor: [.party: "a folder of lyric files to look in for an audio song's lyrics (repeatable)"],
            commands: [.play, .render, .check, .follow, .party]
        ) { values, value in values.lyrics.folders.append(value.text) },
        // asking LRCLIB: fetch, and play or follow with --fetch when nothing is found here (DESIGN §11)
        CommandLineOption(
            "--fetch", help: "ask LRCLIB when no lyrics are found on this machine (the song plays meanwhile)",
            commands: [.play, .follow]
        ) { values, _ in values.lyrics.fetch = true },
        CommandLineOption(
            "--lrclib-url", .serverURL, meaning: "KARAOKE_LRCLIB_URL, else https://lrclib.net",
            help: "the LRCLIB server to ask (a mirror, a test server)", commands: [.fetch, .play, .follow]
        ) { values, value in
            values.fetch.server = value.text
            values.lyrics.server = value.text
        },
        // every command's
        CommandLineOption("--help", short: "-h", help: "print this help", commands: Set(Command.allCases)) {
            values, _ in values.help = true
        },
    ]

    /// The first option called `name`, long or short, whichever command takes it.
    static func named(_ name: String) -> CommandLineOption? {
        all.first { $0.name == name || $0.shortName == name }
    }

    /// The option called `name`, long or short, that `command` takes; nil when it takes none of that name.
    static func named(_ name: String, for command: Command) -> CommandLineOption? {
        all.first { ($0.name == name || $0.shortName == name) && $0.commands.contains(command) }
    }

    /// The options `command` takes, in the help's order.
    static func options(of command: Command) -> [CommandLineOption] {
        all.filter { $0.commands.contains(command) }
    }

    /// The words the value of `command`'s `name` is one of (`lrc|elrc|srt|vtt` for convert's `--to`), for
    /// synopses that spell them out.
    static func choices(of name: String, for command: Command) -> String {
        named(name, for: command)?.rule.choices?.joined(separator: "|") ?? ""
    }
}
