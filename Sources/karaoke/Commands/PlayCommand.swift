import KaraokeCore

/// `karaoke play`: the interactive player (issue 3).
enum PlayCommand {
    static func run(_ request: PlayRequest) -> Int32 {
        StandardStreams.err("karaoke: 'play' is not built yet; use 'karaoke render FILE --at SECONDS' to see a frame")
        return 2
    }
}
