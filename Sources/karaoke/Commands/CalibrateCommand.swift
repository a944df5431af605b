import Glibc
import KaraokeCore
import KaraokeDriver

/// `karaoke calibrate`: clicks through mpv, heard back on the microphone, and the `--mic-delay` their round
/// trip suggests (DESIGN §15.1).
enum CalibrateCommand {
    /// Plays the clicks and listens; prints the round trip and the delay to use. 1 when mpv or the
    /// microphone cannot be used or fewer than half the clicks were heard; 128+N after signal N.
    static func run(_ request: MicRequest) -> Int32 {
        guard let mpv = MpvPlayer.find() else {
            StandardStreams.err("karaoke: calibration plays clicks through mpv, which is not installed (not on PATH)")
            return 1
        }
        // The microphone first: its errors come before any sound, and its low-latency stream is open before
        // the first click (a source that nobody listens to may lag behind, see DESIGN §15.1).
        guard let waiter = PollWaiter.forCommand(),
            let capture = MicCapture.openOrExplain(
                source: request.source, clientName: "karaoke calibrate", wake: waiter.wake)
        else { return 1 }
        defer { capture.stop() }
        let clickTrack: ClickTrack, audio: MpvPlayer
        switch ClickTrack.play(
            MicCalibration.wav(), executable: mpv, extraOptions: request.mpvOptions, wake: waiter.wake)
        {
        case .success(let started): (clickTrack, audio) = started
        case .failure(let failure):
            StandardStreams.err("karaoke: \(failure.message)")
            return 1
        }
        defer { clickTrack.remove() }
        defer { audio.stop() }
        StandardStreams.out(
            "calibrating: \(MicCalibration.clickCount) clicks, one every \(Int(MicCalibration.interval * 1000)) ms; "
                + "let the microphone hear the speakers\n")
        switch listen(audio: audio, capture: capture, waiter: waiter) {
        case .failure(let status, let message):
            if let message { StandardStreams.err("karaoke: \(message)") }
            return status
        case .success(let reports, let frames):
            // mpv's clock: a position report arrives a little after it was true, never before, so the
            // earliest-arriving report (relative to its position) is the closest; the first reports, at 0
            // before the sound starts, are left out.
            let offsets = reports.filter { $0.position > 0.2 }.map { $0.at - $0.position }
            guard let offset = offsets.min() else {
                StandardStreams.err("karaoke: mpv did not play the clicks (no position came back)")
                return 1
            }
            let heard = frames.map { (time: $0.monotonic - offset, level: $0.level) }
            guard let result = MicCalibration.result(frames: heard) else {
                let count = MicCalibration.roundTrips(frames: heard).compactMap { $0 }.count
                let shown = request.source.map { "'\(ControlCharacters.strip($0))'" } ?? "the default source"
                StandardStreams.err(
                    "karaoke: heard \(count) of \(MicCalibration.clickCount) clicks on \(shown) (at least "
                        + "\(MicCalibration.clickCount / 2) are needed); turn the volume up, bring the microphone "
                        + "nearer the speakers, or choose another source with --mic")
                return 1
            }
            StandardStreams.out(
                "round trip: median \(result.medianMilliseconds) ms, spread \(result.spreadMilliseconds) ms, "
                    + "\(result.heard) of \(MicCalibration.clickCount) clicks heard\n"
                    + "use: karaoke play FILE --score --mic-delay \(result.micDelay)\n"
                    + "or in the config file: mic-delay = \(result.micDelay)\n")
            return 0
        }
    }

    /// What listening to the clicks gave.
    enum Listening {
        /// mpv's position reports (when each arrived) and every analysis heard.
        case success(reports: [(at: Double, position: Double)], frames: [MicReading])
        /// The exit status and what to say.
        case failure(Int32, String?)
    }

    /// Collects mpv's position reports and the microphone's analyses until the clicks end (or a few seconds
    /// past their length, should mpv never say so), asleep between what mpv and the microphone post.
    static func listen(audio: MpvPlayer, capture: MicCapture, waiter: PollWaiter) -> Listening {
        var reports: [(at: Double, position: Double)] = []
        var frames: [MicReading] = []
        let deadline = monotonicSeconds() + MicCalibration.length + 5
        while !waiter.wait(until: deadline).contains(.deadline) {
            if let signal = waiter.takeSignal() { return .failure(signal.exitStatus, nil) }
            if let failure = capture.drain(into: &frames) { return .failure(1, failure) }
            for message in audio.takeMessages() {
                switch message {
                case .event(.position(let position), let at): reports.append((at, position))
                case .event(.reachedEnd, _):
                    _ = capture.drain(into: &frames)
                    return .success(reports: reports, frames: frames)
                case .event(.failed(let reason), _): return .failure(1, "mpv cannot play the clicks: \(reason)")
                case .gone(let reason): return .failure(1, reason)
                case .event: break
                }
            }
        }
        _ = capture.drain(into: &frames)
        return .success(reports: reports, frames: frames)
    }
}
