/// What `karaoke mic` says first: which source it listens to and how (DESIGN §15.1).
public enum MicListening {
    /// `listening to mic.monitor at 16 kHz mono, 62.5 analyses a second`.
    ///
    /// - Parameters:
    ///   - source: the source `--mic` named; nil for the server's default.
    ///   - defaultSource: the default source's name as the server gave it, when `source` is nil.
    ///   - format: the rate and channels the microphone is read at (`16 kHz mono`).
    ///   - analysesPerSecond: pitch analyses a second.
    public static func line(
        source: String?, defaultSource: String?, format: String, analysesPerSecond: Double
    ) -> String {
        let name: String
        if let source {
            name = ControlCharacters.strip(source)
        } else if let defaultSource, !defaultSource.isEmpty {
            name = ControlCharacters.strip(defaultSource) + " (the default source)"
        } else {
            name = "the server's default source"
        }
        return
            "listening to \(name) at \(format), \(MpvProtocol.number(analysesPerSecond, decimals: 1)) analyses a second"
    }
}
