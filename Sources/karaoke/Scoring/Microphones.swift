import KaraokeCore

/// The microphones of `play --score`, one per singer (DESIGN §15.5): opened before the song starts, their
/// readings handed to the play loop between frames, stopped when the song ends.
///
/// Scoring is never a reason not to play: a song without notes, a missing library, no server or no such
/// source is a notice, and the song plays on without the singers it could not hear.
final class Microphones {
    /// What opening the microphones came to.
    struct Opened {
        /// The microphones that opened; nil when nothing is scored.
        var microphones: Microphones?
        /// The session scoring their singers; nil when nothing is scored.
        var session: ScoringSession?
        /// What could not be done, for the status bar.
        var notice: String?
    }

    /// The captures, in the order of the session's singers.
    private let captures: [MicCapture]
    /// The readings taken from a capture and not yet handed on; kept to save an allocation a frame.
    private var heard: [MicReading] = []

    private init(captures: [MicCapture]) {
        self.captures = captures
    }

    /// Opens a microphone for each singer `options` names for `song` (DESIGN §15.5).
    static func open(for song: Song, options: ScoringOptions) -> Opened {
        guard let track = song.notes, !track.lines.isEmpty else {
            return Opened(notice: "not scoring: no notes (UltraStar and MIDI have them)")
        }
        var captures: [MicCapture] = [], parts: [Voice?] = [], problems: [String] = []
        for singer in options.singers(parts: track.parts) {
            do {
                captures.append(try MicCapture.open(source: singer.source, clientName: "karaoke"))
                parts.append(singer.part)
            } catch {
                let who = singer.part.map { "\(partName($0)): " } ?? ""
                problems.append(who + error.message)
            }
        }
        // The consequence first: a long reason is cut at the status bar's end.
        let notice =
            problems.isEmpty
            ? nil : (captures.isEmpty ? "not scoring: " : "not scoring ") + problems.joined(separator: "; ")
        guard !captures.isEmpty else { return Opened(notice: notice) }
        let session = ScoringSession(
            track: track, parts: parts, difficulty: options.difficulty, micDelayMilliseconds: options.micDelay)
        return Opened(microphones: Microphones(captures: captures), session: session, notice: notice)
    }

    /// `P1` for `.part(0)`, `both` for everyone together.
    static func partName(_ part: Voice) -> String {
        if case .part(let n) = part { return "P\(n + 1)" }
        return "both"
    }

    /// The events the captures have for the play loop now: their readings, then a stop when a capture's
    /// thread ended on its own (said once: the capture hands that news over once).
    func events() -> [PlayLoop.Event] {
        var events: [PlayLoop.Event] = []
        for (index, capture) in captures.enumerated() {
            heard.removeAll(keepingCapacity: true)
            let failure = capture.drain(into: &heard)
            if !heard.isEmpty { events.append(.heard(heard, singer: index)) }
            if let failure { events.append(.microphoneLost(singer: index, reason: failure)) }
        }
        return events
    }

    /// Stops every capture and waits for their threads.
    func stop() {
        for capture in captures { capture.stop() }
    }
}
