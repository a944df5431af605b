/// One option of `karaoke`'s commands, declared once (DESIGN §1): its name, its value's placeholder,
/// its default, its help sentence, the commands that take it and how its value is read.
///
/// The parser, the help texts and the "did you mean" suggestions all read `CommandLineOption.all`, so
/// an option cannot be accepted and left out of the help, or the other way round; a man page or shell
/// completions can be made from the same table.
struct CommandLineOption: Sendable {
    /// A subcommand of `karaoke`.
    enum Command: String, CaseIterable, Sendable {
        case play, render, check, convert, fetch, follow, sync
        /// `karaoke calibrate` and `karaoke mic`: the microphone on its own (DESIGN §15.1).
        case calibrate, mic
        /// `karaoke config`: the settings in effect (DESIGN §14.4).
        case config
    }

    /// The long name, such as `--fps`.
    let name: String
    /// A one-letter alias, such as `-o`; nil when there is none.
    let shortName: String?
    /// What the value is called in the help (`N`, `left|center|right`); nil for a flag, which takes no value.
    let placeholder: String?
    /// The value the command uses without the option, as the help shows it; nil when there is none to show.
    let defaultValue: String?
    /// What the option does: lower case, no full stop.
    let help: String
    /// The commands that take it.
    let commands: Set<Command>
    /// Reads and checks the option's value (`""` for a flag) into what the command line sets.
    let apply: @Sendable (inout OptionValues, String) throws(UsageError) -> Void

    /// Whether the option takes a value.
    var takesValue: Bool { placeholder != nil }

    /// How the help names it: `-o, --output OUT`.
    var label: String {
        (shortName.map { $0 + ", " } ?? "") + name + (placeholder.map { " " + $0 } ?? "")
    }

    /// The help sentence with the default after it.
    var helpWithDefault: String { help + (defaultValue.map { " (default \($0))" } ?? "") }
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
    /// `render --cols`.
    var columns: Int?
    /// `render --rows`.
    var rows: Int?
    /// `render --format`.
    var format = RenderRequest.Format.text
    /// `convert`'s options (file not yet set).
    var convert = ConvertRequest(file: "", target: "")
    /// `check --strict`.
    var strict = false
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
}

extension CommandLineOption {
    /// The commands that show a song: they share most options.
    private static let display: Set<Command> = [.play, .render, .follow]

    /// Every option, in the order the help texts list them, with `config` among the commands of each one a
    /// config file may set: `karaoke config` takes them all, to show how the command line changes the settings.
    static let all: [CommandLineOption] = declared.map { option in
        guard !ConfigFile.commandLineOnly.contains(option.name) else { return option }
        return CommandLineOption(
            name: option.name, shortName: option.shortName, placeholder: option.placeholder,
            defaultValue: option.defaultValue, help: option.help, commands: option.commands.union([.config]),
            apply: option.apply)
    }

