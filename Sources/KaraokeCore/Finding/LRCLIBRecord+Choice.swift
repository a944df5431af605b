/// Which of LRCLIB's answers `fetch` takes (DESIGN §11).
extension LRCLIBRecord {
    /// How many seconds apart the audio and a record may be and still count as the same recording, as
    /// LRCLIB's own `/api/get` matches them.
    public static let durationTolerance = 2.0

    /// What a record offers, best first: timed lyrics, then untimed ones, then an instrumental mark, then
    /// nothing.
    var lyricsRank: Int {
        if isSynced { return 0 }
        if hasPlainLyrics { return 1 }
        return instrumental ? 2 : 3
    }

    /// `records` best first: timed lyrics before untimed, then those within `durationTolerance` of
    /// `duration` (when known), then the closest length; ties keep LRCLIB's order.
    public static func ranked(_ records: [LRCLIBRecord], duration: Double?) -> [LRCLIBRecord] {
        func distance(_ record: LRCLIBRecord) -> Double {
            guard let duration, let other = record.duration else { return .infinity }
            return abs(other - duration)
        }
        func key(_ record: LRCLIBRecord) -> (Int, Int, Double) {
            let gap = distance(record)
            return (record.lyricsRank, gap <= durationTolerance ? 0 : 1, gap)
        }
        return records.enumerated().sorted { a, b in
            let (ka, kb) = (key(a.element), key(b.element))
            if ka != kb { return ka < kb }
            return a.offset < b.offset
        }.map(\.element)
    }
}
