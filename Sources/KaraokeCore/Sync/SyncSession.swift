/// The state of `karaoke sync` as a value: the stamps taken so far, the audio's clock, the selection,
/// the speed, and what the keys do to them (DESIGN §13.1).
///
/// Pure: it takes the monotonic time with every call and answers with the commands for the audio engine,
/// so a fake clock tests it whole. Stamps are audio times minus the latency, in milliseconds; they are
/// kept in the order they were taken, which is also their time order (a stamp earlier than the last is
/// refused, a nudge cannot pass a neighbour), so Backspace removes the last one taken.
public struct SyncSession: Sendable {
    /// What a stamp marks.
    public enum Mark: Sendable, Equatable {
        /// Line mode: the start of line N.
        case line(Int)
        /// An end marker: line N ends here.
        case end(Int)
        /// Word mode: the start of piece P of line N (piece 0 starts the line).
        case word(Int, Int)
        /// Word mode: line N is closed here (the closing word tag).
        case close(Int)

        /// The line the mark belongs to.
        public var line: Int {
            switch self {
            case .line(let n), .end(let n), .word(let n, _), .close(let n): n
            }
        }
    }

    /// One stamp: what it marks and when, in milliseconds of audio time.
    public struct Stamp: Sendable, Equatable {
        public var mark: Mark
        public var time: Int

        /// Creates a stamp.
        public init(_ mark: Mark, at time: Int) {
            self.mark = mark
            self.time = time
        }
    }

    /// The speeds `[` and `]` step through.
    public static let speeds = [0.5, 0.6, 0.7, 0.75, 0.8, 0.9, 1.0]
    /// The least time between two stamps, in milliseconds: LRC's precision.
    public static let minimumGap = 10
    /// How far Backspace seeks back before the removed stamp, in seconds.
    public static let rewind = 2.0
    /// How long a status-bar notice stays, in seconds.
    public static let noticeDuration = 2.0

    /// The text being timed.
    public let script: SyncScript
    /// Whether words are stamped (`--words`) rather than lines.
    public let wordMode: Bool
    /// Milliseconds subtracted from every tap (`--latency`).
    public let latency: Int
    /// The stamps in the order taken (and so in time order).
    public private(set) var stamps: [Stamp]
    /// The line `,` `.` `<` `>` move; nil before the first stamp.
    public private(set) var selectedLine: Int?
    /// The index in `speeds` of the playback speed.
    public private(set) var speedIndex = SyncSession.speeds.count - 1
    /// mpv's status, the pause and the clock that follows mpv's positions.
    public private(set) var audioClock: AudioClock
    /// The notice and the help (sync keeps no user offset, its stamps being the timing, and no reduce-motion
    /// key: its loop takes reduce motion from the options).
    public private(set) var overlay: Overlay
    /// Whether `q` was pressed with unsaved stamps and waits for a second `q`.
    public private(set) var confirmsQuit = false
    /// Whether the user asked to quit (and confirmed it).
    public private(set) var hasQuit = false
    /// Counts every change to the stamps, so saves and autosaves know whether they are behind.
    public private(set) var revision = 0
    /// The revision last saved (0: nothing yet, and nothing to save).
    public private(set) var savedRevision = 0

    /// A session timing `script`, at monotonic `now`, from `stamps` (resumed from an autosave) or none. The
    /// audio starts at `startPosition(resuming:latency:)`: its start, or just before the last stamp. With
    /// `audio == .starting` the clock waits there for the audio's first position.
    public init(
        script: SyncScript, wordMode: Bool, latency: Int = 0, stamps: [Stamp] = [], audio: AudioStatus = .none,
        now: Double
    ) {
        self.script = script
        self.wordMode = wordMode
        self.latency = latency
        self.stamps = stamps
        audioClock = AudioClock(
            audio: audio, position: SyncSession.startPosition(resuming: stamps, latency: latency), now: now)
        overlay = Overlay()
        selectedLine = stamps.last?.mark.line
        // Stamps given at the start were resumed from an autosave: not saved to the output file yet.
        if !stamps.isEmpty { revision = 1 }
    }

    /// Where the audio starts, in seconds: `rewind` before the last of `stamps` (in audio time, the latency
    /// added back), as Backspace seeks, so a resumed session goes on where it stopped; 0 without stamps.
    public static func startPosition(resuming stamps: [Stamp], latency: Int) -> Double {
        guard let last = stamps.last else { return 0 }
        return max(0, Double(last.time + latency) / 1000 - rewind)
    }

