import KaraokeCore
import KaraokeDriver

/// The monitor of one song (DESIGN §24): started before the song when `--monitor` asks, turned on and off by
/// `e` (which starts it at the default level when it was not asked for), stopped with the song's audio.
///
/// libpulse is loaded only here, when the monitor starts: a plain `play` never loads it.
final class MonitorSwitch {
    /// What `--monitor`, `--monitor-sink` and `--reverb` asked for.
    private let options: MonitorOptions
    /// The microphone: the first `--mic`'s source (nil: the server's default source).
    private let source: String?
    /// The running monitor; nil before it starts, or when it could not.
    private var monitor: MicMonitor?

    /// The switch for `request`'s song; nothing starts yet.
    init(request: PlayRequest) {
        options = request.monitor
        source = request.scoring.microphones.first?.source
    }

    /// Starts the monitor when `--monitor` asks; returns the notice to show, if any (why it could not start,
    /// or the feedback warning).
    func startIfAsked() -> String? {
        guard let percent = options.percent else { return nil }
        return start(percent: percent)
    }

    /// `e`: the monitor on when off, off when on, started when there is none; the status bar's notice.
    func toggle() -> String {
        guard let monitor else {
            return start(percent: options.percent ?? MonitorOptions.defaultPercent)
                ?? MonitorOptions.notice(
                    isOn: true, percent: options.percent ?? MonitorOptions.defaultPercent, reverb: options.reverb)
        }
        return MonitorOptions.notice(isOn: monitor.toggle(), percent: monitor.percent, reverb: monitor.reverb)
    }

    /// The play loop's events: a notice when the monitor stopped on its own (the server went away).
    func events() -> [PlayLoop.Event] {
        guard let failure = monitor?.takeFailure() else { return [] }
        return [.notice(failure)]
    }

    /// Stops the monitor; its streams close with it.
    func stop() {
        monitor?.stop()
        monitor = nil
    }

    /// Starts the monitor at `percent`; the notice to show, if any.
    private func start(percent: Int) -> String? {
        do {
            let started = try MicMonitor.start(
                source: source, sink: options.sink, percent: percent, reverb: options.reverb)
            monitor = started
            // The server is asked for its defaults only when one is used: a named pair needs no answer.
            return MonitorOptions.feedbackWarning(
                source: source, sink: options.sink,
                defaultSource: source == nil ? MicMonitor.defaultDevice(sink: false) : nil,
                defaultSink: options.sink == nil ? MicMonitor.defaultDevice(sink: true) : nil)
        } catch {
            return "no monitor: " + error.message
        }
    }
}
