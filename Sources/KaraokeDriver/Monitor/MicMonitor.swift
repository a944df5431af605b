import CPulseSimple
import Glibc
import KaraokeCore

/// The microphone played to the speakers while a song plays (`--monitor`, DESIGN §24): a record stream from
/// the source and a playback stream to the sink, both karaoke's own, with a thread that copies one block of
/// 2 ms at a time between them through the level (`MonitorGain`) and the room echo (`RoomEcho`).
///
/// Nothing is loaded into the server: the two streams belong to karaoke's connections, and the server drops
/// them when those close, also when karaoke is killed.
public final class MicMonitor: @unchecked Sendable {
    /// Samples a second: PulseAudio's usual rate, so a server at its default resamples nothing.
    public static let sampleRate = 44_100
    /// Samples per block: 96 (2.2 ms), the most that waits in karaoke between reading and writing.
    public static let blockSamples = 96
    /// The record stream's fragment, in blocks: the server hands over each block as soon as it has it.
    static let fragmentBlocks = 1
    /// The most the record stream keeps for a late reader, in blocks (35 ms); the server drops the oldest past
    /// that, so a thread held up once does not keep the voice late for the rest of the song.
    static let recordLimitBlocks = 16
    /// The playback stream's target fill, in blocks (6.5 ms): what the server keeps queued ahead of the sink.
    static let playbackTargetBlocks = 3
    /// The playback stream starts, and starts again after running dry, once this many blocks are queued.
    static let prebufferBlocks = 1

    /// Why the monitor cannot start, in words for the user.
    public struct Failure: Error, Sendable {
        /// The message, without the `karaoke: ` prefix.
        public var message: String
    }

    /// What the thread reads before each block: whether the monitor is on, and the gain.
    private struct Setting {
        var isOn: Bool
        var gain: Float
    }

    private let record: OpaquePointer
    private let playback: OpaquePointer
    private let setting: PthreadLock<Setting>
    private let stopping = PthreadLock(false)
    /// Why the thread ended on its own (the server went away); nil while it runs or after `stop()`.
    private let ending = PthreadLock<String?>(nil)
    /// The echo, used only by the thread; nil without `--reverb`.
    private var echo: RoomEcho?
    /// The copying thread, until `stop()` has joined it.
    private var thread: BackgroundThread?
    /// The level in percent, for the notices.
    public let percent: Int
    /// Whether the echo is added.
    public let reverb: Bool

    /// Starts copying `source` (nil: the server's default source) to `sink` (nil: its default sink) at
    /// `percent` of its loudness, with the room echo when `reverb`; `isOn` false starts it silent (`e` turns it
    /// on). `server` nil is PULSE_SERVER or the user's server.
    public static func start(
        source: String?, sink: String?, percent: Int, reverb: Bool, isOn: Bool = true, server: String? = nil,
        clientName: String = "karaoke"
    ) throws(Failure) -> MicMonitor {
        if let missing = kk_pulse_load() { throw Failure(message: String(cString: missing)) }
        let block = UInt32(blockSamples * MemoryLayout<Float>.size)
        let unset = UInt32.max
        var error: Int32 = 0
        guard
            let record = kk_pulse_open_stream(
                server, clientName, "monitor: microphone", 1, source, UInt32(sampleRate),
                kk_pulse_buffer(
                    maximum_length: block * UInt32(recordLimitBlocks), target_length: unset, prebuffer: unset,
                    minimum_request: unset, fragment: block * UInt32(fragmentBlocks)), &error)
        else { throw Failure(message: describe(error, device: source, what: "microphone")) }
        guard
            let playback = kk_pulse_open_stream(
                server, clientName, "monitor: speakers", 0, sink, UInt32(sampleRate),
                kk_pulse_buffer(
                    maximum_length: unset, target_length: block * UInt32(playbackTargetBlocks),
                    prebuffer: block * UInt32(prebufferBlocks), minimum_request: block, fragment: unset), &error)
        else {
            kk_pulse_close(record)
            throw Failure(message: describe(error, device: sink, what: "sink"))
        }
        let monitor = MicMonitor(
            record: OpaquePointer(record), playback: OpaquePointer(playback), percent: percent, reverb: reverb,
            isOn: isOn)
        do {
            monitor.thread = try BackgroundThread.start { monitor.copy() }
        } catch {
            throw Failure(message: "cannot start the monitor's thread")
        }
        return monitor
    }

