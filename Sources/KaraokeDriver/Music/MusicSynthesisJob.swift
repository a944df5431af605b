import Glibc
import KaraokeCore

/// One MIDI song's music being synthesised on a background thread into the cache (DESIGN §18.3): it tells
/// the driver how far it is, when the files exist (so mpv can start on them while they grow) and when they
/// are whole and in the cache.
public final class MusicSynthesisJob: Sendable {
    /// What the job hands the driver.
    public enum Message: Sendable, Equatable {
        /// The files are being written at these (temporary) paths; playing them may start.
        case writing(MusicCache.Rendering)
        /// How far the synthesis is, in whole percent.
        case progress(Int)
        /// The music is whole, at these paths in the cache.
        case finished(MusicCache.Rendering)
        /// The music could not be made; the text says why, in the user's words.
        case failed(String)
    }

    private let mailbox: Mailbox<Message>
    private let stopping = PthreadLock(false)
    private let thread = PthreadLock<BackgroundThread?>(nil)

    private init(wake: WakePipe?) {
        mailbox = Mailbox(waking: wake)
    }

    /// Starts synthesising `midi` with `synthesiser` into `cache` under `key`, with the accompaniment when
    /// `melodyChannel` is given; the messages wake `wake`'s poller.
    public static func start(
        midi: [UInt8], synthesiser: MidiSynthesis.Synthesiser, melodyChannel: Int?, cache: MusicCache, key: String,
        wake: WakePipe?
    ) -> MusicSynthesisJob {
        let job = MusicSynthesisJob(wake: wake)
        do {
            let started = try BackgroundThread.start {
                job.run(midi: midi, synthesiser: synthesiser, melodyChannel: melodyChannel, cache: cache, key: key)
            }
            job.thread.withLock { $0 = started }
        } catch {
            job.mailbox.post(.failed("cannot start a thread to synthesise the music"))
        }
        return job
    }

    /// The messages since the last call, oldest first.
    public func take() -> [Message] { mailbox.take() }

    /// Stops the synthesis (its temporary files are removed) and waits for the thread to end.
    public func stop() {
        stopping.withLock { $0 = true }
        let started = thread.withLock { thread in
            defer { thread = nil }
            return thread
        }
        started?.join()
    }

    private func run(
        midi: [UInt8], synthesiser: MidiSynthesis.Synthesiser, melodyChannel: Int?, cache: MusicCache, key: String
    ) {
        guard cache.prepare() else {
            mailbox.post(.failed("cannot make the music's cache folder \(ControlCharacters.strip(cache.folder))"))
            return
        }
        let final = cache.rendering(key, withAccompaniment: melodyChannel != nil)
        guard let whole = cache.temporaryFile(for: final.whole) else {
            mailbox.post(.failed("cannot write the music in \(ControlCharacters.strip(cache.folder))"))
            return
        }
        var other: (fd: Int32, path: String)?
        if let path = final.accompaniment {
            other = cache.temporaryFile(for: path)
            if other == nil {
                close(whole.fd)
                unlink(whole.path)
                mailbox.post(.failed("cannot write the music in \(ControlCharacters.strip(cache.folder))"))
                return
            }
        }
        mailbox.post(.writing(MusicCache.Rendering(whole: whole.path, accompaniment: other?.path)))
        var shown = -1
        let result = MidiSynthesis.render(
            midi: midi, synthesiser: synthesiser, melodyChannel: melodyChannel, whole: whole.fd,
            accompaniment: other?.fd
        ) { fraction in
            let percent = Int(fraction * 100)
            if percent != shown {
                shown = percent
                mailbox.post(.progress(percent))
            }
            return !stopping.withLock { $0 }
        }
        close(whole.fd)
        if let other { close(other.fd) }
        guard case .success = result else {
            unlink(whole.path)
            if let other { unlink(other.path) }
            if case .failure(let failure) = result, !failure.wasCancelled { mailbox.post(.failed(failure.message)) }
            return
        }
        // The accompaniment first: a whole song without its accompaniment is not found, so a reader never
        // takes half a pair.
        if let other, let path = final.accompaniment, rename(other.path, path) != 0 {
            unlink(other.path)
            unlink(whole.path)
            mailbox.post(.failed("cannot keep the music in \(ControlCharacters.strip(cache.folder))"))
            return
        }
        if rename(whole.path, final.whole) != 0 {
            unlink(whole.path)
            mailbox.post(.failed("cannot keep the music in \(ControlCharacters.strip(cache.folder))"))
            return
        }
        cache.trim(keeping: Set([final.whole] + (final.accompaniment.map { [$0] } ?? [])))
        mailbox.post(.finished(final))
    }
}
