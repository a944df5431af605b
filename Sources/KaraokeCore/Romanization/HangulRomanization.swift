/// Korean in Latin letters by the Revised Romanization of Korean (DESIGN §29): each Hangul syllable split
/// into its initial consonant, vowel and final consonant, and the sound changes the system writes applied
/// where a final meets the next initial inside a word: a final carried over to a following vowel, nasal
/// assimilation (백마 baengma), ㄴ and ㄹ together as ll (신라 silla), ㄹ after another consonant as n (종로
/// jongno), palatalisation (같이 gachi) and aspiration with ㅎ (좋고 joko). Tensing is not written (압구정
/// apgujeong), and ㅢ is always ui. What needs a dictionary is not attempted: the ㄴ inserted in compounds
/// (학여울 Hangnyeoul), ㄹ read as n in some words (신문로 Sinmunno), and nouns that keep ㅎ after ㄱ, ㄷ, ㅂ
/// (묵호 Mukho is written muko, as the verb 잡혀 japyeo is).
///
/// Words are what spaces and punctuation separate: nothing carries across them. Text that is not a Hangul
/// syllable is kept as it is; no capitals are added.
public enum HangulRomanization {
    /// `text` with every run of Hangul syllables romanized.
    public static func romanize(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        var word: [Syllable] = []
        for scalar in text.unicodeScalars {
            if let syllable = Syllable(scalar) {
                word.append(syllable)
                continue
            }
            if !word.isEmpty {
                append(word, to: &result)
                word.removeAll(keepingCapacity: true)
            }
            result.unicodeScalars.append(scalar)
        }
        append(word, to: &result)
        return result
    }

    /// Whether `text` has a Hangul syllable in it.
    public static func containsHangul(_ text: String) -> Bool {
        text.unicodeScalars.contains { Syllable($0) != nil }
    }

    /// One precomposed syllable (U+AC00…U+D7A3) as its three parts' indices in Unicode's order.
    struct Syllable {
        /// 0…18: ㄱ ㄲ ㄴ ㄷ ㄸ ㄹ ㅁ ㅂ ㅃ ㅅ ㅆ ㅇ ㅈ ㅉ ㅊ ㅋ ㅌ ㅍ ㅎ.
        var initial: Int
        /// 0…20: ㅏ ㅐ ㅑ ㅒ ㅓ ㅔ ㅕ ㅖ ㅗ ㅘ ㅙ ㅚ ㅛ ㅜ ㅝ ㅞ ㅟ ㅠ ㅡ ㅢ ㅣ.
        var vowel: Int
        /// 0…27: none, ㄱ ㄲ ㄳ ㄴ ㄵ ㄶ ㄷ ㄹ ㄺ ㄻ ㄼ ㄽ ㄾ ㄿ ㅀ ㅁ ㅂ ㅄ ㅅ ㅆ ㅇ ㅈ ㅊ ㅋ ㅌ ㅍ ㅎ.
        var final: Int

        init?(_ scalar: Unicode.Scalar) {
            guard (0xAC00...0xD7A3).contains(scalar.value) else { return nil }
            let index = Int(scalar.value) - 0xAC00
            initial = index / 588
            vowel = index % 588 / 28
            final = index % 28
        }
    }

    private static let initials = [
        "g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h",
    ]
    private static let vowels = [
        "a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu",
        "eu", "ui", "i",
    ]

    // Initials by their names (ㅇ, ㅎ, ㄴ, ㅁ, ㄹ, ㄱ, ㄷ, ㅈ) and the vowel ㅣ, for the rules below.
    private static let silentInitial = 11, hieutInitial = 18, nieunInitial = 2, mieumInitial = 6, rieulInitial = 5
    private static let giyeokInitial = 0, digeutInitial = 3, jieutInitial = 12
    private static let iVowel = 20

    /// What a final sounds like before a consonant or at a word's end: the seven closing sounds.
    private static let closing = [
        "", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t", "ng",
        "t", "t", "k", "t", "p", "t",
    ]

