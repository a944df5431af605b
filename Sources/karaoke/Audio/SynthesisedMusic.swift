import Glibc
import KaraokeCore
import KaraokeDriver

/// A MIDI song's music in `play` (DESIGN §18.3): found in the cache or synthesised on a background thread
/// while mpv already plays it, with the whole song as its first audio track and the song with its melody down as its
/// second, so `v` switches tracks where it would cancel the centre of a recording.
///
/// A source of the driver: `events()` starts mpv as soon as the files exist, turns the synthesis's progress
/// into notices, and hands on mpv's messages. Commands the loop sends before mpv runs are held and
/// sent once it does; the lyrics wait for mpv's first position as for any song.
final class SynthesisedMusic {
    /// The synthesis while it runs; nil when the cache had the music or once it ended.
    private var job: MusicSynthesisJob?
    /// mpv, once the music is being written.
    private(set) var player: MpvPlayer?
    /// The music's files, once they exist.
    private var rendering: MusicCache.Rendering?
    /// What the loop asked of mpv before it ran, in order.
    private var held: [AudioCommand] = []
    /// Whether mpv runs on the growing files and has not yet said a position: it may find their temporary
    /// names gone (DESIGN §18.5).
    private var mayHaveMissedGrowingFiles = false
    /// What the loop asked of that mpv, in order: told again to the mpv that replaces it.
    private var sentBeforePosition: [AudioCommand] = []
    private let mpv: String
    private let request: PlayRequest
    private let wake: WakePipe?
    /// When the synthesis started, for the notice that says how long it took.
    private let startedAt: Double
    /// Whether there is a melody channel, so a second track without it.
    private let hasAccompaniment: Bool
    /// What makes the music: the notices name libsonivox, which sounds plainer than a SoundFont.
    private let synthesiser: MidiSynthesis.Synthesiser

    private init(
        mpv: String, request: PlayRequest, wake: WakePipe?, hasAccompaniment: Bool,
        synthesiser: MidiSynthesis.Synthesiser
    ) {
        self.mpv = mpv
        self.synthesiser = synthesiser
        self.hasAccompaniment = hasAccompaniment
        self.request = request
        self.wake = wake
        startedAt = monotonicSeconds()
    }

