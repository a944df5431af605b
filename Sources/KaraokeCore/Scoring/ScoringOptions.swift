/// What `play --score` is asked to do (DESIGN §15).
public struct ScoringOptions: Sendable, Equatable {
    /// `--score`: capture the microphone and score the sung notes.
    public var isOn = false
    /// `--mic SOURCE` or `--mic P1=SOURCE`, in order: which PulseAudio source each singer sings into.
    /// Empty: one singer on the default source.
    public var microphones: [Microphone] = []
    /// `--difficulty`.
    public var difficulty = Difficulty.medium
    /// `--mic-delay MS`: how long sound takes from the speakers through the microphone to the detector.
    public var micDelay = 150
    /// `--score-out FILE`: where the JSON summary is written.
    public var output: String?

    /// The delays `--mic-delay` takes, in milliseconds: below 0 too, since a calibration can measure a round
    /// trip a little under 0 where the audio and the microphone are timed by the same server.
    public static let micDelayRange = -1000...2000

    /// Scoring off, the defaults.
    public init() {}

    /// One singer's microphone.
    public struct Microphone: Sendable, Equatable {
        /// The part this microphone sings (`P1` is `.part(0)`); nil for a single singer.
        public var part: Voice?
        /// The PulseAudio source's name; nil is the server's default source.
        public var source: String?

        /// A microphone on `source` for `part`.
        public init(part: Voice?, source: String?) {
            self.part = part
            self.source = source
        }

        /// Reads `SOURCE`, `P1=SOURCE` or `P2=SOURCE` (`P1=` alone is the default source); nil when a part is
        /// named that is not P1…P9.
        public init?(argument: String) {
            let bytes = Array(argument.utf8)
            if bytes.count >= 3, bytes[0] == UInt8(ascii: "P") || bytes[0] == UInt8(ascii: "p"),
                let equals = bytes.firstIndex(of: UInt8(ascii: "=")), equals >= 2,
                bytes[1..<equals].allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            {
                guard let number = Int(String(decoding: bytes[1..<equals], as: UTF8.self)), (1...9).contains(number)
                else { return nil }
                let source = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                self.init(part: .part(number - 1), source: source.isEmpty ? nil : source)
            } else {
                self.init(part: nil, source: argument.isEmpty ? nil : argument)
            }
        }
    }

    /// The singers to score for a song whose track has `parts`: each `--mic` given, or one singer on the default
    /// source. A song without parts has one singer of every line; in a duet a microphone without a part sings P1,
    /// the next P2, and so on.
    public func singers(parts: [Voice]) -> [Microphone] {
        let given = microphones.isEmpty ? [Microphone(part: nil, source: nil)] : microphones
        guard !parts.isEmpty else { return [Microphone(part: nil, source: given[0].source)] }
        var next = 0
        return given.compactMap { microphone in
            if let part = microphone.part { return parts.contains(part) ? microphone : nil }
            defer { next += 1 }
            return next < parts.count ? Microphone(part: parts[next], source: microphone.source) : nil
        }
    }
}
