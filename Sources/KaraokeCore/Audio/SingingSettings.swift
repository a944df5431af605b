import Glibc

/// What a singer has changed in the audio: the lead vocal turned down, the key, the tempo (DESIGN §14.1).
///
/// Pure: it says which mpv filters and speed carry the change; mpv does the signal processing.
public struct SingingSettings: Sendable, Equatable {
    /// Whether the centre of a stereo mix, where the lead vocal usually sits, is taken out.
    public enum Vocals: String, Sendable, CaseIterable {
        case normal, reduced
    }

    /// The semitones a key change may reach, down and up.
    public static let keyRange = -6...6
    /// The tempo a singer may choose, in percent of the original.
    public static let tempoRange = 50...150
    /// How many percent a tempo key moves the tempo.
    public static let tempoStep = 5

    /// Whether the centre channel is removed (`v`, `--vocals`).
    public var vocals = Vocals.normal
    /// Semitones up (positive) or down (`<` / `>`, `--key`), within `keyRange`.
    public var key = 0
    /// The tempo in percent of the original (`[` / `]`, `--tempo`), within `tempoRange`.
    public var tempoPercent = 100

    /// Settings that change nothing, unless given.
    public init(vocals: Vocals = .normal, key: Int = 0, tempoPercent: Int = 100) {
        self.vocals = vocals
        self.key = key
        self.tempoPercent = tempoPercent
    }

    /// Seconds of audio a second: the rate mpv's `speed` and the lyric clock both run at.
    public var tempo: Double { Double(tempoPercent) / 100 }

    /// The factor rubberband scales the pitch by: an equal-tempered semitone per step.
    public var pitchScale: Double { exp2(Double(key) / 12) }

    /// mpv's `af` list for these settings, "" when no filter is needed.
    ///
    /// The vocals go down by mixing the two channels into their difference (`pan=mono|c0=c0-c1`): what
    /// is equal in both channels (the lead vocal, but also the bass and the kick drum, usually mixed in
    /// the centre) cancels. A mono file has no second channel: lavfi's pan takes it as silent, so the
    /// music plays on unchanged (measured with mpv 0.35). The key is rubberband's pitch scale, which
    /// keeps the tempo; the tempo is mpv's `speed`, not a filter (see `tempo`).
    public var audioFilters: String {
        var filters: [String] = []
        if vocals == .reduced { filters.append(SingingSettings.vocalsFilter) }
        if key != 0 { filters.append("rubberband=pitch-scale=\(MpvProtocol.number(pitchScale, decimals: 6))") }
        return filters.joined(separator: ",")
    }

    /// The filter that takes the centre out (see `audioFilters`).
    public static let vocalsFilter = "lavfi=[pan=mono|c0=c0-c1]"

    /// What carries `command` to an mpv whose second audio track is the song without its melody (a MIDI
    /// song's accompaniment, DESIGN §18.4): a filter list with the centre-cancelling filter becomes the
    /// second track and the list without that filter; one without it, the first track and the list. Every
    /// other command is carried as it is.
    public static func withAccompanimentTrack(_ command: AudioCommand) -> [AudioCommand] {
        guard case .setAudioFilters(let list) = command else { return [command] }
        let filters = list.split(separator: ",").map(String.init)
        let others = filters.filter { $0 != vocalsFilter }
        return [.setAudioTrack(others.count == filters.count ? 1 : 2), .setAudioFilters(others.joined(separator: ","))]
    }

    /// What the status bar shows, such as `key +2  tempo 0.85×  vocals ↓`; nil when nothing is changed.
    public var statusText: String? {
        var parts: [String] = []
        if key != 0 { parts.append(keyText) }
        if tempoPercent != 100 { parts.append(tempoText) }
        if vocals == .reduced { parts.append("vocals ↓") }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }

    /// The key as a notice shows it: `key +2`, `key −1`, `key 0`.
    public var keyText: String { key > 0 ? "key +\(key)" : key < 0 ? "key −\(-key)" : "key 0" }

    /// The tempo as a notice shows it: `tempo 0.85×`.
    public var tempoText: String {
        let hundredths = tempoPercent % 100
        return "tempo \(tempoPercent / 100).\(hundredths < 10 ? "0" : "")\(hundredths)×"
    }

    /// The vocals as a notice shows them.
    public var vocalsText: String { vocals == .reduced ? "vocals reduced" : "vocals normal" }

    /// The key moved by `steps` semitones, held within `keyRange`.
    public mutating func changeKey(by steps: Int) {
        key = min(SingingSettings.keyRange.upperBound, max(SingingSettings.keyRange.lowerBound, key + steps))
    }

    /// The tempo moved by `percent`, held within `tempoRange`.
    public mutating func changeTempo(by percent: Int) {
        tempoPercent = min(
            SingingSettings.tempoRange.upperBound, max(SingingSettings.tempoRange.lowerBound, tempoPercent + percent))
    }
}
