/// The help texts of `karaoke` and its subcommands.
public enum UsageText {
    /// The widest a help line may be: the option lists keep to it by wrapping their sentences.
    static let width = 102
    /// Where an option's help sentence starts, after its label.
    static let helpColumn = 27

    /// The option list of `command`, a line an option (more where its sentence wraps), from
    /// `CommandLineOption.all`: `  --fps N                  frames per second … (default 30)`.
    static func optionLines(for command: CommandLineOption.Command) -> String {
        CommandLineOption.options(of: command).map { optionEntry($0, for: command) }.joined(separator: "\n")
    }

    /// One option's lines: the label, then its sentence at `helpColumn` (or two spaces after a longer
    /// label), wrapped at `width`; its details (required, range, default) go to a line of their own when
    /// they fit there whole.
    static func optionEntry(_ option: CommandLineOption, for command: CommandLineOption.Command) -> String {
        let label = "  " + option.label
        let lead =
            label.count + 2 <= helpColumn
            ? label + String(repeating: " ", count: helpColumn - label.count)
            : label + "  "
        var lines = [lead]
        var lineHasWords = false
        func add<Words: Sequence>(_ words: Words) where Words.Element: StringProtocol {
            for word in words {
                if lineHasWords, lines[lines.count - 1].count + 1 + word.count > width {
                    lines.append(String(repeating: " ", count: helpColumn))
                    lineHasWords = false
                }
                lines[lines.count - 1] += (lineHasWords ? " " : "") + word
                lineHasWords = true
            }
        }
        add(option.help(for: command).split(separator: " "))
        if !option.details(for: command).isEmpty {
            let clause = "(" + option.details(for: command).joined(separator: ", ") + ")"
            if lines[lines.count - 1].count + 1 + clause.count > width, helpColumn + clause.count <= width {
                lines.append(String(repeating: " ", count: helpColumn))
                lineHasWords = false
            }
            add(clause.split(separator: " "))
        }
        return lines.joined(separator: "\n")
    }

    /// A screen's keys for its `--help`, from the list its help box shows (`PlayerAction.help`, …), so the two
    /// cannot drift: `Keys: space, p pause / resume · ← / → seek 5 s back / forward · …`, wrapped at `width`
    /// between entries, never inside one.
    static func keyLines(_ entries: [HelpEntry]) -> String {
        let indent = "      "
        var lines = ["Keys:"]
        for (index, entry) in entries.enumerated() {
            let item = entry.keys + " " + entry.meaning + (index + 1 < entries.count ? " ·" : "")
            if lines[lines.count - 1] != indent, lines[lines.count - 1].count + 1 + item.count > width {
                lines.append(indent)
            }
            let last = lines[lines.count - 1]
            lines[lines.count - 1] = last + (last == indent ? "" : " ") + item
        }
        return lines.joined(separator: "\n")
    }

    /// `karaoke --help`.
    public static let main = """
        karaoke — sing along in the terminal

        Usage:
          karaoke play FILE... [options]       full-screen player (space pause, ←/→ seek, q quit, ? keys);
                                               several FILEs, a folder or an .m3u playlist make a queue
          karaoke play FILE --print [\(CommandLineOption.choices(of: "--print", for: .play))]
                                               print the line being sung, no terminal needed
          karaoke render FILE --at SECONDS [--cols N] [--rows N] [--format \(CommandLineOption.choices(of: "--format", for: .render))] [options]
                                               print one frame of the player
          karaoke render FILE --from S --to E --format asciicast|svg [-o OUT]
                                               record the player over a span
          karaoke check FILE... [--strict]     validate lyric and CD+G files
          karaoke convert FILE --to \(CommandLineOption.choices(of: "--to", for: .convert)) [-o OUT] [--force]
                                               write the lyrics in another format
          karaoke fetch AUDIO... [--save] [--force] [--pick]
          karaoke fetch --artist A --title T [--album AL] [--duration S] [-o OUT]
                                               look the lyrics up on LRCLIB (lrclib.net)
          karaoke follow [--player auto|mpris[:NAME]|mpd[:HOST[:PORT]]] [--print [\(CommandLineOption.choices(of: "--print", for: .follow))]]
                                               show the lyrics of what another player plays, or print
                                               the line being sung for a status bar
          karaoke sync FILE [--audio AUDIO] [-o OUT] [--words] [--force] [--latency MS]
                                               time lyrics by tapping along to the audio
          karaoke calibrate [--mic SOURCE]     measure the microphone's delay with clicks, for scoring
          karaoke mic [--mic SOURCE] [--print] show the note the microphone hears
          karaoke party [FOLDER...] [--port N] [--code CODE] [--max-per-singer N] [--score] [options]
                                               let guests request songs from their phones; show who sings next
          karaoke config [options]             print the settings in effect and where each came from
          karaoke --help | --version

        Formats: LRC, Enhanced LRC, ESLyric, SRT, WebVTT, UltraStar .txt, ASS/SSA karaoke, TTML;
        chosen by content first, extension second.
        Run 'karaoke COMMAND --help' for the options of a command.

        """

