import Glibc

/// What a singer has changed in the audio: the lead vocal's guide level, the key, the tempo (DESIGN §14.1,
/// §25).
///
/// Pure: it says which mpv filters and speed carry the change; mpv does the signal processing.
public struct SingingSettings: Sendable, Equatable {
    /// The guide levels a vocals level may take, in percent of the centre's amplitude kept.
    public static let vocalsRange = 0...100
    /// The levels `v` steps through, downwards, wrapping to the first.
    public static let vocalsSteps = [100, 50, 0]
    /// The words `--vocals` takes besides a percent: `normal` keeps the centre, `reduced` takes it out.
    public static let vocalsWords = ["normal": 100, "reduced": 0]

    /// The semitones a key change may reach, down and up.
    public static let keyRange = -6...6
    /// The tempo a singer may choose, in percent of the original.
    public static let tempoRange = 50...150
    /// How many percent a tempo key moves the tempo.
    public static let tempoStep = 5

    /// How much of the centre of the mix, where the lead vocal usually sits, is kept: 100 all of it, 0 none
    /// (`v`, `--vocals`), within `vocalsRange`.
    public var vocalsPercent = 100
    /// Semitones up (positive) or down (`<` / `>`, `--key`), within `keyRange`.
    public var key = 0
    /// The tempo in percent of the original (`[` / `]`, `--tempo`), within `tempoRange`.
    public var tempoPercent = 100

    /// Settings that change nothing, unless given.
    public init(vocalsPercent: Int = 100, key: Int = 0, tempoPercent: Int = 100) {
        self.vocalsPercent = vocalsPercent
        self.key = key
        self.tempoPercent = tempoPercent
    }

    /// Seconds of audio a second: the rate mpv's `speed` and the lyric clock both run at.
    public var tempo: Double { Double(tempoPercent) / 100 }

    /// The factor rubberband scales the pitch by: an equal-tempered semitone per step.
    public var pitchScale: Double { exp2(Double(key) / 12) }

    /// mpv's `af` list for these settings, "" when no filter is needed.
    ///
    /// The vocals are the first filter (`vocalsFilter(percent:)`); the key is rubberband's pitch scale, which
    /// keeps the tempo; the tempo is mpv's `speed`, not a filter (see `tempo`).
    public var audioFilters: String {
        var filters: [String] = []
        if let vocals = SingingSettings.vocalsFilter(percent: vocalsPercent) { filters.append(vocals) }
        if key != 0 { filters.append("rubberband=pitch-scale=\(MpvProtocol.number(pitchScale, decimals: 6))") }
        return filters.joined(separator: ",")
    }

    /// The filter that keeps `percent` of the centre's amplitude and all of the side (DESIGN §25); nil at 100.
    ///
    /// With the mid M = (L+R)/2 and the side S = (L−R)/2, the output is L' = p·M + S, R' = p·M − S, which is
    /// L' = a·L − b·R and R' = a·R − b·L with a = (1+p)/2 and b = (1−p)/2: a stereo `pan`. The gains are
    /// multiples of 0.005, written with three decimals by integer arithmetic, so no locale can put a comma in
    /// them (a comma would end the filter in mpv's list).
    ///
    /// At 0 it is today's `pan=mono|c0=c0-c1` instead, the channels' difference: the stereo form there
    /// plays the side in one channel and its inverse in the other, which cancels on a single speaker; the
    /// difference is mono, 6 dB louder than the stereo form's side (nearer the whole mix's loudness, as the
    /// centre is gone) and leaves a mono file unchanged (pan reads its missing second channel as silence).
    public static func vocalsFilter(percent: Int) -> String? {
        let percent = min(vocalsRange.upperBound, max(vocalsRange.lowerBound, percent))
        switch percent {
        case 100: return nil
        case 0: return centreCancellingFilter
        default:
            // a = (100 + P) / 200 and b = (100 − P) / 200, in thousandths: 5 (100 ± P).
            let kept = gain(thousandths: 5 * (100 + percent)), other = gain(thousandths: 5 * (100 - percent))
            return "lavfi=[pan=stereo|c0=\(kept)*c0-\(other)*c1|c1=\(kept)*c1-\(other)*c0]"
        }
    }

    /// `thousandths` / 1000 with three decimals (`0.750`), whatever the locale.
    private static func gain(thousandths: Int) -> String {
        let fraction = thousandths % 1000
        return "\(thousandths / 1000)." + (fraction < 100 ? "0" : "") + (fraction < 10 ? "0" : "") + "\(fraction)"
    }

    /// The filter that takes the centre out, at a vocals level of 0 (see `vocalsFilter(percent:)`).
    public static let centreCancellingFilter = "lavfi=[pan=mono|c0=c0-c1]"

    /// Whether `filter`, one entry of an `af` list, is a vocals filter (`vocalsFilter(percent:)` makes
    /// every pan in the list).
    public static func isVocalsFilter(_ filter: some StringProtocol) -> Bool { filter.hasPrefix("lavfi=[pan=") }

    /// What carries `command` to an mpv whose second audio track is the song without its melody (a MIDI
    /// song's accompaniment, DESIGN §18.4): a filter list with a vocals filter (any level below 100) becomes
    /// the second track and the list without that filter; one without it, the first track and the list.
    /// Every other command is carried as it is.
    public static func withAccompanimentTrack(_ command: AudioCommand) -> [AudioCommand] {
        guard case .setAudioFilters(let list) = command else { return [command] }
        let filters = list.split(separator: ",").map(String.init)
        let others = filters.filter { !isVocalsFilter($0) }
        return [.setAudioTrack(others.count == filters.count ? 1 : 2), .setAudioFilters(others.joined(separator: ","))]
    }

    /// What the status bar shows, such as `key +2  tempo 0.85×  vocals 50 %`; nil when nothing is changed.
    public var statusText: String? {
        var parts: [String] = []
        if key != 0 { parts.append(keyText) }
        if tempoPercent != 100 { parts.append(tempoText) }
        if vocalsPercent != 100 { parts.append("vocals \(vocalsPercent) %") }
        return parts.isEmpty ? nil : parts.joined(separator: "  ")
    }

    /// The key as a notice shows it: `key +2`, `key −1`, `key 0`.
    public var keyText: String { key > 0 ? "key +\(key)" : key < 0 ? "key −\(-key)" : "key 0" }

    /// The tempo as a notice shows it: `tempo 0.85×`.
    public var tempoText: String {
        let hundredths = tempoPercent % 100
        return "tempo \(tempoPercent / 100).\(hundredths < 10 ? "0" : "")\(hundredths)×"
    }

    /// The vocals as a notice shows them: `vocals normal` at 100, else `vocals 50 %`.
    public var vocalsText: String { vocalsPercent == 100 ? "vocals normal" : "vocals \(vocalsPercent) %" }

    /// The vocals moved to the next lower of `vocalsSteps` (from 75, 50; from 30, 0), and from 0 back to 100.
    public mutating func stepVocals() {
        vocalsPercent = SingingSettings.vocalsSteps.first { $0 < vocalsPercent } ?? SingingSettings.vocalsSteps[0]
    }

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