    /// Whether `path` names a MIDI file by its extension (`.mid`, `.midi`, `.kar`, any case).
    static func isMidi(_ path: String) -> Bool {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return false }
        return ["mid", "midi", "kar"].contains(name[name.index(after: dot)...].lowercased())
    }

    /// The music of the MIDI file `path` for `request`, with `melodyChannel` (0…15) turned down for `v`;
    /// a failure's message ends with `consequence`, as mpv's do (no mpv, no FluidSynth, no SoundFont and no
    /// libsonivox).
    static func start(
        _ path: String, melodyChannel: Int?, request: PlayRequest, wake: WakePipe?, otherwise consequence: String
    ) -> Result<SynthesisedMusic, MpvPlayer.Failure> {
        // A channel that is none of the sixteen is as none: no second track to switch to.
        let melodyChannel = melodyChannel.flatMap { (0...15).contains($0) ? $0 : nil }
        guard let mpv = MpvPlayer.find() else {
            return .failure(.init(message: "mpv is not installed (not on PATH); \(consequence)"))
        }
        let synthesiser: MidiSynthesis.Synthesiser
        switch MidiSynthesis.synthesiser(given: request.soundfont) {
        case .success(let found): synthesiser = found
        case .failure(let failure): return .failure(.init(message: "\(failure.message); \(consequence)"))
        }
        let midi: [UInt8]
        switch LyricFile.read(path, maxSize: request.display.maxSize) {
        case .success(let bytes): midi = bytes
        case .failure(let failure): return .failure(.init(message: "\(failure.message); \(consequence)"))
        }
        guard let cache = MusicCache.standard() else {
            return .failure(.init(message: "no cache folder for the music (HOME is not set); \(consequence)"))
        }
        let key = MidiSynthesis.cacheKey(midi: midi, synthesiser: synthesiser, melodyChannel: melodyChannel)
        let music = SynthesisedMusic(
            mpv: mpv, request: request, wake: wake, hasAccompaniment: melodyChannel != nil, synthesiser: synthesiser)
        // A hit cleans up too: what an interrupted run left behind goes on the next play, whatever it plays.
        if cache.prepare(), let found = cache.lookup(key, withAccompaniment: melodyChannel != nil) {
            music.rendering = found
            do throws(MpvPlayer.Failure) {
                try music.startPlayer()
            } catch {
                return .failure(.init(message: "\(error.message); \(consequence)"))
            }
        } else {
            music.job = MusicSynthesisJob.start(
                midi: midi, synthesiser: synthesiser, melodyChannel: melodyChannel, cache: cache, key: key,
                wake: wake)
        }
        return .success(music)
    }

    /// The loop's events since the last call: the synthesis's progress, its failure, mpv's messages.
    func events() -> [PlayLoop.Event] {
        // mpv's first: a position it says shows that it plays the growing files it was started on.
        var events = player.map(messages(of:)) ?? []
        for message in job?.take() ?? [] {
            switch message {
            case .writing(let growing):
                // mpv plays the files while they grow (mpv's appending://, which waits at the end of a file
                // for more): the song starts at once, however long it is. Not libsonivox's: it finishes a
                // song in well under a second, before mpv has opened the growing file, whose name is then gone
                // (DESIGN §18.5); mpv waits for the finished files instead.
                guard synthesiser != .sonivox else { break }
                rendering = growing
                do throws(MpvPlayer.Failure) {
                    try startPlayer(prefix: "appending://")
                } catch {
                    job?.stop()
                    job = nil
                    events.append(.audioGone("\(error.message); playing without sound"))
                }
            case .progress(let percent):
                events.append(.notice("synthesising music \(min(percent, 99)) %\(synthesiserTag)"))
            case .finished(let found):
                // mpv goes on reading the file it opened, now under its name in the cache. It took the
                // length from the file's size when it opened it: the whole length is told from the size now.
                job = nil
                rendering = found
                if player == nil { events += startOnFinishedFiles() }
                var info = stat()
                if stat(found.whole, &info) == 0 {
                    let bytes = Double(Int(info.st_size) - WaveFile.headerSize)
                    let length = bytes / Double(4 * MidiSynthesis.sampleRate(of: synthesiser))
                    events.append(.audio(.duration(length), at: monotonicSeconds()))
                }
                let seconds = monotonicSeconds() - startedAt
                events.append(
                    .notice("music synthesised in \(MpvProtocol.number(seconds, decimals: 1)) s\(synthesiserTag)"))
            case .failed(let reason):
                job = nil
                player?.stop()
                player = nil
                events.append(.audioGone("\(reason); playing without sound"))
            }
        }
        return events
    }

    /// `player`'s messages for the loop. mpv started on the growing files may come too late to open them: a
    /// short song renders, and its files are renamed into the cache, before mpv has started (DESIGN §18.5). Its
    /// failure to load them, or its end, before any position, is kept from the loop; it is stopped, and another
    /// mpv plays the files in the cache once the synthesis is finished, told what the first was told. The lyrics
    /// wait for mpv's first position, so they lose nothing.
    private func messages(of player: MpvPlayer) -> [PlayLoop.Event] {
        let messages = player.takeMessages()
        guard mayHaveMissedGrowingFiles else { return messages.map(PlaySession.event) }
        var events: [PlayLoop.Event] = []
        for message in messages {
            switch message {
            case .event(.position, _):
                mayHaveMissedGrowingFiles = false
                sentBeforePosition.removeAll()
            // Failed to load, or quit before karaoke could ask it anything.
            case .event(.failed, _), .gone:
                player.stop()
                self.player = nil
                held = sentBeforePosition + held
                sentBeforePosition.removeAll()
                mayHaveMissedGrowingFiles = false
                // Still synthesising: `finished` starts the next mpv.
                if job == nil { events += startOnFinishedFiles() }
                return events
            default: break
            }
            events.append(PlaySession.event(message))
        }
        return events
    }

    /// Starts mpv on the finished files; the loop's event when it cannot.
    private func startOnFinishedFiles() -> [PlayLoop.Event] {
        do throws(MpvPlayer.Failure) {
            try startPlayer()
            return []
        } catch {
            return [.audioGone("\(error.message); playing without sound")]
        }
    }

    /// What the notices add to say which synthesiser plays: nothing for FluidSynth, the usual one; short, as
    /// the status bar is.
    private var synthesiserTag: String { synthesiser == .sonivox ? " (libsonivox)" : "" }

    /// Carries `command` to mpv, or holds it until mpv runs; the vocals become the accompaniment track.
    func send(_ command: AudioCommand) {
        let commands = hasAccompaniment ? SingingSettings.withAccompanimentTrack(command) : [command]
        guard let player else {
            held += commands
            return
        }
        if mayHaveMissedGrowingFiles { sentBeforePosition += commands }
        for command in commands { player.send(command) }
    }

    /// Stops the synthesis (leaving nothing half written in the cache) and mpv.
    func stop() {
        job?.stop()
        job = nil
        player?.stop()
        player = nil
    }

    /// Starts mpv on the rendering, its paths after `prefix` (mpv's protocol), with the commands held so far.
    private func startPlayer(prefix: String = "") throws(MpvPlayer.Failure) {
        guard let rendering else { return }
        var singing = request.singing
        var options: [String] = []
        if let accompaniment = rendering.accompaniment {
            options.append("audio-file=\(prefix)\(accompaniment)")
            // mpv prefers an external track: the first is chosen by number.
            // Any level below 100 is the melody off: the tracks are the melody on or off (DESIGN §18.4).
            options.append(singing.vocalsPercent < 100 ? "aid=2" : "aid=1")
            // The second track carries the vocals: no centre cancelling.
            singing.vocalsPercent = 100
        }
        let started = try MpvPlayer(
            executable: mpv, audioFile: prefix + rendering.whole, start: request.start, paused: false,
            volume: request.volume, singing: singing, extraOptions: options + request.mpvOptions, wake: wake)
        for command in held { started.send(command) }
        mayHaveMissedGrowingFiles = !prefix.isEmpty
        sentBeforePosition = mayHaveMissedGrowingFiles ? held : []
        held.removeAll()
        player = started
    }
}