    /// Each final's closing sound as a group, for assimilation: k, t or p, or none of them.
    private enum Stop { case k, t, p, none }
    private static func stop(_ final: Int) -> Stop {
        switch closing[final] {
        case "k": .k
        case "t": .t
        case "p": .p
        default: .none
        }
    }

    /// A final carried over to a following vowel: what stays as the final, and what becomes the initial.
    /// Double finals keep their first consonant and carry the second; ㅎ is not heard before a vowel.
    private static let carried: [(stays: String, moves: String)] = [
        ("", ""), ("", "g"), ("", "kk"), ("k", "s"), ("", "n"), ("n", "j"), ("", "n"), ("", "d"), ("", "r"),
        ("l", "g"), ("l", "m"), ("l", "b"), ("l", "s"), ("l", "t"), ("l", "p"), ("", "r"), ("", "m"), ("", "b"),
        ("p", "s"), ("", "s"), ("", "ss"), ("ng", ""), ("", "j"), ("", "ch"), ("", "k"), ("", "t"), ("", "p"),
        ("", ""),
    ]

    /// Appends one word's romanization.
    private static func append(_ word: [Syllable], to result: inout String) {
        var initial = word.first.map { initials[$0.initial] } ?? ""
        for (index, syllable) in word.enumerated() {
            result += initial
            result += vowels[syllable.vowel]
            if index + 1 < word.count {
                let (final, next) = meeting(syllable.final, word[index + 1])
                result += final
                initial = next
            } else {
                result += closing[syllable.final]
            }
        }
    }

    /// What a final and the next syllable's initial are written as where they meet.
    private static func meeting(_ final: Int, _ next: Syllable) -> (final: String, initial: String) {
        let initial = initials[next.initial]
        guard final != 0 else { return ("", initial) }
        let beforeI = next.vowel == iVowel
        switch next.initial {
        case silentInitial:
            // Carried over to the vowel; ㄷ and ㅌ before 이 become j and ch.
            let carry = carried[final]
            if beforeI, carry.moves == "d" { return (carry.stays, "j") }
            if beforeI, carry.moves == "t" { return (carry.stays, "ch") }
            return (carry.stays, carry.moves)
        case hieutInitial:
            // ㅎ makes the stop before it aspirated: ㄱ+ㅎ k, ㄷ+ㅎ t (ch before 이), ㅂ+ㅎ p, ㅈ+ㅎ ch.
            switch final {
            case 1, 2, 24: return ("", "k")
            case 9: return ("l", "k")
            case 7, 25, 19, 20: return ("", beforeI ? "ch" : "t")
            case 22, 23: return ("", "ch")
            case 5: return ("n", "ch")
            case 17, 26: return ("", "p")
            case 11: return ("l", "p")
            case 27: return ("", "h")
            default: return (closing[final], "h")
            }
        default:
            break
        }
        // A final ㅎ (alone or after ㄴ, ㄹ) makes the next ㄱ, ㄷ, ㅈ aspirated, and is not heard before ㄴ.
        if final == 27 || final == 6 || final == 15 {
            let stays = final == 27 ? "" : closing[final]
            switch next.initial {
            case giyeokInitial: return (stays, "k")
            case digeutInitial: return (stays, "t")
            case jieutInitial: return (stays, "ch")
            case nieunInitial: return final == 15 ? ("l", "l") : ("n", "n")
            default: break
            }
        }
        switch next.initial {
        case nieunInitial, mieumInitial:
            // Nasal assimilation: k, t, p before ㄴ or ㅁ become ng, n, m; ㄹ before ㄴ is ll.
            switch stop(final) {
            case .k: return ("ng", initial)
            case .t: return ("n", initial)
            case .p: return ("m", initial)
            case .none: return (closing[final], closing[final] == "l" && next.initial == nieunInitial ? "l" : initial)
            }
        case rieulInitial:
            // ㄹ after ㄴ or ㄹ is ll; after any other consonant it is n, and the stop before it nasal.
            switch stop(final) {
            case .k: return ("ng", "n")
            case .t: return ("n", "n")
            case .p: return ("m", "n")
            case .none: return closing[final] == "l" || closing[final] == "n" ? ("l", "l") : (closing[final], "n")
            }
        default:
            return (closing[final], initial)
        }
    }
}
