import CPulseSimple
import Glibc
import KaraokeCore

/// Records a PulseAudio source with every hop stamped on the monotonic clock, to find clicks in it: how the
/// tests and `make bench` measure the monitor's latency (DESIGN §24.4). Two recorders on one clock, one on the
/// microphone and one on the speakers' monitor, give `ClickDelay` what it needs.
public final class ClickRecorder: @unchecked Sendable {
    /// Samples a second.
    public static let sampleRate = 44_100
    /// Samples a hop: 64 (1.5 ms), so a click's time is read to about a millisecond.
    public static let hopSamples = 64

    private let connection: OpaquePointer
    private let stopping = PthreadLock(false)
    private let recording = PthreadLock(ClickDelay.Recording(sampleRate: ClickRecorder.sampleRate))
    private var thread: BackgroundThread?

    /// Starts recording `source` on `server` (nil: PULSE_SERVER); throws PulseAudio's words when it cannot.
    public static func start(source: String, server: String? = nil) throws(MicMonitor.Failure) -> ClickRecorder {
        if let missing = kk_pulse_load() { throw MicMonitor.Failure(message: String(cString: missing)) }
        let hop = UInt32(hopSamples * MemoryLayout<Float>.size)
        var error: Int32 = 0
        guard
            let connection = kk_pulse_open_stream(
                server, "karaoke-click-recorder", "clicks", 1, source, UInt32(sampleRate),
                kk_pulse_buffer(
                    maximum_length: UInt32.max, target_length: UInt32.max, prebuffer: UInt32.max,
                    minimum_request: UInt32.max, fragment: hop), &error)
        else { throw MicMonitor.Failure(message: MicMonitor.describe(error, device: source, what: "source")) }
        let recorder = ClickRecorder(connection: OpaquePointer(connection))
        do {
            recorder.thread = try BackgroundThread.start { recorder.listen() }
        } catch {
            throw MicMonitor.Failure(message: "cannot start the recorder's thread")
        }
        return recorder
    }

    private init(connection: OpaquePointer) {
        self.connection = connection
    }

    deinit {
        _ = stop()
        kk_pulse_close(UnsafeMutableRawPointer(connection))
    }

    /// Stops recording (idempotent) and returns everything recorded.
    @discardableResult
    public func stop() -> ClickDelay.Recording {
        stopping.withLock { $0 = true }
        thread?.join()
        thread = nil
        return recording.withLock { $0 }
    }

    /// Drops what was recorded so far, to measure afresh.
    public func clear() {
        recording.withLock { $0.hops.removeAll() }
    }

    private func listen() {
        var samples = [Float](repeating: 0, count: Self.hopSamples)
        var timeline = CaptureTimeline(hopSeconds: Double(Self.hopSamples) / Double(Self.sampleRate), lookBack: 64)
        var error: Int32 = 0
        while !stopping.withLock({ $0 }) {
            let read = samples.withUnsafeMutableBytes {
                kk_pulse_read(UnsafeMutableRawPointer(connection), $0.baseAddress, $0.count, &error)
            }
            let now = monotonicSeconds()
            guard read == 0 else { return }
            let latency = kk_pulse_latency(UnsafeMutableRawPointer(connection), &error)
            let buffered = latency == UInt64.max ? 0 : Double(latency) / 1_000_000
            let end = timeline.hopEnd(readAt: now, buffered: buffered)
            recording.withLock { $0.hops.append((end: end, samples: samples)) }
        }
    }
}
