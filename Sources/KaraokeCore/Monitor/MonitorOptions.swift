/// What `--monitor`, `--monitor-sink` and `--reverb` ask for: the microphone sent to the speakers while a song
/// plays (DESIGN §24).
public struct MonitorOptions: Sendable, Equatable {
    /// The loudness a level may be set to, in percent of the microphone's own.
    public static let percentRange = 0...200
    /// The level a bare `--monitor` sets.
    public static let defaultPercent = 100

    /// The level in percent of the microphone's loudness; nil when the monitor is off.
    public var percent: Int?
    /// The PulseAudio sink to play to; nil: the server's default sink.
    public var sink: String?
    /// Whether the room echo (`RoomEcho`) is added.
    public var reverb = false

    /// No monitor, unless given.
    public init(percent: Int? = nil, sink: String? = nil, reverb: Bool = false) {
        self.percent = percent
        self.sink = sink
        self.reverb = reverb
    }

    /// Whether the monitor is asked for.
    public var isOn: Bool { percent != nil }

    /// The gain a level of `percent` multiplies samples by: 100 % is 1.
    public static func gain(percent: Int) -> Float {
        Float(min(max(percent, percentRange.lowerBound), percentRange.upperBound)) / 100
    }

    /// The warning to show when the microphone `source` is the monitor of the very sink the monitor plays to
    /// (`SINK.monitor`): what goes out comes straight back in, louder each time round, and howls. `sink` and
    /// `source` are the names asked for, each nil for the server's default, which `defaultSink` and
    /// `defaultSource` name when the server said.
    public static func feedbackWarning(
        source: String?, sink: String?, defaultSource: String?, defaultSink: String?
    ) -> String? {
        guard let source = source ?? defaultSource, let sink = sink ?? defaultSink else { return nil }
        guard source == sink + ".monitor" else { return nil }
        return "feedback: the microphone \(ControlCharacters.strip(source)) hears the speakers it plays to; "
            + "turn the monitor off with e"
    }

    /// The status bar's notice when `e` turns the monitor on or off.
    public static func notice(isOn: Bool, percent: Int, reverb: Bool) -> String {
        isOn ? "monitor on \(percent)%" + (reverb ? " with echo" : "") : "monitor off"
    }
}
