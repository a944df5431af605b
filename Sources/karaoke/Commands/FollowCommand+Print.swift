import Glibc
import KaraokeCore
import KaraokeDriver

extension FollowCommand {
    /// `--print lines|waybar`: the current line of what the player plays, written at each change (DESIGN §28).
    ///
    /// The core's `StatusLinePrinter` decides what to write and when; this only waits on the wake pipe until
    /// the next change or a message, hands over the connection's messages and the lyrics found, and writes.
    /// Ends on SIGINT, SIGTERM or SIGHUP (128 + N) or, quietly, when stdout closes.
    static func printStatusLines(
        _ request: FollowRequest, form: StatusLineForm, connection: PlayerConnectionRunner, waiter: PollWaiter
    ) -> Int32 {
        let worker = LyricsWorker(request: request, wake: waiter.wake)
        var printer = StatusLinePrinter(
            form: form, userOffset: request.display.frame.userOffset, now: monotonicSeconds())
        var followed = StatusLinePrinter.Followed()
        // The first output before the player's first report: a status bar shows the module at once (empty,
        // `nolyrics`), whether or not the player has answered and its lyrics been found by the first turn.
        if let text = printer.output(at: monotonicSeconds()) {
            guard StandardStreams.writeWhole(text, to: STDOUT_FILENO) else { return 0 }
        }
        while true {
            for message in connection.takeMessages() {
                if let track = printer.receive(message, following: &followed, at: monotonicSeconds()) {
                    worker.lookUp(track)
                }
            }
            for (track, answer) in worker.takeAnswers() {
                printer.receive(lyrics: answer.content, for: track, following: followed)
            }
            let now = monotonicSeconds()
            if let text = printer.output(at: now) {
                // stdout closed (the status bar went away): nothing more to do.
                guard StandardStreams.writeWhole(text, to: STDOUT_FILENO) else { return 0 }
            }
            _ = waiter.wait(until: printer.nextWake(after: now))
            if let signal = waiter.takeSignal() { return signal.exitStatus }
        }
    }
}
