import CAubio
import CPulseSimple
import Glibc
import KaraokeCore
import KaraokeDriver

/// Why the microphone cannot be listened to, in words for the user.
struct MicError: Error, Sendable {
    /// The message, without the `karaoke: ` prefix.
    var message: String
}

/// The microphone through PulseAudio's simple API, analysed by aubio on a thread of its own (DESIGN §15.1).
///
/// The thread reads hops of `hopSize` samples (16 ms), gives each to aubio's YIN detector, which looks at
/// the last `windowSize` samples (32 ms), and posts the results to a mailbox that keeps the last 4 s; the
/// play loop takes them with `drain(into:)` at each wake, and `mic` and `calibrate` are woken by them.
///
/// YIN rather than aubio's yinfft: on this window yinfft reads a clean 110 Hz tone a semitone and a half
/// sharp and gives no confidence at all, where YIN is within a hundredth of a semitone and 0.99 confident.
/// YIN's cost, about 8 million multiply-adds a second here, keeps the thread near 0.25% of a core.
final class MicCapture: @unchecked Sendable {
    /// The capture rate: 16 kHz is plenty for a voice (the highest sung fundamentals are near 1 kHz) and
    /// keeps aubio's work small.
    static let sampleRate = 16_000
    /// Samples per read and per analysis: 256 (16 ms).
    static let hopSize = 256
    /// Samples aubio analyses each hop: 512 (32 ms), long enough for two periods of 62.5 Hz.
    static let windowSize = 512
    /// Analyses a second: 62.5.
    static var framesPerSecond: Double { Double(sampleRate) / Double(hopSize) }
    /// Below this loudness (dBFS) a window is silence: no pitch, whatever aubio says.
    static let silenceLevel = -50.0
    /// Below this confidence (0…1) aubio's pitch is not trusted.
    static let minimumConfidence: Float = 0.7
    /// How many results the mailbox keeps for a taker that has not drained them (about 4 s).
    static let mailboxCapacity = 256

    /// What the thread hands over.
    enum Message: Sendable {
        /// One analysis.
        case heard(MicReading)
        /// The thread ended on its own (the server went away, the source was removed): the user's words.
        case stopped(String)
    }

    /// The thread's results, oldest dropped past `mailboxCapacity`.
    private let mailbox: Mailbox<Message>
    /// Set by `stop()`; the thread ends at its next hop.
    private let stopping = PthreadLock(false)

    /// The PulseAudio connection, used only by the thread once it runs (hence `@unchecked Sendable`).
    private let connection: OpaquePointer
    /// aubio's detector, used only by the thread.
    private var detector = kk_aubio_detector()
    /// The capture thread, until `stop()` has joined it; touched only by the caller's thread.
    private var thread: BackgroundThread?

    /// Opens `source` (nil: the server's default source, else a name such as `mic.monitor`) as `clientName`
    /// and starts listening; every result wakes `wake` (nil: results wait to be drained).
    static func open(source: String?, clientName: String, wake: WakePipe? = nil) throws(MicError) -> MicCapture {
        // A library that will not load: the loader's message, which names the Debian package.
        if let missing = kk_pulse_load() ?? kk_aubio_load() {
            throw MicError(message: String(cString: missing))
        }
        var error: Int32 = 0
        let fragment = UInt32(hopSize * MemoryLayout<Float>.size)
        guard
            let connection = kk_pulse_open_record(nil, clientName, source, UInt32(sampleRate), fragment, &error)
        else {
            throw MicError(message: describe(error, source: source))
        }
        let capture = MicCapture(connection: OpaquePointer(connection), wake: wake)
        guard
            kk_aubio_detector_open(
                &capture.detector, "yin", UInt32(windowSize), UInt32(hopSize), UInt32(sampleRate),
                Float(silenceLevel), 0.15) == 0
        else {
            capture.stop()
            throw MicError(message: "aubio could not make a pitch detector")
        }
        // A thread of its own: it blocks in PulseAudio's read for the whole song.
        do {
            capture.thread = try BackgroundThread.start { capture.listen() }
        } catch {
            capture.stop()
            throw MicError(message: "cannot start the microphone's thread")
        }
        return capture
    }

