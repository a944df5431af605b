/// The help texts of `karaoke` and its subcommands.
public enum UsageText {
    static let displayOptions = """
      --reduce-motion          no sweep: rows and words light up whole; the title stands still
      --rest-opacity X         brightness of text not yet sung, 0…1 (default 0.35)
      --offset MS              added to the file's [offset:]; positive shows lyrics earlier (default 0)
      --align left|center|right  alignment of lyric rows (default center)
      --color auto|always|never  colours when the terminal has them and NO_COLOR is unset (default auto)
      --theme auto|dark|light  colours for a dark or light background (default auto: COLORFGBG, else dark)
      --colors LIST            title gradient colours, names or #rrggbb, comma separated
                               (default pink,orange,yellow,mint,cyan,purple)
      --gradient-duration S    seconds for the title gradient to drift one cycle (default 4)
      --max-size MB            refuse larger lyric files (default 64)
      --encoding NAME          the file's encoding when it is not UTF-8 (GBK, SHIFT_JIS, CP1252, …)
      --no-translation         hide translation lines
    """

    /// `karaoke --help`.
    public static let main = """
    karaoke — sing along in the terminal

    Usage:
      karaoke play FILE [options]          full-screen player (space pause, ←/→ seek, q quit, ? keys)
      karaoke render FILE --at SECONDS [--cols N] [--rows N] [--format text|ansi|json] [options]
                                           print one frame of the player
      karaoke check FILE... [--strict]     validate lyric files
      karaoke convert FILE --to lrc|elrc|srt|vtt [-o OUT] [--force]
                                           write the lyrics in another format
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
            Usage: karaoke play FILE [options]

            Plays FILE's lyrics full screen: dim until sung, then lit by a sweep in time, with the
            song's audio through mpv when there is one. FILE may be the audio (song.mp3): its lyrics
            are then the file beside it with the same name (song.lrc, …).
            Needs a terminal on stdin and stdout (use 'karaoke render' otherwise).

            Options:
              --start SECONDS          start this far into the song (default 0)
              --fps N                  frames per second, 1…120 (default 30)
              --audio FILE             the audio to play (default: the lyrics' name with .mp3, .flac,
                                       .ogg, .opus, .m4a or .wav, when there is one)
              --no-audio               play silently, on karaoke's own clock
              --volume N               audio volume in percent, 0…130 (default 100)
              --mpv-option KEY=VALUE   pass an option to mpv (repeatable), e.g. ao=null
              --clock-log FILE         write the lyric clock and mpv's positions to FILE (for measuring sync)
            \(displayOptions)

            Keys: space/p pause · ←/→ seek 5 s · ↑/k ↓/j previous/next line · Home/g start
                  +/− offset ±0.1 s · 9/0 volume · m mute · r reduce motion · ? help · q/Esc quit

            """
        case "render":
            return """
            Usage: karaoke render FILE --at SECONDS [options]

            Prints the player's frame at SECONDS to stdout; no terminal needed.

            Options:
              --at SECONDS             the moment of playback to draw (required)
              --cols N, --rows N       frame size (default: the terminal's, else 80×24)
              --format text|ansi|json  plain rows, rows with colour codes, or the JSON frame (default text)
              --fps N                  accepted for symmetry with play (default 30)
            \(displayOptions)

            """
        case "convert":
            return """
            Usage: karaoke convert FILE --to lrc|elrc|srt|vtt [-o OUT] [--force]

            Reads FILE (any format karaoke reads) and writes its lyrics in another format, to stdout or
            OUT. What the target cannot hold is named in a warning on stderr, never dropped silently.

            Options:
              --to FORMAT              lrc (line timing), elrc (Enhanced LRC, word timing), srt, vtt (WebVTT)
              -o, --output OUT         write to OUT instead of stdout ('-' is stdout)
              --force                  replace OUT when it exists (without it, an existing OUT is an error)
              --encoding NAME          FILE's encoding when it is not UTF-8
              --max-size MB            refuse larger lyric files (default 64)

            """
        default:
            return """
            Usage: karaoke check FILE... [--strict] [--max-size MB] [--encoding NAME]

            Validates lyric files: diagnostics (FILE:LINE:COL: warning|error: …) on stderr, and for each file
            a summary line on stdout (lines, word-timed lines, duration, title).
            Exits 1 when a file cannot be used, or with --strict when there is any warning.

            Options:
              --strict                 count warnings as errors
              --max-size MB            refuse larger lyric files (default 64)
              --encoding NAME          the files' encoding when it is not UTF-8 (GBK, SHIFT_JIS, CP1252, …)

            """
        }
    }
}
