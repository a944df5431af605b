import KaraokeCore
import KaraokeDriver

/// The frame options of a screen that shows lyrics, from the command line and the edge's own sources.
enum ScreenOptions {
    /// `display`'s frame options with the theme settled from `COLORFGBG`, the big font's source, right-to-left
    /// rows ordered through FriBidi (loaded by the first such line, DESIGN §3.5), and Japanese among the
    /// romanizers (KAKASI, loaded only when a Japanese line is romanized, DESIGN §29.4).
    static func of(_ display: DisplayRequest) -> FrameOptions {
        var options = UnifontFile.withFont(display.frameOptions(colorFGBG: TerminalInfo.environment("COLORFGBG")))
        options.bidi = FriBidi.choice
        options.romanizers = Romanizers(Song.romanizers + [KakasiRomanizer.shared])
        return options
    }

    /// Tells the user once, on stderr, when Japanese lines got no romaji; after a screen is given back.
    static func reportRomanizationFailure() {
        if let failure = KakasiRomanizer.shared.failure { StandardStreams.err("karaoke: warning: \(failure)") }
    }
}
