/// What the command line asks for, parsed and validated, before anything is read or drawn.
public enum Invocation: Sendable, Equatable {
    /// Print a help text (for the program or a subcommand) and exit 0.
    case help(String)
    /// Print the version and exit 0.
    case version
    /// `karaoke play FILE [options]`.
    case play(PlayRequest)
    /// `karaoke render FILE --at SECONDS …`.
    case render(RenderRequest)
    /// `karaoke check FILE... [--strict]`.
    case check(CheckRequest)
    /// `karaoke convert FILE --to FORMAT [-o OUT] [--force]`.
    case convert(ConvertRequest)
    /// `karaoke fetch AUDIO... [--save] [--force] [--pick]` or `karaoke fetch --artist A --title T …`.
    case fetch(FetchRequest)
    /// `karaoke follow [--player P] [--print]`.
    case follow(FollowRequest)
    /// `karaoke sync FILE [--audio AUDIO] [-o OUT] [--words] [--force] [--latency MS]`.
    case sync(SyncRequest)
    /// `karaoke calibrate [--mic SOURCE]`: measure the microphone's round trip with clicks (DESIGN §15.1).
    case calibrate(MicRequest)
    /// `karaoke mic [--mic SOURCE] [--print]`: show what the microphone hears (DESIGN §15.1).
    case mic(MicRequest)
    /// `karaoke party [FOLDER...] [--port N] [--bind ADDR] [--code CODE] [--max-per-singer N] [--score]`: guests
    /// request songs from their phones (DESIGN §20).
    case party(PartyRequest)
    /// `karaoke config [options]`: print this listing of the settings in effect (DESIGN §14.4).
    case config(String)
    /// `karaoke --generate man|bash|zsh|fish`: print this man page or completion script (DESIGN §14.5).
    case generated(String)
}

/// `karaoke party`: the evening's songs, the server guests reach and the rotation's limit (DESIGN §20).
public struct PartyRequest: Sendable, Equatable {
    /// FOLDER...: where the songs are; empty takes the current folder.
    public var folders: [String] = []
    /// The options `party` shares with `play` (display, audio, `--score`, `--mic`); its FILEs are not used.
    public var play = PlayRequest(display: DisplayRequest(file: ""))
    /// `--port`: the server's port; 0 lets the system pick a free one.
    public var port = 8737
    /// `--bind`: the IPv4 address to listen on; nil listens on every one.
    public var bind: String?
    /// `--code`: the room code guests type; nil draws four random digits.
    public var code: String?
    /// `--max-per-singer`: the most songs one singer may have waiting.
    public var maximumPerSinger = PartyRotation.defaultMaximumPerSinger
    /// `--resume` (true) or `--no-resume` (false); nil asks when today's party was left unfinished.
    public var resume: Bool?

    /// Creates a request with the defaults.
    public init() {}

    /// The folders searched: FOLDER..., else the current folder.
    public var searchedFolders: [String] { folders.isEmpty ? ["."] : folders }
}

/// `karaoke sync`: time lyrics by tapping along to the audio (DESIGN §13.1).
public struct SyncRequest: Sendable, Equatable {
    /// The text (or lyric file) to time.
    public var file: String
    /// `--audio`; nil takes the audio beside FILE, as `play` does.
    public var audio: String?
    /// `-o`/`--output`; nil writes FILE's name with `.lrc` beside it.
    public var output: String?
    /// `--words`: stamp word by word and write Enhanced LRC.
    public var words = false
    /// `--force`: replace an existing OUT.
    public var force = false
    /// `--latency`: milliseconds subtracted from every tap.
    public var latency = 0
    /// `--resume` (true) or `--no-resume` (false); nil asks when there is an autosave.
    public var resume: Bool?
    /// `--mpv-option KEY=VALUE`, in order.
    public var mpvOptions: [String] = []
    /// `--max-size` in bytes.
    public var maxSize = 64 * 1_048_576
    /// `--encoding`, as for the other commands.
    public var encoding: String?
    /// `--calibrate`: tap along to clicks to measure your latency, instead of timing a FILE.
    public var calibrates = false

    /// Creates a request with the defaults.
    public init(file: String) { self.file = file }