    /// Whether the user paused.
    public var isPaused: Bool { audioClock.isPaused }
    /// Whether the help overlay is shown.
    public var showsHelp: Bool { overlay.showsHelp }
    /// Where the audio stands.
    public var audio: AudioStatus { audioClock.audio }
    /// The audio's length in seconds, once mpv has said.
    public var audioDuration: Double? { audioClock.audioDuration }

    /// The playback speed.
    public var speed: Double { SyncSession.speeds[speedIndex] }

    /// Whether there are stamps that no save holds.
    public var hasUnsavedStamps: Bool { revision != savedRevision && !stamps.isEmpty }

    /// Where the audio is at `now`, in seconds, held within the audio when its length is known.
    public func position(at now: Double) -> Double {
        let position = max(0, audioClock.position(at: now))
        return audioDuration.map { min(position, $0) } ?? position
    }

    /// How many lines have a start stamp.
    public var startedLines: Int {
        var count = 0
        for stamp in stamps {
            switch stamp.mark {
            case .line, .word(_, 0): count += 1
            default: break
            }
        }
        return count
    }

    /// The notice to show in the status bar at `now`, if any.
    public func noticeText(at now: Double) -> String? { overlay.noticeText(at: now) }

    /// Shows `text` in the status bar for a while.
    public mutating func post(_ text: String, at now: Double) {
        overlay.post(text, at: now, for: SyncSession.noticeDuration)
    }

    /// Applies `action` at monotonic `now`; returns what the audio engine must be told. `helpPages` is how
    /// many pages the help box has on the screen now, for a key that turns them.
    @discardableResult
    public mutating func apply(_ action: SyncAction, at now: Double, helpPages: Int = 1) -> [AudioCommand] {
        let confirming = confirmsQuit
        confirmsQuit = false
        switch action {
        case .stamp:
            stamp(at: now)
        case .enter:
            if wordMode { close(at: now) } else { stamp(at: now) }
        case .endMarker:
            if wordMode { close(at: now) } else { endMarker(at: now) }
        case .undo:
            guard let last = stamps.popLast() else {
                post("nothing to undo", at: now)
                return []
            }
            revision += 1
            selectedLine = stamps.last?.mark.line
            post("removed the stamp at \(SyncSession.clock(last.time))", at: now)
            return move(to: Double(last.time + latency) / 1000 - SyncSession.rewind, at: now)
        case .select(let step):
            let started = startedLines
            guard started > 0 else { return [] }
            selectedLine = max(0, min(started - 1, (selectedLine ?? started - 1) + step))
        case .nudge(let milliseconds):
            nudge(by: milliseconds, at: now)
        case .seek(let seconds):
            return move(to: position(at: now) + seconds, at: now)
        case .togglePause:
            return audioClock.togglePause(at: now)
        case .changeSpeed(let step):
            let index = max(0, min(SyncSession.speeds.count - 1, speedIndex + step))
            guard index != speedIndex else { return [] }
            speedIndex = index
            audioClock.setRate(speed, at: now)
            post("speed \(SyncSession.speedText(speed))", at: now)
            return audioIsLive ? [.setSpeed(speed)] : []
        case .save:
            break // the loop writes the file and reports back through `saved`
        case .toggleHelp:
            overlay.showsHelp.toggle()
        case .turnHelpPage:
            overlay.turnHelpPage(of: helpPages)
        case .quit:
            if hasUnsavedStamps && !confirming {
                confirmsQuit = true
                overlay.post("unsaved stamps: q again quits without saving, s saves", at: now, for: 3600)
            } else {
                hasQuit = true
            }
        }
        return []
    }

    /// Records that the stamps of `revision` were written to the output file.
    public mutating func saved(revision: Int) {
        savedRevision = revision
    }

    /// Takes what the audio engine reported at `now`.
    public mutating func receive(_ event: AudioEvent, at now: Double) {
        if let failure = audioClock.receive(event, at: now) {
            lose("mpv: \(failure); timing on a silent clock", at: now)
        }
    }

    /// The audio engine is gone (missing, or died): the clock goes on silently from where it is.
    public mutating func lose(_ reason: String, at now: Double) {
        audioClock.lose(at: now)
        overlay.post(reason, at: now, for: 3 * SyncSession.noticeDuration)
    }

    /// Holds the clock still for `seconds` (the process was suspended).
    public mutating func skipClock(by seconds: Double) { audioClock.skip(by: seconds) }

