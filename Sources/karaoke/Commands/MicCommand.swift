import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke mic`: what the microphone hears, live: a tuner line, or a JSON line an analysis with `--print`
/// (DESIGN §15.1).
enum MicCommand {
    /// The tuner's most lines a second: more would only flicker.
    static let tunerLinesPerSecond = 20.0

    /// Listens until Ctrl-C (130), SIGTERM (143) or SIGHUP (129); 1 when the microphone cannot be opened or
    /// goes away.
    static func run(_ request: MicRequest) -> Int32 {
        guard let waiter = PollWaiter.forCommand(),
            let capture = MicCapture.openOrExplain(
                source: request.source, clientName: "karaoke mic", wake: waiter.wake)
        else { return 1 }
        defer { capture.stop() }
        // The source first: a user with several microphones needs to know which one this is.
        let line = MicListening.line(
            source: request.source, defaultSource: request.source == nil ? MicCapture.defaultSource() : nil,
            format: MicCapture.formatText, analysesPerSecond: MicCapture.framesPerSecond)
        // With --print stdout is JSON lines only; the line goes to stderr.
        if request.prints {
            StandardStreams.err("karaoke: " + line)
        } else {
            StandardStreams.out(line + "; Ctrl-C stops\n")
        }
        var frames: [MicReading] = []
        // The tuner's pace: the latest reading not yet shown, and when the next line may be written.
        var unshown: MicReading?
        var nextLine = 0.0
        while true {
            // Asleep until a reading or a signal comes; a tuner line held back for pace sets the deadline.
            _ = waiter.wait(until: unshown == nil ? nil : nextLine)
            if let signal = waiter.takeSignal() {
                if !request.prints { StandardStreams.out("\n") }
                return signal.exitStatus
            }
            frames.removeAll(keepingCapacity: true)
            let failure = capture.drain(into: &frames)
            if request.prints {
                if !frames.isEmpty { StandardStreams.out(frames.map(jsonLine).joined()) }
            } else {
                unshown = frames.last ?? unshown
                let now = monotonicSeconds()
                if let shown = unshown, now >= nextLine {
                    StandardStreams.out("\r" + tunerLine(shown) + "\u{1B}[K")
                    unshown = nil
                    nextLine = now + 1 / tunerLinesPerSecond
                }
            }
            if let failure {
                if !request.prints { StandardStreams.out("\n") }
                StandardStreams.err("karaoke: \(failure)")
                return 1
            }
        }
    }

    /// One analysis as a JSON line: `{"time":…,"midi":…,"hz":…,"note":"A4","cents":0,"level":…}`, with
    /// `null` pitch fields when nothing voiced was heard; `time` is CLOCK_MONOTONIC seconds.
    static func jsonLine(_ frame: MicReading) -> String {
        let level = MpvProtocol.number(frame.level, decimals: 1)
        let time = MpvProtocol.number(frame.monotonic, decimals: 4)
        guard let midi = frame.midi else {
            return #"{"time":\#(time),"midi":null,"hz":null,"note":null,"cents":null,"level":\#(level)}"# + "\n"
        }
        let note = NoteName.of(midi: midi)
        let hertz = 440 * pow(2, (midi - 69) / 12)
        return #"{"time":\#(time),"midi":\#(MpvProtocol.number(midi, decimals: 2)),"#
            + #""hz":\#(MpvProtocol.number(hertz, decimals: 1)),"note":"\#(note.name)","cents":\#(note.cents),"#
            + #""level":\#(level)}"# + "\n"
    }

    /// The tuner's line: `A4  +3 cents  441.2 Hz  -18 dBFS`, or only the level when nothing is sung.
    static func tunerLine(_ frame: MicReading) -> String {
        let level = "\(Int(frame.level.rounded())) dBFS"
        guard let midi = frame.midi else { return "—" + String(repeating: " ", count: 26) + level }
        let note = NoteName.of(midi: midi)
        let hertz = 440 * pow(2, (midi - 69) / 12)
        let cents = (note.cents >= 0 ? "+" : "") + "\(note.cents) cents"
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(0, width - text.count))
        }
        return padded(note.name, 5) + padded(cents, 11) + padded(MpvProtocol.number(hertz, decimals: 1) + " Hz", 11)
            + level
    }
}