    /// The file `s` writes: OUT, else FILE's name with `.lrc` in FILE's folder.
    public var outputPath: String {
        if let output { return output }
        let slash = file.lastIndex(of: "/")
        let nameStart = slash.map { file.index(after: $0) } ?? file.startIndex
        // The extension is the part after the name's last dot, unless the dot starts the name.
        if let dot = file[nameStart...].lastIndex(of: "."), dot != nameStart {
            return String(file[..<dot]) + ".lrc"
        }
        return file + ".lrc"
    }

    /// Where the autosave goes: OUT with `.autosave` after it.
    public var autosavePath: String { outputPath + ".autosave" }
}

/// `karaoke calibrate` and `karaoke mic`: the microphone on its own (DESIGN §15.1).
public struct MicRequest: Sendable, Equatable {
    /// `--mic`: the PulseAudio source to listen to; nil takes the server's default source.
    public var source: String?
    /// `--mpv-option KEY=VALUE`, in order (calibrate plays its clicks through mpv).
    public var mpvOptions: [String] = []
    /// `--print` (mic): a JSON line an analysis instead of the live line.
    public var prints = false

    /// Creates a request with the defaults.
    public init() {}
}

/// `karaoke follow`: the lyrics of what another player plays, on its clock (DESIGN §12).
public struct FollowRequest: Sendable, Equatable {
    /// The shared display options (its file is unused), with `--lyrics-dir`, `--max-size` and `--encoding`.
    public var display: DisplayRequest
    /// `--player`.
    public var player = PlayerChoice.automatic
    /// `--music-dir`: MPD's music folder; nil asks MPD (over a local socket only).
    public var musicDirectory: String?
    /// `--print [lines|waybar|json]`: what to print instead of the screen (DESIGN §12 item 3, §28); nil shows it.
    public var print: StatusLineForm?
    /// Whether `--print` was given: nothing is shown, so no terminal is needed.
    public var prints: Bool { print != nil }
    /// `--clock-log FILE`: where to write the lyric clock and the player's positions, for measuring the sync.
    public var clockLog: String?

    /// Creates a request with the defaults.
    public init(display: DisplayRequest) {
        self.display = display
    }
}

/// `karaoke fetch`: lyrics from LRCLIB (DESIGN §11).
public struct FetchRequest: Sendable, Equatable {
    /// The default server.
    public static let defaultServer = "https://lrclib.net"

    /// The audio files whose lyrics are looked up; empty when `--artist` and `--title` name the song.
    public var audioFiles: [String] = []
    /// `--artist`.
    public var artist: String?
    /// `--title`.
    public var title: String?
    /// `--album`.
    public var album: String?
    /// `--duration`, seconds.
    public var duration: Double?
    /// `-o`/`--output`; nil prints to stdout (or, with `save`, writes beside the audio).
    public var output: String?
    /// `--save`: write beside each audio file.
    public var save = false
    /// `--force`: replace an existing file.
    public var force = false
    /// `--pick`: ask which candidate to take.
    public var pick = false
    /// `--lrclib-url`; nil takes `KARAOKE_LRCLIB_URL`, else `defaultServer` (read at the edge).
    public var server: String?

    /// Creates a request with the defaults.
    public init() {}
}

/// `karaoke convert`.
public struct ConvertRequest: Sendable, Equatable {
    /// The formats `convert` writes.
    public static let targets = ["lrc", "elrc", "srt", "vtt"]

    /// The lyric file read.
    public var file: String
    /// `--to`: one of `targets`.
    public var target: String
    /// `-o`/`--output`; nil writes to stdout.
    public var output: String?
    /// `--force`: replace an existing output file.
    public var force = false
    /// `--encoding`, as for the other commands.
    public var encoding: String?
    /// `--max-size` in bytes.
    public var maxSize = 64 * 1_048_576
}

/// When the frame should be coloured (`--color`).
public enum ColorChoice: String, Sendable, Equatable, CaseIterable {
    /// Colours when the terminal has them and `NO_COLOR` is unset.
    case auto
    /// Colours even when not a terminal (for `render --format ansi`).
    case always
    /// Attributes only.
    case never
}