    private init(record: OpaquePointer, playback: OpaquePointer, percent: Int, reverb: Bool, isOn: Bool) {
        self.record = record
        self.playback = playback
        self.percent = percent
        self.reverb = reverb
        setting = PthreadLock(Setting(isOn: isOn, gain: MonitorOptions.gain(percent: percent)))
        echo = reverb ? RoomEcho(sampleRate: Self.sampleRate) : nil
    }

    deinit {
        stop()
        kk_pulse_close(UnsafeMutableRawPointer(record))
        kk_pulse_close(UnsafeMutableRawPointer(playback))
    }

    /// Whether the microphone is heard now.
    public var isOn: Bool { setting.withLock { $0.isOn } }

    /// Turns the monitor on when off and off when on; returns whether it is on now.
    @discardableResult
    public func toggle() -> Bool {
        setting.withLock {
            $0.isOn.toggle()
            return $0.isOn
        }
    }

    /// Why the thread ended on its own (the server went away), the one time it is asked; else nil.
    public func takeFailure() -> String? {
        ending.withLock { failure in
            defer { failure = nil }
            return failure
        }
    }

    /// Stops copying and waits for the thread; the streams close with the monitor. Safe to call again.
    public func stop() {
        stopping.withLock { $0 = true }
        thread?.join()
        thread = nil
    }

    /// The thread's loop: read a block from the microphone, set its level (or silence it while off), add the
    /// echo, write it to the speakers; until stopped or the server goes.
    private func copy() {
        var block = [Float](repeating: 0, count: Self.blockSamples)
        var backlog = MonitorBacklog()
        var error: Int32 = 0
        while !stopping.withLock({ $0 }) {
            let read = block.withUnsafeMutableBytes {
                kk_pulse_read(UnsafeMutableRawPointer(record), $0.baseAddress, $0.count, &error)
            }
            guard read == 0 else { return fail(error) }
            let latency = kk_pulse_latency(UnsafeMutableRawPointer(record), &error)
            if backlog.shouldDrop(latency: latency == UInt64.max ? nil : Double(latency) / 1_000_000) {
                // What waited unread is late already: the voice goes on from now.
                _ = kk_pulse_flush(UnsafeMutableRawPointer(record), &error)
            }
            let now = setting.withLock { $0 }
            block.withUnsafeMutableBufferPointer { samples in
                // Off, silence is still written: the stream stays open and keeps its latency for the next `e`.
                MonitorGain.apply(now.isOn ? now.gain : 0, to: samples)
                echo?.process(samples)
            }
            let written = block.withUnsafeBytes {
                kk_pulse_write(UnsafeMutableRawPointer(playback), $0.baseAddress, $0.count, &error)
            }
            guard written == 0 else { return fail(error) }
        }
    }

    /// Keeps why the thread ends, unless it was asked to.
    private func fail(_ error: Int32) {
        guard !stopping.withLock({ $0 }) else { return }
        let reason = String(cString: kk_pulse_error_text(error))
        ending.withLock { $0 = "the monitor stopped: \(reason)" }
    }

    /// The name of the server's default sink (`sink` true) or source, asked with a deadline of a second; nil
    /// when it cannot say. Call after `start`, which loads the library.
    public static func defaultDevice(sink: Bool, server: String? = nil) -> String? {
        var name = [CChar](repeating: 0, count: 512)
        guard kk_pulse_default_device(server, sink ? 1 : 0, &name, name.count, 1000) == 0 else { return nil }
        return String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The user's words for PulseAudio's error `code` on opening `device`, a `what`.
    static func describe(_ code: Int32, device: String?, what: String) -> String {
        let shown =
            device.map { "'\(ControlCharacters.strip($0))'" } ?? "the default \(what == "sink" ? "sink" : "source")"
        switch code {
        case Int32(KK_PA_ERR_CONNECTIONREFUSED), Int32(KK_PA_ERR_INVALIDSERVER), Int32(KK_PA_ERR_TIMEOUT):
            return "no PulseAudio server to play the microphone through"
        case Int32(KK_PA_ERR_NOENTITY):
            return "no \(what) \(shown) (see 'pactl list short \(what == "sink" ? "sinks" : "sources")')"
        default:
            return "cannot open \(shown): \(String(cString: kk_pulse_error_text(code)))"
        }
    }
}
