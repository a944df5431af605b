import CKakasi
import Glibc
import KaraokeCore

/// Japanese in romaji through KAKASI, loaded on the first line it romanizes (DESIGN §29.4).
///
/// `reads` is pure Swift and loads nothing, so `--romanize` of a song without Japanese never opens
/// libkakasi. The romaji are KAKASI's with `-Ja -Ha -Ka -Ea -s` (loose Hepburn: `toukyou`, `ha` for は);
/// readings are kept by text, as a screen's composer is made again for each song and romanizes its lines
/// anew. When libkakasi cannot be loaded the lines get no romanization and `failure` says why, for the
/// command to tell the user once.
public final class KakasiRomanizer: Romanizer, @unchecked Sendable {
    /// The one every screen of the run shares, so its readings and its failure are the run's.
    public static let shared = KakasiRomanizer()

    /// The readings made so far, the loader's message once loading failed, and whether a screen showed it.
    private let state = PthreadLock((readings: [String: String](), failure: String?.none, shown: false))

    /// A romanizer with nothing read yet.
    public init() {}

    /// Why Japanese lines have no romaji (libkakasi is missing), or nil when none failed.
    public var failure: String? { state.withLock { $0.failure } }

    /// `failure` the first time it is asked for once there is one, for a screen's notice; nil after that,
    /// so the run's later songs do not repeat it.
    public func takeNotice() -> String? {
        state.withLock { state in
            guard let failure = state.failure, !state.shown else { return nil }
            state.shown = true
            return failure
        }
    }

    /// Whether `text` holds kana or a CJK ideograph and no Hangul: Korean goes to `HangulRomanizer`, even
    /// with hanja in it.
    public func reads(_ text: String) -> Bool {
        guard !HangulRomanization.containsHangul(text) else { return false }
        return text.unicodeScalars.contains { KakasiRomanizer.isJapanese($0.value) }
    }

    /// `text` in romaji, characters KAKASI is not given kept; nil when libkakasi cannot be loaded.
    public func romanize(_ text: String) -> String? {
        if let known = state.withLock({ $0.readings[text] }) { return known }
        if let message = kk_kakasi_load() {
            let failure = ControlCharacters.strip(String(cString: message))
            state.withLock { $0.failure = failure }
            return nil
        }
        guard !text.utf8.contains(0), let romaji = kk_kakasi_romanize(text) else { return nil }
        defer { kk_kakasi_free(romaji) }
        let reading = String(cString: romaji)
        state.withLock { $0.readings[text] = reading }
        return reading
    }

    /// Hiragana, katakana (with ー), the iteration mark 々 and the CJK ideographs: what KAKASI reads.
    private static func isJapanese(_ value: UInt32) -> Bool {
        switch value {
        case 0x3005, 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF: true
        default: false
        }
    }
}
