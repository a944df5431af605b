import Glibc
import KaraokeCore
import KaraokeDriver

/// One run of `karaoke follow`'s screen: the core's `FollowLoop` decides, the driver runs it on the
/// terminal, and this carries out its own effects on the player's connection, the lyrics worker and the
/// clock log (DESIGN §12, §17).
struct FollowSession {
    let screen: NCursesScreen
    let waiter: PollWaiter
    let connection: PlayerConnectionRunner
    let worker: LyricsWorker
    var loop: FollowLoop
    /// The clock log's descriptor, or -1.
    var clockLog: Int32 = -1

    /// Runs until q or a signal; returns the exit status.
    mutating func run() -> Int32 {
        var driver = TerminalDriver<FollowLoop>(screen: screen, waiter: waiter)
        let connection = connection, worker = worker, clockLog = clockLog
        driver.sources = [
            { connection.takeMessages().map(FollowLoop.Event.player) },
            {
                worker.takeAnswers().map { track, answer in
                    .lyrics(answer.content, title: answer.title, notice: answer.notice, for: track)
                }
            },
        ]
        let ending = driver.run(&loop) { effect, _ in
            switch effect {
            case .command(let command): connection.send(command)
            case .lookUp(let track): worker.lookUp(track)
            case .log(let line): StandardStreams.write(line + "\n", to: clockLog)
            case .screen: break
            }
            return .done
        }
        switch ending {
        case .exit(let status): return status
        // Every effect of follow's own is carried out; none stops the run.
        case .stopped: return 1
        }
    }
}
