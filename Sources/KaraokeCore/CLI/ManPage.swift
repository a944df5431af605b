/// The manual page karaoke(1) in man(7) markup, made from the option table, the key list and the config
/// keys (DESIGN §14.5), so the page cannot drift from what the program accepts.
enum ManPage {
    /// What each command does, in one sentence, with its synopsis.
    static let commands: [(command: CommandLineOption.Command, synopsis: String, summary: String)] = [
        (.play, "play FILE [options]", "Plays FILE's lyrics full screen with the song's audio through mpv."),
        (
            .render, "render FILE --at SECONDS | --from S --to E [options]",
            "Prints the frame play would show at SECONDS, as text, ANSI or JSON, or records the frames of a span "
                + "as an asciinema recording; needs no terminal."
        ),
        (
            .check, "check FILE... [--strict]",
            "Validates lyric files: diagnostics on stderr, a summary line each on stdout."
        ),
        (
            .convert, "convert FILE --to \(CommandLineOption.choices(of: "--to", for: .convert)) [-o OUT] [--force]",
            "Writes the lyrics in another format."
        ),
        (
            .fetch, "fetch AUDIO... | fetch --artist A --title T [options]",
            "Looks the lyrics up on LRCLIB and prints or saves them."
        ),
        (
            .follow, "follow [--player P] [--print [lines|waybar|json]] [options]",
            "Shows the lyrics of what another player (MPRIS, MPD) plays."
        ),
        (
            .sync, "sync FILE [--audio AUDIO] [-o OUT] [--words] [--force] [--latency MS] | sync --calibrate",
            "Times lyrics by tapping along to the audio, and writes LRC (Enhanced LRC with --words)."
        ),
        (
            .calibrate, "calibrate [--mic SOURCE] [--mpv-option KEY=VALUE]",
            "Measures the microphone's round trip with clicks and prints the delay scoring should allow for."
        ),
        (.mic, "mic [--mic SOURCE] [--print]", "Shows the note, frequency and level the microphone hears, live."),
        (
            .party, "party [FOLDER...] [--port N] [--bind ADDR] [--code CODE] [--max-per-singer N] [options]",
            "Lets guests request songs from their phones and sings them in a fair rotation, showing who sings next."
        ),
        (.config, "config [options]", "Prints the settings in effect and where each came from."),
    ]

    /// The exit statuses (DESIGN §1).
    static let exitStatuses: [(status: String, meaning: String)] = [
        ("0", "all went well (play: the song ended or q was pressed)"),
        (
            "1",
            "a lyric file cannot be used, check found errors, fetch found no lyrics, follow cannot start, or the "
                + "microphone failed"
        ),
        ("2", "a usage error: an unknown option, a bad value, play without a terminal, an unknown TERM"),
        ("128+N", "after signal N: 130 for Ctrl-C, 143 for SIGTERM, 129 for SIGHUP"),
        ("141", "whoever read stdout or stderr has gone"),
    ]

    /// The files karaoke reads and writes.
    static let files: [(path: String, meaning: String)] = [
        (
            "$XDG_CONFIG_HOME/karaoke/config",
            "settings, key = value (~/.config when XDG_CONFIG_HOME is unset); see CONFIGURATION"
        ),
        (
            "$XDG_STATE_HOME/karaoke/offsets",
            "each song's remembered offset, by a hash of its lyric file (~/.local/state)"
        ),
        ("$XDG_DATA_HOME/karaoke/lyrics, ~/.lyrics", "lyric folders searched for an audio file's lyrics"),
        ("$XDG_CACHE_HOME/karaoke", "the lyric folders' index and LRCLIB's answers (~/.cache)"),
    ]

    /// The environment variables karaoke reads.
    static let environment: [(name: String, meaning: String)] = [
        ("NO_COLOR", "no colours unless --color always"),
        ("COLORFGBG", "the terminal's background, for --theme auto"),
        ("TERM", "the terminal's type"),
        ("KARAOKE_LRCLIB_URL", "the LRCLIB server (default https://lrclib.net)"),
        ("KARAOKE_HTTP_TIMEOUT", "seconds to wait for LRCLIB (default 10)"),
        ("http_proxy, https_proxy, no_proxy", "the proxy for LRCLIB"),
        ("DBUS_SESSION_BUS_ADDRESS", "the bus follow finds MPRIS players on"),
        ("MPD_HOST, MPD_PORT", "the MPD follow asks"),
        ("PULSE_SERVER", "the PulseAudio server the microphone is heard through"),
    ]