    /// Every option as declared, in the order the help texts list them: each command's own first, the shared
    /// ones after.
    private static let declared: [CommandLineOption] = [
        // render's own
        CommandLineOption(
            name: "--at", shortName: nil, placeholder: "SECONDS", defaultValue: nil,
            help: "the moment of playback to draw (required)", commands: [.render]
        ) { values, text throws(UsageError) in
            values.time = try CommandLineParser.number(text, option: "--at", in: 0...360_000)
        },
        CommandLineOption(
            name: "--cols", shortName: nil, placeholder: "N", defaultValue: "the terminal's, else 80",
            help: "frame width in cells", commands: [.render]
        ) { values, text throws(UsageError) in
            values.columns = try CommandLineParser.integer(text, option: "--cols", in: 1...1000)
        },
        CommandLineOption(
            name: "--rows", shortName: nil, placeholder: "N", defaultValue: "the terminal's, else 24",
            help: "frame height in rows", commands: [.render]
        ) { values, text throws(UsageError) in
            values.rows = try CommandLineParser.integer(text, option: "--rows", in: 1...1000)
        },
        CommandLineOption(
            name: "--format", shortName: nil, placeholder: "text|ansi|json", defaultValue: "text",
            help: "plain rows, rows with colour codes, or the JSON frame",
            commands: [.render]
        ) { values, text throws(UsageError) in
            values.format = try CommandLineParser.choice(text, option: "--format")
        },
        // follow's own: another player's track and clock (DESIGN §12)
        CommandLineOption(
            name: "--player", shortName: nil, placeholder: "auto|mpris|mpris:NAME|mpd|mpd:HOST[:PORT]",
            defaultValue: "auto: an MPRIS player that plays, else MPD",
            help: "the player to follow", commands: [.follow]
        ) { values, text throws(UsageError) in
            guard let choice = PlayerChoice(parsing: text) else {
                throw UsageError(
                    "bad value '\(text.prefix(40))' for '--player'; expected auto, mpris, mpris:NAME, mpd, "
                        + "mpd:HOST or mpd:HOST:PORT")
            }
            values.follow.player = choice
        },
        CommandLineOption(
            name: "--music-dir", shortName: nil, placeholder: "DIR",
            defaultValue: "MPD's own, asked over a local socket",
            help: "the folder MPD plays from, to find the playing file's lyrics", commands: [.follow]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--music-dir' needs a folder") }
            values.follow.musicDirectory = text
        },
        CommandLineOption(
            name: "--print", shortName: nil, placeholder: nil, defaultValue: nil,
            help:
                "print JSON lines instead of the screen: follow, the player's state at each change; mic, each analysis",
            commands: [.follow, .mic]
        ) { values, _ throws(UsageError) in
            values.follow.prints = true
            values.mic.prints = true
        },
        // play's own
        CommandLineOption(
            name: "--start", shortName: nil, placeholder: "SECONDS", defaultValue: "0",
            help: "start this far into the song", commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.start = try CommandLineParser.number(text, option: "--start", in: 0...360_000)
        },
        CommandLineOption(
            name: "--fps", shortName: nil, placeholder: "N", defaultValue: "30",
            help: "frames per second of play, 1…120; render takes it for symmetry",
            commands: display
        ) { values, text throws(UsageError) in
            values.display.framesPerSecond = try CommandLineParser.integer(text, option: "--fps", in: 1...120)
        },
        CommandLineOption(
            name: "--audio", shortName: nil, placeholder: "FILE",
            defaultValue: "the lyrics' name with .mp3, .flac, .ogg, .opus, .m4a, .wav, …, when there is one",
            help: "the audio to play", commands: [.play, .sync]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--audio' needs a FILE") }
            values.play.audio = .file(text)
        },
        CommandLineOption(
            name: "--no-audio", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "play silently, on karaoke's own clock", commands: [.play]
        ) { values, _ in
            values.play.audio = .none
        },
        CommandLineOption(
            name: "--volume", shortName: nil, placeholder: "N", defaultValue: "100",
            help: "audio volume in percent, 0…130", commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.volume = try CommandLineParser.integer(text, option: "--volume", in: 0...130)
        },
        CommandLineOption(
            name: "--mpv-option", shortName: nil, placeholder: "KEY=VALUE", defaultValue: nil,
            help: "pass an option to mpv (repeatable), e.g. ao=null",
            commands: [.play, .sync, .calibrate]
        ) { values, text throws(UsageError) in
            values.play.mpvOptions.append(try CommandLineParser.mpvOption(text))
        },
        CommandLineOption(
            name: "--clock-log", shortName: nil, placeholder: "FILE", defaultValue: nil,
            help: "write the lyric clock and the player's positions to FILE (for measuring sync)",
            commands: [.play, .follow]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--clock-log' needs a FILE") }
            values.play.clockLog = text
            values.follow.clockLog = text
        },
        // play's `s` key: saving the offset into the lyric file (DESIGN §13.2)
        CommandLineOption(
            name: "--apply-offset", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "s saves the offset by moving every stamp (and dropping [offset:]) instead of in [offset:]",
            commands: [.play]
        ) { values, _ in
            values.play.appliesOffset = true
        },
        // sync's own: timing your own lyrics by tapping along (DESIGN §13.1)
        CommandLineOption(
            name: "--words", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "stamp word by word (syllables where the text splits them with |) and write Enhanced LRC",
            commands: [.sync]
        ) { values, _ in
            values.sync.words = true
        },
        CommandLineOption(
            name: "--latency", shortName: nil, placeholder: "MS", defaultValue: "0",
            help: "your reaction time, subtracted from every tap", commands: [.sync]
        ) { values, text throws(UsageError) in
            values.sync.latency = try CommandLineParser.integer(text, option: "--latency", in: 0...2000)
        },
        CommandLineOption(
            name: "--resume", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "go on from OUT.autosave when there is one, without asking", commands: [.sync]
        ) { values, _ in
            values.sync.resume = true
        },
        CommandLineOption(
            name: "--no-resume", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "start afresh even when there is an OUT.autosave, without asking", commands: [.sync]
        ) { values, _ in
            values.sync.resume = false
        },
        CommandLineOption(
            name: "--calibrate", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "tap along to 16 clicks (no FILE): the median lateness is the --latency to use",
            commands: [.sync]
        ) { values, _ in
            values.sync.calibrates = true
        },
        // a karaoke night: play's vocals, key and tempo through mpv's filters (DESIGN §14.1), and the
        // count-in of every command that shows a song (DESIGN §14.3)
        CommandLineOption(
            name: "--no-countdown", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "no count-in dots before the first line and after a silence of more than 5 s",
            commands: display
        ) { values, _ in
            values.display.frame.countIn = false
        },
        CommandLineOption(
            name: "--vocals", shortName: nil, placeholder: "normal|reduced", defaultValue: "normal",
            help: "reduced takes out the centre of a stereo mix, where the lead vocal (and the bass) sit",
            commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.singing.vocals = try CommandLineParser.choice(text, option: "--vocals")
        },
        CommandLineOption(
            name: "--key", shortName: nil, placeholder: "N", defaultValue: "0",
            help: "move the key N semitones, -6…6, the tempo kept", commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.singing.key = try CommandLineParser.integer(
                text, option: "--key", in: SingingSettings.keyRange)
        },
        CommandLineOption(
            name: "--tempo", shortName: nil, placeholder: "X", defaultValue: "1",
            help: "play at X times the tempo, 0.5…1.5, the pitch kept", commands: [.play]
        ) { values, text throws(UsageError) in
            let tempo = try CommandLineParser.number(text, option: "--tempo", in: 0.5...1.5)
            values.play.singing.tempoPercent = Int((tempo * 100).rounded())
        },
        // play's queue: several FILEs, a folder or a playlist (DESIGN §14.2)
        CommandLineOption(
            name: "--shuffle", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "play the queue in a random order", commands: [.play]
        ) { values, _ in
            values.play.queue.shuffles = true
        },
        CommandLineOption(
            name: "--seed", shortName: nil, placeholder: "N", defaultValue: "from the clock",
            help: "the seed of --shuffle's order, for the same order again", commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.queue.seed = UInt64(
                try CommandLineParser.integer(text, option: "--seed", in: 0...Int.max))
            values.play.queue.shuffles = true
        },
        CommandLineOption(
            name: "--loop", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "start the queue over after its last song", commands: [.play]
        ) { values, _ in
            values.play.queue.loops = true
        },
        CommandLineOption(
            name: "--singer", shortName: nil, placeholder: "NAME", defaultValue: nil,
            help: "who sings, shown on the card before each song (a playlist's #EXTSINGER wins)",
            commands: [.play]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--singer' needs a NAME") }
            values.play.queue.singer = text
        },
        // scoring: the microphone against the UltraStar notes (DESIGN §15); --mic also for calibrate and mic
        CommandLineOption(
            name: "--score", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "score the singing from the microphone against an UltraStar song's notes", commands: [.play]
        ) { values, _ in
            values.play.scoring.isOn = true
        },
        CommandLineOption(
            name: "--mic", shortName: nil, placeholder: "[P1=]SOURCE", defaultValue: "the default source",
            help:
                "the PulseAudio source to listen to ('pactl list short sources'); play: P1=, P2= give each part of a duet its own (repeatable)",
            commands: [.play, .calibrate, .mic]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty, text.count <= 1000,
                !text.unicodeScalars.contains(where: { ControlCharacters.isForbidden($0.value) }),
                let microphone = ScoringOptions.Microphone(argument: text)
            else {
                throw UsageError("bad value '\(text.prefix(40))' for '--mic'; expected SOURCE or P1=SOURCE … P9=SOURCE")
            }
            values.mic.source = microphone.source
            if values.play.scoring.microphones.contains(where: { $0.part != nil && $0.part == microphone.part }) {
                throw UsageError("'--mic' names the same part twice: '\(text)'")
            }
            values.play.scoring.microphones.append(microphone)
        },
        CommandLineOption(
            name: "--difficulty", shortName: nil, placeholder: "easy|medium|hard", defaultValue: "medium",
            help: "how near the note a sung pitch must be: 2, 1 or 0 semitones", commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.scoring.difficulty = try CommandLineParser.choice(text, option: "--difficulty")
        },
        CommandLineOption(
            name: "--mic-delay", shortName: nil, placeholder: "MS", defaultValue: "150",
            help: "how late the microphone hears the song, in milliseconds ('karaoke calibrate' measures it)",
            commands: [.play]
        ) { values, text throws(UsageError) in
            values.play.scoring.micDelay = try CommandLineParser.integer(
                text, option: "--mic-delay", in: ScoringOptions.micDelayRange)
        },
        CommandLineOption(
            name: "--score-out", shortName: nil, placeholder: "FILE", defaultValue: nil,
            help: "write the score as JSON to FILE when the song ends", commands: [.play]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--score-out' needs a FILE") }
            values.play.scoring.output = text
        },
        // convert's own
        CommandLineOption(
            name: "--to", shortName: nil, placeholder: "FORMAT", defaultValue: nil,
            help: "lrc (line timing), elrc (Enhanced LRC, word timing), srt, vtt (WebVTT)",
            commands: [.convert]
        ) { values, text throws(UsageError) in
            let targets = ConvertRequest.targets
            guard targets.contains(text) else {
                throw UsageError(
                    "bad value '\(text)' for '--to'; expected one of " + targets.joined(separator: ", ")
                        + CommandLineParser.suggestion(for: text, among: targets))
            }
            values.convert.target = text
        },
        CommandLineOption(
            name: "--output", shortName: "-o", placeholder: "OUT", defaultValue: nil,
            help: "write to OUT instead of stdout ('-' is stdout); sync: instead of FILE's name with .lrc",
            commands: [.convert, .fetch, .sync]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--output' needs a FILE") }
            values.convert.output = text == "-" ? nil : text
            values.fetch.output = values.convert.output
        },
        CommandLineOption(
            name: "--force", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "replace the file written when it exists (without it, an existing file is an error)",
            commands: [.convert, .fetch, .sync]
        ) { values, _ in
            values.convert.force = true
            values.fetch.force = true
        },
        // fetch's own: lyrics from LRCLIB (DESIGN §11)
        CommandLineOption(
            name: "--artist", shortName: nil, placeholder: "A", defaultValue: nil,
            help: "the artist to look up (with --title, instead of AUDIO files)", commands: [.fetch]
        ) { values, text throws(UsageError) in
            values.fetch.artist = try CommandLineParser.name(text, option: "--artist")
        },
        CommandLineOption(
            name: "--title", shortName: nil, placeholder: "T", defaultValue: nil,
            help: "the title to look up (with --artist)", commands: [.fetch]
        ) { values, text throws(UsageError) in
            values.fetch.title = try CommandLineParser.name(text, option: "--title")
        },
        CommandLineOption(
            name: "--album", shortName: nil, placeholder: "AL", defaultValue: nil,
            help: "the album, to tell versions apart", commands: [.fetch]
        ) { values, text throws(UsageError) in
            values.fetch.album = try CommandLineParser.name(text, option: "--album")
        },
        CommandLineOption(
            name: "--duration", shortName: nil, placeholder: "S", defaultValue: nil,
            help: "the song's length in seconds; lyrics within 2 s of it are preferred", commands: [.fetch]
        ) { values, text throws(UsageError) in
            values.fetch.duration = try CommandLineParser.number(text, option: "--duration", in: 1...86_400)
        },
        CommandLineOption(
            name: "--save", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "write the lyrics beside each AUDIO (its name with .lrc, or .txt for untimed lyrics)",
            commands: [.fetch]
        ) { values, _ in
            values.fetch.save = true
        },
        CommandLineOption(
            name: "--pick", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "list the candidates and ask which one (needs a terminal on stdin)", commands: [.fetch]
        ) { values, _ in
            values.fetch.pick = true
        },
        // check's own
        CommandLineOption(
            name: "--strict", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "count warnings as errors", commands: [.check]
        ) { values, _ in
            values.strict = true
        },
        // shared by the commands that show a song
        CommandLineOption(
            name: "--reduce-motion", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "no sweep: rows and words light up whole; the title stands still",
            commands: display
        ) { values, _ in
            values.display.frame.reduceMotion = true
        },
        CommandLineOption(
            name: "--rest-opacity", shortName: nil, placeholder: "X", defaultValue: "0.35",
            help: "brightness of text not yet sung, 0…1", commands: display
        ) { values, text throws(UsageError) in
            values.display.frame.restOpacity = try CommandLineParser.number(text, option: "--rest-opacity", in: 0...1)
        },
        CommandLineOption(
            name: "--offset", shortName: nil, placeholder: "MS", defaultValue: "0",
            help: "added to the file's [offset:]; positive shows lyrics earlier",
            commands: display
        ) { values, text throws(UsageError) in
            values.display.frame.userOffset = try CommandLineParser.integer(
                text, option: "--offset",
                in: -3_600_000...3_600_000)
        },
        CommandLineOption(
            name: "--align", shortName: nil, placeholder: "left|center|right", defaultValue: "center",
            help: "alignment of lyric rows", commands: display
        ) { values, text throws(UsageError) in
            values.display.frame.alignment = try CommandLineParser.choice(text, option: "--align")
        },
        CommandLineOption(
            name: "--color", shortName: nil, placeholder: "auto|always|never", defaultValue: "auto",
            help: "colours when the terminal has them and NO_COLOR is unset",
            commands: display
        ) { values, text throws(UsageError) in
            values.display.color = try CommandLineParser.choice(text, option: "--color")
        },
        CommandLineOption(
            name: "--theme", shortName: nil, placeholder: "auto|dark|light",
            defaultValue: "auto: COLORFGBG, else dark",
            help: "colours for a dark or light background", commands: display
        ) { values, text throws(UsageError) in
            values.display.theme = try CommandLineParser.choice(text, option: "--theme")
        },
        CommandLineOption(
            name: "--colors", shortName: nil, placeholder: "LIST",
            defaultValue: "pink,orange,yellow,mint,cyan,purple",
            help: "title gradient colours, names or #rrggbb, comma separated",
            commands: display
        ) { values, text throws(UsageError) in
            values.display.frame.gradient.colors = try CommandLineParser.colorList(text)
        },
        CommandLineOption(
            name: "--gradient-duration", shortName: nil, placeholder: "S", defaultValue: "4",
            help: "seconds for the title gradient to drift one cycle",
            commands: display
        ) { values, text throws(UsageError) in
            values.display.frame.gradient.cycle = try CommandLineParser.number(
                text, option: "--gradient-duration",
                in: 0.1...3600)
        },
        CommandLineOption(
            name: "--max-size", shortName: nil, placeholder: "MB", defaultValue: "64",
            help: "refuse larger lyric files",
            commands: [.play, .render, .check, .convert, .follow, .sync]
        ) { values, text throws(UsageError) in
            values.maxSize = try CommandLineParser.megabytes(text, option: "--max-size")
        },
        CommandLineOption(
            name: "--encoding", shortName: nil, placeholder: "NAME", defaultValue: nil,
            help: "the file's encoding when it is not UTF-8 (GBK, SHIFT_JIS, CP1252, …)",
            commands: [.play, .render, .check, .convert, .follow, .sync]
        ) { values, text throws(UsageError) in
            values.encoding = try CommandLineParser.encodingName(text)
        },
        CommandLineOption(
            name: "--no-translation", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "hide translation lines", commands: display
        ) { values, _ in
            values.display.showsTranslations = false
        },
        // finding lyrics for an audio FILE (DESIGN §10.1)
        CommandLineOption(
            name: "--lyrics", shortName: nil, placeholder: "FILE", defaultValue: nil,
            help: "the lyrics of an audio FILE, instead of looking for them",
            commands: [.play, .render, .check]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--lyrics' needs a FILE") }
            values.lyrics.file = text
        },
        CommandLineOption(
            name: "--lyrics-dir", shortName: nil, placeholder: "DIR",
            defaultValue: "$XDG_DATA_HOME/karaoke/lyrics and ~/.lyrics",
            help: "a folder of lyric files to look in for an audio FILE's lyrics (repeatable)",
            commands: [.play, .render, .check, .follow]
        ) { values, text throws(UsageError) in
            guard !text.isEmpty else { throw UsageError("'--lyrics-dir' needs a DIR") }
            values.lyrics.folders.append(text)
        },
        // asking LRCLIB: fetch, and play or follow with --fetch when nothing is found here (DESIGN §11)
        CommandLineOption(
            name: "--fetch", shortName: nil, placeholder: nil, defaultValue: nil,
            help: "ask LRCLIB when no lyrics are found on this machine (the song plays meanwhile)",
            commands: [.play, .follow]
        ) { values, _ in
            values.lyrics.fetch = true
        },
        CommandLineOption(
            name: "--lrclib-url", shortName: nil, placeholder: "URL",
            defaultValue: "KARAOKE_LRCLIB_URL, else https://lrclib.net",
            help: "the LRCLIB server to ask (a mirror, a test server)", commands: [.fetch, .play, .follow]
        ) { values, text throws(UsageError) in
            let server = try CommandLineParser.serverURL(text)
            values.fetch.server = server
            values.lyrics.server = server
        },
        // every command's
        CommandLineOption(
            name: "--help", shortName: "-h", placeholder: nil, defaultValue: nil,
            help: "print this help", commands: Set(Command.allCases)
        ) { values, _ in
            values.help = true
        },
    ]

    /// The option called `name`, long or short, whichever command takes it.
    static func named(_ name: String) -> CommandLineOption? {
        all.first { $0.name == name || $0.shortName == name }
    }

    /// The options `command` takes, in the help's order.
    static func options(of command: Command) -> [CommandLineOption] {
        all.filter { $0.commands.contains(command) }
    }
}