    /// The name of the server's default source (what `open(source: nil, …)` listens to), asked of the
    /// server with a deadline of a second; nil when it cannot say. Call once the library is loaded (after
    /// `open`).
    static func defaultSource() -> String? {
        var name = [CChar](repeating: 0, count: 512)
        guard kk_pulse_default_source(nil, &name, name.count, 1000) == 0 else { return nil }
        let bytes = name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The capture's format as `mic` names it: `16 kHz mono`.
    static var formatText: String { "\(sampleRate / 1000) kHz mono" }

    /// Opens the microphone as `open` does, or says why on stderr (`karaoke: …`) and gives nil: how `mic`
    /// and `calibrate` begin.
    static func openOrExplain(source: String?, clientName: String, wake: WakePipe) -> MicCapture? {
        do {
            return try open(source: source, clientName: clientName, wake: wake)
        } catch {
            StandardStreams.err("karaoke: \(error.message)")
            return nil
        }
    }

    /// A capture around an open connection (the thread not yet started).
    private init(connection: OpaquePointer, wake: WakePipe?) {
        self.connection = connection
        mailbox = Mailbox(waking: wake, keepingAtMost: Self.mailboxCapacity)
    }

    deinit {
        kk_pulse_close(UnsafeMutableRawPointer(connection))
        kk_aubio_detector_close(&detector)
    }

    /// Moves every result heard since the last call to the end of `frames`; returns why the thread ended on
    /// its own (the server went away), the one time that news is taken, else nil.
    func drain(into frames: inout [MicReading]) -> String? {
        var failure: String?
        for message in mailbox.take() {
            switch message {
            case .heard(let reading): frames.append(reading)
            case .stopped(let reason): failure = reason
            }
        }
        return failure
    }

    /// Stops listening and waits for the thread to end; the connection and the detector are freed with the
    /// capture. Safe to call more than once.
    func stop() {
        stopping.withLock { $0 = true }
        thread?.join()
        thread = nil
    }

    /// The thread's loop: read a hop, analyse it, keep the result, until stopped or the server goes.
    private func listen() {
        var samples = [Float](repeating: 0, count: Self.hopSize)
        // The last window's samples, for its level: aubio keeps its own copy, but does not say how loud it is.
        var window = [Float](repeating: 0, count: Self.windowSize)
        let halfWindow = Double(Self.windowSize) / Double(Self.sampleRate) / 2
        // Stamped read by read, frames came 1 to 32 ms apart; counted from the best recent answer, a hop apart.
        var timeline = CaptureTimeline(hopSeconds: Double(Self.hopSize) / Double(Self.sampleRate), lookBack: 16)
        while !stopping.withLock({ $0 }) {
            var error: Int32 = 0
            let read = samples.withUnsafeMutableBytes {
                kk_pulse_read(UnsafeMutableRawPointer(connection), $0.baseAddress, $0.count, &error)
            }
            let now = monotonicSeconds()
            guard read == 0 else {
                let reason = String(cString: kk_pulse_error_text(error))
                if !stopping.withLock({ $0 }) { mailbox.post(.stopped("the microphone stopped: \(reason)")) }
                return
            }
            let latency = kk_pulse_latency(UnsafeMutableRawPointer(connection), &error)
            // An unknown latency counts as none: the frame is a little late rather than lost.
            let buffered = latency == UInt64.max ? 0 : Double(latency) / 1_000_000
            let hopEnd = timeline.hopEnd(readAt: now, buffered: buffered)
            window.removeFirst(Self.hopSize)
            window.append(contentsOf: samples)
            var confidence: Float = 0
            let pitch = samples.withUnsafeBufferPointer {
                kk_aubio_detector_push(&detector, $0.baseAddress, &confidence)
            }
            let level = Self.level(of: window)
            let heard = MicReading(
                monotonic: hopEnd - halfWindow,
                midi: pitch > 0 && confidence >= Self.minimumConfidence && level >= Self.silenceLevel
                    ? Double(pitch) : nil,
                level: level)
            mailbox.post(.heard(heard))
        }
    }

    /// The RMS level of `samples` in dBFS, floored at -120 (digital silence has no logarithm).
    static func level(of samples: [Float]) -> Double {
        var sum = 0.0
        for sample in samples { sum += Double(sample) * Double(sample) }
        let meanSquare = sum / Double(max(1, samples.count))
        return meanSquare > 1e-12 ? max(-120, 10 * log10(meanSquare)) : -120
    }

    /// The user's words for PulseAudio's error `code` on opening `source`.
    private static func describe(_ code: Int32, source: String?) -> String {
        let shown = source.map { "'\(ControlCharacters.strip($0))'" } ?? "the default source"
        switch code {
        case Int32(KK_PA_ERR_CONNECTIONREFUSED), Int32(KK_PA_ERR_INVALIDSERVER), Int32(KK_PA_ERR_TIMEOUT):
            return "no PulseAudio server to listen through (is PulseAudio or PipeWire's pulse server running? "
                + "PULSE_SERVER names another)"
        case Int32(KK_PA_ERR_NOENTITY):
            return "no microphone \(shown) (see 'pactl list short sources')"
        default:
            return "cannot listen to \(shown): \(String(cString: kk_pulse_error_text(code)))"
        }
    }
}