    /// The whole page.
    static var text: String {
        var page = """
            .TH KARAOKE 1 "" "karaoke \(CommandLineParser.version)" "User Commands"
            .\\" Made by 'karaoke --generate man' from the option table; edit that, not this.
            .nh
            .ad l
            .SH NAME
            karaoke \\- sing along in the terminal
            .SH SYNOPSIS

            """
        for entry in commands {
            page += ".B karaoke\n" + escaped(entry.synopsis) + "\n.br\n"
        }
        page += ".B karaoke\n\\-\\-help | \\-\\-version\n"
        page += """
            .SH DESCRIPTION
            karaoke plays a song's lyrics in the terminal, dim until they are sung, lit by a sweep that moves in
            step with the music (played by mpv). It reads LRC, Enhanced LRC, SRT, WebVTT, UltraStar, ASS/SSA
            karaoke and TTML, chosen by content first and extension second. FILE may be an audio file: its
            lyrics are then looked for beside it, in the lyric folders and in its tags. For a party, karaoke
            serves a page that guests open on their phones to search the songs of a folder and ask for them with
            the room code; the screen sings them in turn and shows who sings next.
            .SH COMMANDS

            """
        for entry in commands {
            let names = CommandLineOption.options(of: entry.command).map { "\\fB" + escaped($0.name) + "\\fR" }
            page += ".TP\n.B \(entry.command.rawValue)\n" + escaped(entry.summary) + "\n"
            page += "Options: " + names.joined(separator: ", ") + ".\n"
        }
        page += ".SH OPTIONS\n"
        for option in CommandLineOption.all {
            let label =
                (option.shortName.map { "\\fB" + escaped($0) + "\\fR, " } ?? "") + "\\fB" + escaped(option.name)
                + "\\fR"
                + (option.placeholder.map {
                    option.bareValue == nil ? " \\fI" + escaped($0) + "\\fR" : "[=\\fI" + escaped($0) + "\\fR]"
                } ?? "")
            let commands = CommandLineOption.Command.allCases.filter { option.commands.contains($0) }
                .map(\.rawValue)
            page += ".TP\n\(label)\n" + escaped(option.helpWithDetails) + ".\n"
            page += "(" + commands.joined(separator: ", ") + ")\n"
        }
        page += ".SH KEYS\n"
        let keySets = [("play", PlayerAction.help), ("follow", FollowAction.help), ("sync", SyncAction.help)]
        for (command, entries) in keySets {
            page += ".PP\nWhile \(command) runs:\n"
            for entry in entries {
                page += ".TP\n.B " + escaped(entry.keys) + "\n" + escaped(entry.meaning) + "\n"
            }
        }
        page += """
            .SH CONFIGURATION
            At start karaoke reads \\fI$XDG_CONFIG_HOME/karaoke/config\\fR: one \\fIkey\\fR = \\fIvalue\\fR a
            line, the key an option's long name without its dashes, a flag set by true or false; a line starting
            with # is a comment. The command line wins over the file. An unknown key or a bad value is a
            warning naming the file and line, and the line is ignored.
            \\fBkaraoke config\\fR prints the settings in effect and where each came from. The keys:

            """
        page += ".RS\n" + ConfigFile.keys.map { escaped($0) }.joined(separator: ",\n") + "\n.RE\n"
        page += """
            .PP
            When play ends with an offset changed by + or \\-, the offset is remembered for that song (by its
            lyric file's content) and used next time, unless \\fB\\-\\-offset\\fR is given.
            .SH FILES

            """
        for entry in files { page += ".TP\n.I " + escaped(entry.path) + "\n" + escaped(entry.meaning) + "\n" }
        page += ".SH ENVIRONMENT\n"
        for entry in environment { page += ".TP\n.B " + escaped(entry.name) + "\n" + escaped(entry.meaning) + "\n" }
        page += ".SH EXIT STATUS\n"
        for entry in exitStatuses { page += ".TP\n.B " + escaped(entry.status) + "\n" + escaped(entry.meaning) + "\n" }
        page += ".SH EXAMPLES\n.nf\nkaraoke play song.lrc\nkaraoke play song.mp3 \\-\\-fetch\n"
        page += "karaoke render song.lrc \\-\\-at 30 \\-\\-cols 80 \\-\\-rows 24\n"
        page += "karaoke render song.lrc \\-\\-from 10 \\-\\-to 30 \\-\\-format asciicast \\-o demo.cast\n.fi\n"
        return page
    }

    /// `text` safe inside a man page line: backslashes doubled, dashes as `\-` (so they copy as ASCII
    /// hyphen-minus), and a leading `.` or `'` guarded so it is not read as a request.
    static func escaped(_ text: String) -> String {
        var result = text.replacingCharacters(["\\": "\\e", "-": "\\-"])
        if result.hasPrefix(".") || result.hasPrefix("'") { result = "\\&" + result }
        return result
    }
}