    /// Whether mpv is there to be told things.
    public var audioIsLive: Bool { audioClock.isLive }

    // MARK: - Stamping

    /// The mark the stamp key sets next, or nil when every line (or word) has one.
    public var nextMark: Mark? {
        guard wordMode else {
            let next = startedLines
            return next < script.lines.count ? .line(next) : nil
        }
        guard let last = stamps.last else { return script.lines.isEmpty ? nil : .word(0, 0) }
        let line = last.mark.line
        if case .word(_, let piece) = last.mark, piece + 1 < script.lines[line].pieces.count {
            return .word(line, piece + 1)
        }
        return line + 1 < script.lines.count ? .word(line + 1, 0) : nil
    }

    /// The time a tap at `now` stamps: the audio's time less the latency, in milliseconds.
    public func tapTime(at now: Double) -> Int {
        max(0, Int((position(at: now) * 1000).rounded()) - latency)
    }

    private mutating func stamp(at now: Double) {
        guard let mark = nextMark else {
            post("every \(wordMode ? "word" : "line") is stamped; s saves", at: now)
            return
        }
        add(mark, at: now)
    }

    private mutating func endMarker(at now: Double) {
        guard let last = stamps.last, case .line(let line) = last.mark else {
            post(stamps.isEmpty ? "no line to end yet" : "the last line has its end already", at: now)
            return
        }
        add(.end(line), at: now)
    }

    private mutating func close(at now: Double) {
        guard let last = stamps.last, case .word(let line, let piece) = last.mark else {
            post(stamps.isEmpty ? "no line to close yet" : "the last line is closed already", at: now)
            return
        }
        let left = script.lines[line].pieces.count - piece - 1
        guard left == 0 else {
            post("\(left) more word\(left == 1 ? "" : "s") in this line to stamp first", at: now)
            return
        }
        add(.close(line), at: now)
    }

    private mutating func add(_ mark: Mark, at now: Double) {
        let time = tapTime(at: now)
        if let last = stamps.last, time < last.time + SyncSession.minimumGap {
            post("too early: the last stamp is at \(SyncSession.clock(last.time)); Backspace redoes it", at: now)
            return
        }
        stamps.append(Stamp(mark, at: time))
        revision += 1
        selectedLine = mark.line
    }

    private mutating func nudge(by milliseconds: Int, at now: Double) {
        guard let line = selectedLine else {
            post("nothing stamped to move", at: now)
            return
        }
        // Line mode moves the line's start; word mode the whole line, its words and its close together.
        let moved = stamps.indices.filter { index in
            switch stamps[index].mark {
            case .line(let n): n == line
            case .word(let n, _), .close(let n): wordMode && n == line
            case .end: false
            }
        }
        guard let first = moved.first, let last = moved.last else { return }
        // Never past a neighbour: the stamps stay in time order, as a reader will sort them.
        let lowest = first > 0 ? stamps[first - 1].time + SyncSession.minimumGap : 0
        let highest = last + 1 < stamps.count ? stamps[last + 1].time - SyncSession.minimumGap : Int.max
        let shift = max(lowest - stamps[first].time, min(highest - stamps[last].time, milliseconds))
        guard shift != 0 else {
            post("line \(line + 1) cannot move further that way", at: now)
            return
        }
        for index in moved { stamps[index].time += shift }
        revision += 1
        post("line \(line + 1) at \(SyncSession.clock(stamps[first].time))", at: now)
    }

    private mutating func move(to seconds: Double, at now: Double) -> [AudioCommand] {
        var target = max(0, seconds)
        if let audioDuration { target = min(target, audioDuration) }
        return audioClock.move(to: target, at: now)
    }

    // MARK: - Text

    /// `m:ss.xx` for milliseconds, as LRC writes a stamp.
    public static func clock(_ milliseconds: Int) -> String {
        let centiseconds = (max(0, milliseconds) + 5) / 10
        let seconds = centiseconds / 100 % 60, minutes = centiseconds / 6000
        let hundredths = centiseconds % 100
        return "\(minutes):\(seconds < 10 ? "0" : "")\(seconds).\(hundredths < 10 ? "0" : "")\(hundredths)"
    }

    /// `0.75×` or `1×`.
    static func speedText(_ speed: Double) -> String {
        let hundredths = Int((speed * 100).rounded())
        if hundredths % 100 == 0 { return "\(hundredths / 100)×" }
        return hundredths % 10 == 0 ? "0.\(hundredths / 10)×" : "0.\(hundredths)×"
    }
}