/// `--graphics`: how `play` draws a CD+G picture.
public enum GraphicsChoice: String, Sendable, Equatable, CaseIterable {
    /// Ask the terminal, and draw pixels where it says it can; cells otherwise.
    case auto
    /// Cells, without asking.
    case cells
    /// Sixel graphics.
    case sixel
    /// Kitty graphics.
    case kitty
}

/// Which colours the terminal's background calls for (`--theme`).
public enum ThemeChoice: String, Sendable, Equatable, CaseIterable {
    case auto, dark, light
}

/// The options `play` and `render` share (DESIGN §1).
public struct DisplayRequest: Sendable, Equatable {
    /// The lyric file.
    public var file: String
    /// How the frame is shaped.
    public var frame = FrameOptions()
    /// `--color`.
    public var color = ColorChoice.auto
    /// `--theme`; `auto` reads `COLORFGBG` at the edge (see `Theme.detected`).
    public var theme = ThemeChoice.auto
    /// `--graphemes`; `auto` asks the terminal at the edge, and is the reduced form until it has (DESIGN §3.6).
    public var graphemes = GraphemesChoice.auto
    /// `--fps` (its range is the option table's).
    public var framesPerSecond = 30
    /// `--max-size` in bytes.
    public var maxSize = 64 * 1_048_576
    /// `--encoding`: the file's legacy encoding, as iconv names it; nil reads UTF-8 (or guesses).
    public var encoding: String?
    /// False with `--no-translation`: translations are not shown.
    public var showsTranslations = true
    /// `--lyrics` and `--lyrics-dir`: where the lyrics of an audio FILE are looked for.
    public var lyrics = LyricsSearchOptions()

    /// Creates a request with the defaults: the lyrics' size is `auto` here, as the screens that play take it
    /// (render's invocation sets 1, DESIGN §23).
    public init(file: String) {
        self.file = file
        frame.size = .auto
    }

    /// The frame options with `--theme auto` settled from the terminal's `COLORFGBG`, and emoji sequences
    /// whole only with `--graphemes whole` (a screen's answer settles `auto`, DESIGN §3.6).
    public func frameOptions(colorFGBG: String?) -> FrameOptions {
        var options = frame
        options.theme = Theme.resolve(theme, colorFGBG: colorFGBG)
        options.graphemes = graphemes == .whole ? .whole : .reduced
        return options
    }
}

/// `karaoke play`.
public struct PlayRequest: Sendable, Equatable {
    /// The shared options.
    public var display: DisplayRequest
    /// `--start`, seconds.
    public var start = 0.0
    /// Where the sound comes from.
    public var audio = AudioChoice.automatic
    /// `--mpv-option KEY=VALUE`, in order, without leading dashes.
    public var mpvOptions: [String] = []
    /// `--volume`, percent.
    public var volume = 100
    /// `--clock-log FILE`: where to write the lyric clock and mpv's position, for measuring the sync.
    public var clockLog: String?
    /// `--soundfont FILE`: the SoundFont that plays a MIDI song; nil takes the first installed one (DESIGN §18).
    public var soundfont: String?
    /// `--melody-channel N` as a channel 0…15: the one `v` turns down in a MIDI song; nil takes the song's.
    public var melodyChannel: Int?
    /// `--graphics`: how a CD+G picture is drawn (DESIGN §19.9).
    public var graphics = GraphicsChoice.auto
    /// `--apply-offset`: `s` moves the stamps instead of writing `[offset:]` (DESIGN §13.2).
    public var appliesOffset = false
    /// Whether the command line gave `--offset`: then it wins over the song's remembered offset (DESIGN §14.4).
    public var offsetIsGiven = false
    /// Whether the command line gave `--vocals`: then it wins over the song's remembered level (DESIGN §14.4).
    public var vocalsIsGiven = false
    /// `--print [lines|waybar|json]`: the current line printed instead of the screen (DESIGN §28); nil shows it.
    public var print: StatusLineForm?
    /// `--vocals`, `--key` and `--tempo`: what mpv starts with (DESIGN §14.1).
    public var singing = SingingSettings()
    /// Every FILE given, in order (`display.file` is the first): more than one makes a queue.
    public var files: [String] = []
    /// How a queue plays: `--shuffle`, `--seed`, `--loop`, `--singer` (DESIGN §14.2).
    public var queue = QueueOptions()
    /// `--score` and its options: singing scored from the microphone (DESIGN §15).
    public var scoring = ScoringOptions()
    /// The microphone to the speakers while the song plays (`--monitor`, DESIGN §24).
    public var monitor = MonitorOptions()

