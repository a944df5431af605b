import Foundation

/// Asks `condition` every 50 ms for up to `seconds` and says whether it came true; a throw counts as not yet.
/// For what a test waits on outside a terminal (mpv's properties, a process's output): `TmuxSession.waitFor`
/// waits on the screen.
func poll(upTo seconds: Double = 5, _ condition: () throws -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if (try? condition()) == true { return true }
        usleep(50_000)
    }
    return false
}
