import Glibc
import KaraokeCore

/// Finds the lyrics of a followed player's track (DESIGN §12): a local file goes through `play`'s search
/// (sidecar, lyric folders, tags, LRCLIB when allowed); a track known only by its names (a stream, MPD
/// without its music folder) is looked for in the lyric folders by artist and title, then on LRCLIB.
enum FollowLyrics {
    /// What to show for a track, the title to show over it, and a notice.
    struct Answer: Sendable {
        var content: LyricsContent
        var title: String
        var notice: String?
    }

    /// Looks `track`'s lyrics up, silently (curses owns the screen: warnings are left out).
    static func find(_ track: FollowedTrack, request: FollowRequest) -> Answer {
        let name = FollowLoop.name(of: track)
        var finder = LyricsFinder.standard
        finder.readTags = { path in
            if case .success(let tags) = TagReader.read(path) { return tags }
            return nil
        }
        let options = request.display.lyrics
        let display = request.display
        if let file = track.file, AudioSource.isRegularFile(file) {
            switch finder.load(audio: file, options: options, maxSize: display.maxSize, encoding: display.encoding) {
            case .success(let found):
                return Answer(content: .timed(shown(found.loaded.song, display)), title: found.loaded.fallbackTitle)
            case .failure(let failure):
                return Answer(content: .message("no lyrics for \(name)"), title: name, notice: failure.message)
            }
        }
        let folders =
            options.folders.isEmpty
            ? LyricsSearch.defaultFolders(environment: finder.environment).filter(AudioSource.isDirectory)
            : options.folders.filter(AudioSource.isDirectory)
        let identity = AudioIdentity(
            path: track.location ?? track.id, artist: track.artist, title: track.title,
            length: track.length.map { Int(($0 * 1000).rounded()) })
        if identity.artist != nil, identity.title != nil, !folders.isEmpty {
            let store = LyricsFolderStore(cacheFolder: LyricsSearch.cacheFolder(environment: finder.environment))
            let indexes = folders.compactMap(store.index(of:))
            if let match = LyricsSearch.bestMatch(in: indexes, for: identity), match.kind != .name {
                let file = indexes[match.folderPosition].folder + "/" + match.entry.status.path
                if case .success(let loaded) = LyricFile.load(file, maxSize: display.maxSize, encoding: display.encoding) {
                    return Answer(content: .timed(shown(loaded.song, display)), title: name)
                }
            }
        }
        if let lrclib = finder.lrclib, identity.artist != nil, identity.title != nil, let supplied = lrclib(identity) {
            return Answer(content: .timed(shown(supplied.song, display)), title: name)
        }
        return Answer(content: .message("no lyrics for \(name)"), title: name)
    }

    /// The song as the display options ask (translations hidden with `--no-translation`).
    private static func shown(_ song: Song, _ display: DisplayRequest) -> Song {
        display.showsTranslations ? song : song.withoutTranslations()
    }
}

/// Looks lyrics up away from the follow loop, so a slow search (a big lyric folder's first index, LRCLIB)
/// never holds up keys or frames: each lookup runs on a thread of its own and posts its answer, waking the
/// loop through the `WakePipe`. Lookups are rare (one a track), so a thread each is simpler than a pool.
final class LyricsWorker: Sendable {
    private let answers = PthreadLock<[(FollowedTrack, FollowLyrics.Answer)]>([])
    private let wake: WakePipe
    private let request: FollowRequest

    /// A worker for `request`'s search options that wakes `wake` when an answer is in.
    init(request: FollowRequest, wake: WakePipe) {
        self.request = request
        self.wake = wake
    }

    /// Starts looking up `track`; the answer comes from `takeAnswers`.
    func lookUp(_ track: FollowedTrack) {
        let job = Unmanaged.passRetained(Job(worker: self, track: track)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread, nil,
            { context in
                let job = Unmanaged<Job>.fromOpaque(context!).takeRetainedValue()
                job.worker.finish(job.track, FollowLyrics.find(job.track, request: job.worker.request))
                return nil
            }, job)
        if started == 0 {
            pthread_detach(thread)
        } else {
            Unmanaged<Job>.fromOpaque(job).release()
            finish(track, FollowLyrics.find(track, request: request))
        }
    }

    /// The answers that came in since the last call.
    func takeAnswers() -> [(FollowedTrack, FollowLyrics.Answer)] {
        answers.withLock { list in
            let taken = list
            list.removeAll()
            return taken
        }
    }

    private func finish(_ track: FollowedTrack, _ answer: FollowLyrics.Answer) {
        answers.withLock { $0.append((track, answer)) }
        wake.post()
    }

    /// One lookup, handed to its thread.
    private final class Job {
        let worker: LyricsWorker
        let track: FollowedTrack
        init(worker: LyricsWorker, track: FollowedTrack) {
            self.worker = worker
            self.track = track
        }
    }
}