    /// The help text of a subcommand.
    public static func help(for command: String) -> String {
        switch command {
        case "play":
            return """
                Usage: karaoke play FILE... [options]

                Plays FILE's lyrics full screen: dim until sung, then lit by a sweep in time, with the
                song's audio through mpv when there is one. FILE may be the audio (song.mp3): its lyrics
                are then --lyrics FILE, else the file beside it with the same name (song.lrc, …), else
                one found in the lyric folders (--lyrics-dir, ~/.lyrics, …), else those in its tags; with
                --fetch, else LRCLIB's, looked up while the audio plays. Untimed lyrics show as pages.
                Needs a terminal on stdin and stdout (use 'karaoke render' otherwise), except with
                --print lines|waybar|json: then the line being sung is written at each change, on the
                audio's clock (or karaoke's with --no-audio), until the song ends.

                Several FILEs, a folder (its songs by name) or an .m3u/.m3u8 playlist make a queue: a
                card names each song for 5 s (space starts it), n/N go to the next/previous song, a
                file that cannot be played has a card saying why for 3 s, and an end card lists what
                was sung and skipped and waits for q (N goes back).

                Options:
                \(optionLines(for: .play))

                \(keyLines(PlayerAction.help))

                """
        case "render":
            return """
                Usage: karaoke render FILE --at SECONDS [options]
                       karaoke render FILE --from S --to E --format asciicast|svg [options]

                Prints the player's frame at SECONDS to stdout (or OUT); no terminal needed. FILE may be the
                audio: its lyrics are looked for as 'karaoke play' does. A CD+G FILE (.cdg, an MP3+G .zip, or
                audio with a .cdg of its name beside it) is drawn in cells as 'play' draws it; '--format ppm'
                writes its 300x216 picture at SECONDS as binary PPM instead. With '--from' and '--to' it records
                the frames play shows over that span, at '--fps': '--format asciicast' gives the bytes play
                writes to the terminal as an asciinema recording ('asciinema play OUT'), '--format svg' one
                animated SVG picture.

                Options:
                \(optionLines(for: .render))

                """
        case "convert":
            return """
                Usage: karaoke convert FILE --to \(CommandLineOption.choices(of: "--to", for: .convert)) [-o OUT] [--force]

                Reads FILE (any format karaoke reads) and writes its lyrics in another format, to stdout or
                OUT. What the target cannot hold is named in a warning on stderr, never dropped silently.

                Options:
                \(optionLines(for: .convert))

                """
        case "fetch":
            return """
                Usage: karaoke fetch AUDIO... [--save] [--force] [--pick]
                       karaoke fetch --artist A --title T [--album AL] [--duration S] [-o OUT] [--force]

                Asks LRCLIB for a song's lyrics by artist, title, album and length (from the AUDIO file's
                tags, else its name 'Artist - Title.ext') and prints them as LRC, or writes them with
                --save or -o; an existing file is replaced only with --force. Timed lyrics and a length
                within 2 s are preferred; the match taken is named on stderr. Answers are cached under
                $XDG_CACHE_HOME/karaoke/lrclib (misses for 7 days). Elsewhere only play asked to fetch uses the network.
                Exits 0 with lyrics (or for an instrumental), 1 when none were found or the lookup failed.

                Options:
                \(optionLines(for: .fetch))

                Environment: KARAOKE_LRCLIB_URL (the server), KARAOKE_HTTP_TIMEOUT (seconds, default 10),
                http_proxy, https_proxy, no_proxy.

                """
        case "sync":
            return """
                Usage: karaoke sync FILE [--audio AUDIO] [-o OUT] [--words] [--force] [--latency MS]
                       karaoke sync --calibrate

                Times FILE's lines by tapping along while the audio plays through mpv, on play's own screen.
                FILE is plain text (a lyric line per line; tags such as [ti:] at the top are kept) or a
                lyric file to time again. s writes OUT (default FILE's name with .lrc): LRC, or Enhanced
                LRC with --words. OUT.autosave keeps the work every 10 s; a new run offers to go on from it.
                --calibrate plays 16 clicks to tap along to and prints the --latency your taps suggest.

                Options:
                \(optionLines(for: .sync))

                \(keyLines(SyncAction.help))

                """
        case "follow":
            return """
                Usage: karaoke follow [--player \(ValueRule.player.impliedPlaceholder ?? "")]
                                      [--print [\(CommandLineOption.choices(of: "--print", for: .follow))]] [options]

                Shows the lyrics of the track another player plays (an MPRIS player such as mpv, VLC or
                Spotify, or MPD), swept on that player's clock. Its lyrics are found as play finds an audio
                file's. space, ←/→ and n/N go to the player; q quits karaoke and leaves the player playing.

                Options:
                \(optionLines(for: .follow))

                \(keyLines(FollowAction.help))

                Environment: DBUS_SESSION_BUS_ADDRESS (MPRIS), MPD_HOST ([PASSWORD@]HOST or a socket's path),
                MPD_PORT.

                """
        case "calibrate":
            return """
                Usage: karaoke calibrate [--mic SOURCE] [--mpv-option KEY=VALUE]

                Plays 8 clicks through mpv while listening to the microphone (PulseAudio), and prints how late
                the microphone hears them on the song's clock (median, spread, clicks heard): the microphone
                delay scoring should use. Let the microphone hear the speakers; with headphones, hold
                one earpiece to it. Exits 1 when fewer than half the clicks are heard.

                Options:
                \(optionLines(for: .calibrate))

                Environment: PULSE_SERVER (another PulseAudio server).

                """
        case "mic":
            return """
                Usage: karaoke mic [--mic SOURCE] [--print]

                Shows what the microphone hears, live: first the source it listens to and the rate, then the
                nearest note, how many cents off, the frequency and the level in dBFS (62.5 analyses a second).
                --print writes a JSON line an analysis instead (the source on stderr): time (CLOCK_MONOTONIC
                seconds), midi, hz, note, cents (null when nothing voiced is heard), level. Ctrl-C stops.

                Options:
                \(optionLines(for: .mic))

                Environment: PULSE_SERVER (another PulseAudio server).

                """
        case "party":
            return """
                Usage: karaoke party [FOLDER...] [--port N] [--bind ADDR] [--code CODE] [--max-per-singer N] [options]

                Lets the room take part: guests open the address on the card (or scan its QR code) on their
                phones, search the songs in FOLDER... (the current folder without one) and ask for them with
                the room code. The songs are sung full screen as 'karaoke play' sings them, in a fair rotation:
                nobody sings twice before everyone waiting has sung once. Between songs a card shows who sings
                next, the address and the room code. The queue is kept after every change; a party started
                again the same day asks whether to go on with it (--resume or --no-resume answer beforehand).
                With --score each song is scored and the card ranks the singers by their best score.
                The server listens on every IPv4 address unless --bind says one; guests need the room code
                for every request, and one address may make 30 requests a minute.

                Options:
                \(optionLines(for: .party))

                """
        case "config":
            return """
                Usage: karaoke config [options]

                Prints every setting in effect as a config file would hold it, with where it came from: the
                command line, a line of the config file ($XDG_CONFIG_HOME/karaoke/config, else
                ~/.config/karaoke/config), or the default (written as a comment). It takes every option a
                config file may set: a key is an option's long name without its dashes, a flag is true or false.
                An unknown key or a bad value is a warning (FILE:LINE) and the line is ignored.

                Options (each the key of the same name):
                \(optionLines(for: .config))

                """
        default:
            return """
                Usage: karaoke check FILE... [--strict] [--max-size MB] [--encoding NAME]

                Validates lyric files: diagnostics (FILE:LINE:COL: warning|error: …) on stderr, and for each file
                a summary line on stdout (lines, word-timed lines, duration, title). For an audio FILE, the
                lyrics found for it are checked, and the summary says where they came from. A CD+G FILE (.cdg)
                is summed up by its length and packets, with what players skip in it as warnings.
                Exits 1 when a file cannot be used, or with --strict when there is any warning.

                Options:
                \(optionLines(for: .check))

                """
        }
    }
}