    /// How `play` goes through a queue of songs (DESIGN §14.2).
    public struct QueueOptions: Sendable, Equatable {
        /// `--shuffle` (or `--seed`): a random order.
        public var shuffles = false
        /// `--seed N`: the shuffle's seed; nil takes one from the clock.
        public var seed: UInt64?
        /// `--loop`: start over after the last song.
        public var loops = false
        /// `--singer NAME`: shown on each card unless the playlist names the song's singer.
        public var singer: String?

        /// The defaults: in order, once, no singer.
        public init() {}
    }

    /// Where `play` takes its sound from.
    public enum AudioChoice: Sendable, Equatable {
        /// The audio file beside the lyrics (or the lyrics beside the audio), when there is one.
        case automatic
        /// `--audio FILE`.
        case file(String)
        /// `--no-audio`: silent, on the internal clock.
        case none
    }

    /// Creates a request with the defaults.
    public init(display: DisplayRequest, start: Double = 0) {
        self.display = display
        self.start = start
    }
}

/// `karaoke render`.
public struct RenderRequest: Sendable, Equatable {
    /// The printed form of the frame, or of the span's frames.
    public enum Format: String, Sendable, Equatable, CaseIterable {
        case text, ansi, json, ppm
        /// An asciinema v2 recording of a span: the bytes play writes, frame by frame (DESIGN §26).
        case asciicast
        /// An SVG picture: a still with `--at`, an animation of a span with `--from`/`--to` (DESIGN §26).
        case svg
    }

    /// The shared options.
    public var display: DisplayRequest
    /// `--at`, seconds of playback; with a span, its start.
    public var time: Double
    /// `--at` as written, for a moment that must be exact to the digit (a CD+G packet, DESIGN §19.4).
    public var timeText = "0"
    /// `--cols`, or nil for the terminal's (80 when stdout is not one).
    public var columns: Int?
    /// `--rows`, or nil for the terminal's (24 when stdout is not one).
    public var rows: Int?
    /// `--format`.
    public var format = Format.text
    /// `--from` and `--to`, in seconds: a span recorded instead of one frame, its end included; nil with `--at`.
    public var span: ClosedRange<Double>?
    /// `-o`/`--output`; nil writes to stdout.
    public var output: String?
    /// `--force`: replace an existing OUT.
    public var force = false
    /// `--score`: the note lanes `play --score` shows, with nobody singing (DESIGN §26.5).
    public var showsLanes = false
}

/// `karaoke check`.
public struct CheckRequest: Sendable, Equatable {
    /// The files, in the order given.
    public var files: [String]
    /// Whether warnings count as errors.
    public var strict = false
    /// `--max-size` in bytes.
    public var maxSize = 64 * 1_048_576
    /// `--encoding`, as for display commands.
    public var encoding: String?
    /// `--lyrics` and `--lyrics-dir`, for the audio files among `files`.
    public var lyrics = LyricsSearchOptions()
}

/// Where the lyrics of an audio file are looked for (`--lyrics`, `--lyrics-dir`; DESIGN §10.1).
public struct LyricsSearchOptions: Sendable, Equatable {
    /// `--lyrics FILE`: this lyric file, whatever else there is.
    public var file: String?
    /// `--lyrics-dir DIR`, in the order given; empty means the default folders.
    public var folders: [String] = []
    /// `--fetch`: ask LRCLIB when nothing is found on this machine (DESIGN §11); without it nothing goes
    /// over the network.
    public var fetch = false
    /// `--lrclib-url`; nil takes `KARAOKE_LRCLIB_URL`, else `FetchRequest.defaultServer` (read at the edge).
    public var server: String?

    /// Creates options: the default search.
    public init(file: String? = nil, folders: [String] = [], fetch: Bool = false, server: String? = nil) {
        self.file = file
        self.folders = folders
        self.fetch = fetch
        self.server = server
    }
}
