import Testing

@testable import KaraokeCore

@Suite("Korean in Latin letters (Revised Romanization)")
struct HangulRomanizationTests {
    /// Examples the Revised Romanization's rules give, most of them the standard's own place names, grouped by
    /// the rule they show. Those that need a dictionary (학여울, 신문로, 묵호) are left out: see the type.
    static let examples: [(hangul: String, latin: String)] = [
        // ㄱ, ㄷ, ㅂ are g, d, b before a vowel and k, t, p before a consonant or at the end.
        ("구미", "gumi"), ("영동", "yeongdong"), ("옥천", "okcheon"), ("합덕", "hapdeok"), ("호법", "hobeop"),
        ("월곶", "wolgot"), ("벚꽃", "beotkkot"), ("한밭", "hanbat"),
        // ㄹ is r before a vowel, l before a consonant or at the end, and ㄹㄹ is ll.
        ("구리", "guri"), ("설악", "seorak"), ("칠곡", "chilgok"), ("임실", "imsil"), ("울릉", "ulleung"),
        ("대관령", "daegwallyeong"),
        // A final carried over to the next vowel.
        ("백암", "baegam"), ("좋아", "joa"), ("없어", "eopseo"), ("읽어", "ilgeo"),
        // Nasal assimilation, and ㄹ after other consonants.
        ("백마", "baengma"), ("종로", "jongno"), ("왕십리", "wangsimni"), ("별내", "byeollae"), ("신라", "silla"),
        ("국물", "gungmul"), ("감사합니다", "gamsahamnida"), ("독립", "dongnip"),
        // Palatalisation.
        ("해돋이", "haedoji"), ("같이", "gachi"), ("굳히다", "guchida"),
        // Aspiration with ㅎ.
        ("좋고", "joko"), ("놓다", "nota"), ("잡혀", "japyeo"), ("낳지", "nachi"),
        // Tensing is not written.
        ("압구정", "apgujeong"), ("낙동강", "nakdonggang"), ("죽변", "jukbyeon"), ("낙성대", "nakseongdae"),
        ("합정", "hapjeong"), ("팔당", "paldang"), ("샛별", "saetbyeol"), ("울산", "ulsan"),
        // Vowels: ㅢ is ui even where it sounds as i.
        ("광희문", "gwanghuimun"), ("부산", "busan"), ("세종", "sejong"), ("안녕하세요", "annyeonghaseyo"),
        ("사랑해", "saranghae"),
    ]

    @Test("each example is written as the Revised Romanization writes it", arguments: examples)
    func example(hangul: String, latin: String) {
        #expect(HangulRomanization.romanize(hangul) == latin)
    }

    @Test("spaces and punctuation separate words: no sound change carries across them, and they are kept")
    func wordsStaySeparate() {
        #expect(HangulRomanization.romanize("백 마") == "baek ma")
        #expect(HangulRomanization.romanize("사랑해, 같이!") == "saranghae, gachi!")
    }

    @Test("text that is not Hangul is kept as it is, and only Hangul syllables count as Hangul")
    func otherText() {
        #expect(HangulRomanization.romanize("Seoul 2026 ♪ ㅋㅋ") == "Seoul 2026 ♪ ㅋㅋ")
        #expect(!HangulRomanization.containsHangul("ㅋㅋ Seoul"))
        #expect(HangulRomanization.containsHangul("Seoul 서울"))
    }

    /// Every syllable Unicode has, alone: something in Latin letters, never the syllable itself.
    @Test("every one of the 11,172 syllables romanizes alone to lower-case Latin letters")
    func everySyllable() {
        for value in UInt32(0xAC00)...0xD7A3 {
            let text = HangulRomanization.romanize(String(Character(Unicode.Scalar(value)!)))
            #expect(!text.isEmpty && text.allSatisfy { $0.isASCII && $0.isLowercase }, "U+\(String(value, radix: 16))")
        }
    }
}
