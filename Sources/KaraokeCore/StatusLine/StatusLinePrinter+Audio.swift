/// `play --print` with audio: the clock follows mpv's positions as under `play` (DESIGN §8, §28).
extension StatusLinePrinter {
    /// The clock stands from `now` until the audio's first position, and then follows the audio, whose end is
    /// the song's.
    public mutating func waitForAudio(at now: Double) {
        followsAudio = true
        waitsForAudio = true
        clock.pause(at: now)
    }

    /// Takes what mpv reported at `now`; returns the reason when the audio failed (the clock then runs on
    /// alone, as after `loseAudio`).
    public mutating func receive(_ event: AudioEvent, at now: Double) -> String? {
        guard followsAudio else { return nil }
        switch event {
        case .position(let seconds):
            if waitsForAudio {
                // The first position: the clock starts here, with the music.
                waitsForAudio = false
                clock.move(to: seconds, at: now)
                if playback == .playing { clock.resume(at: now) }
            } else {
                clock.synchronize(toAudio: seconds, at: now)
            }
        case .duration(let seconds):
            // The last line, when its end was a guess, lasts to the audio's end, as on the screen.
            guard seconds.isFinite, seconds > 0, let song else { return nil }
            self.song = song.lasting(atLeast: Int((seconds * 1000).rounded()))
        case .reachedEnd:
            audioEnded = true
        case .failed(let reason):
            loseAudio(at: now)
            return reason
        }
        return nil
    }

    /// The audio is gone at `now` (mpv missing or dead): the clock runs on alone, and the song's end is the end.
    public mutating func loseAudio(at now: Double) {
        guard followsAudio else { return }
        followsAudio = false
        if waitsForAudio {
            waitsForAudio = false
            if playback == .playing { clock.resume(at: now) }
        }
    }
}
