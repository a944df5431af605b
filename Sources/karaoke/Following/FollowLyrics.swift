import Glibc
import KaraokeCore
import KaraokeDriver

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
        var options = request.display.lyrics
        let display = request.display
        let none = Answer(content: .message(FollowLoop.noLyrics(for: track)), title: name)
        // LRCLIB is asked below, once, with the player's names when the file's tags have none.
        let fetches = options.fetch
        options.fetch = false
        var tags: AudioTags? = nil
        if let file = track.file, AudioSource.isRegularFile(file) {
            switch finder.load(audio: file, options: options, maxSize: display.maxSize, encoding: display.encoding) {
            case .success(let found):
                return Answer(
                    content: found.loaded.shown(showsTranslations: display.showsTranslations),
                    title: found.loaded.fallbackTitle)
            case .failure(let failure) where !failure.isNotFound:
                return Answer(content: none.content, title: name, notice: failure.message)
            case .failure:
                tags = finder.readTags(file)
            }
        } else if let match = folderMatch(for: track, options: options, environment: finder.environment),
            case .success(let loaded) = LyricFile.load(
                match, maxSize: display.maxSize, encoding: display.encoding, acceptsPlain: true)
        {
            return Answer(content: loaded.shown(showsTranslations: display.showsTranslations), title: name)
        }
        guard fetches, let query = query(for: track, tags: tags) else { return none }
        let server = LRCLIBLookup.server(options.server)
        let answer: LRCLIBAnswer
        switch LRCLIBLookup.records(for: query, server: server, cache: LRCLIBCache.standard()) {
        case .success(let records): answer = LRCLIBAnswer(records: records, query: query)
        case .failure(let failure): answer = LRCLIBAnswer(failure: failure.message, query: query)
        }
        // LRCLIB has none either: the hint about MPD's music folder still applies.
        if track.isInUnknownMusicFolder, answer.content == .message(LRCLIBAnswer.noLyrics(query)) { return none }
        var content = answer.content
        if case .timed(let song) = content, !display.showsTranslations { content = .timed(song.withoutTranslations()) }
        return Answer(content: content, title: name, notice: answer.notice)
    }

    /// The lyric folders' file for a track known only by its names: matched by artist and title (or the
    /// `[ar:]`/`[ti:]` tags inside), never by a file name, since there is none.
    private static func folderMatch(
        for track: FollowedTrack, options: LyricsSearchOptions, environment: @escaping (String) -> String?
    ) -> String? {
        guard track.artist != nil, track.title != nil else { return nil }
        let folders =
            options.folders.isEmpty
            ? LyricsSearch.defaultFolders(environment: environment).filter(AudioSource.isDirectory)
            : options.folders.filter(AudioSource.isDirectory)
        guard !folders.isEmpty else { return nil }
        let identity = AudioIdentity(
            path: track.location ?? track.id, artist: track.artist, title: track.title,
            length: track.length.map { Int(($0 * 1000).rounded()) })
        let store = LyricsFolderStore(cacheFolder: LyricsSearch.cacheFolder(environment: environment))
        let indexes = folders.compactMap(store.index(of:))
        guard let match = LyricsSearch.bestMatch(in: indexes, for: identity), match.kind != .name else { return nil }
        return indexes[match.folderPosition].folder + "/" + match.entry.status.path
    }

    /// What to ask LRCLIB: the file's tags when they name the song, else the player's names and length.
    private static func query(for track: FollowedTrack, tags: AudioTags?) -> LRCLIBQuery? {
        if let tags, let file = track.file, let query = LRCLIBQuery(tags: tags, audioPath: file) { return query }
        guard let artist = track.artist, let title = track.title else { return nil }
        return LRCLIBQuery(artist: artist, title: title, album: track.album, duration: track.length)
    }
}

/// Looks lyrics up away from the follow loop, so a slow search (a big lyric folder's first index, LRCLIB)
/// never holds up keys or frames: each lookup runs on a thread of its own and posts its answer to a mailbox
/// that wakes the loop. Lookups are rare (one a track), so a thread each is simpler than a pool.
final class LyricsWorker: Sendable {
    private let answers: Mailbox<(FollowedTrack, FollowLyrics.Answer)>
    private let request: FollowRequest

    /// A worker for `request`'s search options that wakes `wake` when an answer is in.
    init(request: FollowRequest, wake: WakePipe) {
        self.request = request
        answers = Mailbox(waking: wake)
    }

    /// Starts looking up `track`; the answer comes from `takeAnswers`.
    func lookUp(_ track: FollowedTrack) {
        do {
            try BackgroundThread.detach { [self] in answers.post((track, FollowLyrics.find(track, request: request))) }
        } catch {
            // No thread to be had: looked up here, holding the screen up this once rather than never answering.
            answers.post((track, FollowLyrics.find(track, request: request)))
        }
    }

    /// The answers that came in since the last call.
    func takeAnswers() -> [(FollowedTrack, FollowLyrics.Answer)] {
        answers.take()
    }
}
