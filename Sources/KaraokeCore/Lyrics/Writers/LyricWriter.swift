/// Writes a `Song` in a lyric format: the other half of `karaoke convert`.
///
/// Every target is written so that karaoke's own reader gives the song back (times to the target's
/// precision). What a target cannot hold is not lost silently: each kind of loss is one warning, a
/// plain lower-case sentence without a full stop, with a count where one helps.
public enum LyricWriter {
    /// The formats a song can be written in.
    public enum Target: String, CaseIterable, Sendable {
        /// LRC: one stamp a line, translations under the same stamp, no word timing.
        case lrc
        /// Enhanced LRC: LRC with `<mm:ss.xx>` word tags.
        case elrc
        /// SubRip subtitles.
        case srt
        /// WebVTT subtitles, with inline timestamps for word timing and `<v>` for singers.
        case vtt
    }

    /// The text of `song` in `target`, and a warning for each kind of thing the target cannot hold.
    public static func write(_ song: Song, to target: Target) -> (text: String, warnings: [String]) {
        switch target {
        case .lrc: return LRCWriter(song: song, enhanced: false).write()
        case .elrc: return LRCWriter(song: song, enhanced: true).write()
        case .srt: return SubtitleWriter(song: song, kind: .srt).write()
        case .vtt: return SubtitleWriter(song: song, kind: .vtt).write()
        }
    }

    /// Put after a bracket or inside an arrow that a reader would take for markup, so it stays text.
    ///
    /// U+2060 WORD JOINER is invisible, takes no cell, is not a control the readers strip, and is not a
    /// digit, so `[\u{2060}00:12]` no longer reads as a timestamp. The text changes by one invisible
    /// character, which the writers say in a warning.
    static let wordJoiner = "\u{2060}"

    /// `bytes` as text with a word joiner after each byte index in `positions` (ascending), and one in
    /// front of it all when `inFront`: the one way both escaping writers put their joiners in.
    static func insertingWordJoiners(into bytes: [UInt8], after positions: [Int], inFront: Bool = false) -> String {
        let joiner = Array(wordJoiner.utf8)
        var result: [UInt8] = inFront ? joiner : []
        result.reserveCapacity(bytes.count + joiner.count * (positions.count + 1))
        var from = 0
        for position in positions {
            result.append(contentsOf: bytes[from...position])
            result.append(contentsOf: joiner)
            from = position + 1
        }
        result.append(contentsOf: bytes[from...])
        return String(decoding: result, as: UTF8.self)
    }
}

/// What a writer's target could not hold, counted by kind as the writer goes and worded as warnings at
/// the end: one warning a kind that happened, in the order of the kinds' cases.
struct LossTally<Loss: CaseIterable & Hashable> {
    /// How many lines had each kind of loss; a kind that never happened has no entry.
    private var counts: [Loss: Int] = [:]

    /// Counts one more line with `loss`.
    mutating func count(_ loss: Loss) { counts[loss, default: 0] += 1 }

    /// How many lines had `loss`.
    subscript(_ loss: Loss) -> Int { counts[loss] ?? 0 }

    /// The warning `wording` makes of each kind that happened, from its count; a kind it gives nil for is
    /// worded elsewhere.
    func warnings(_ wording: (Loss, Int) -> String?) -> [String] {
        Loss.allCases.compactMap { loss in counts[loss].flatMap { wording(loss, $0) } }
    }
}

/// `1 line` or `3 lines`: a count with its noun, for warnings.
func counted(_ count: Int, _ singular: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? singular : plural ?? singular + "s")"
}

/// The word that agrees with `count`: `one` for 1, else `many` (`has`/`have`, `it`/`them`).
func agreeing(_ count: Int, _ one: String, _ many: String) -> String { count == 1 ? one : many }

/// The names of the metadata fields a song has, in tag order, for a warning that lists what was dropped.
func metadataNames(_ metadata: SongMetadata, including fields: Set<MetadataField>) -> [String] {
    var names: [String] = []
    for field in MetadataField.allCases where fields.contains(field) && field.isSet(in: metadata) {
        names.append(field.name)
    }
    return names
}

/// One field of `SongMetadata`, named as warnings name it.
enum MetadataField: CaseIterable {
    case title, artist, album, author, creator, length, audioFile

    /// The field's name in a warning.
    var name: String {
        switch self {
        case .title: return "title"
        case .artist: return "artist"
        case .album: return "album"
        case .author: return "author"
        case .creator: return "creator (by)"
        case .length: return "length"
        case .audioFile: return "audio file"
        }
    }

    /// Whether the song has a value for the field.
    func isSet(in metadata: SongMetadata) -> Bool {
        switch self {
        case .title: return !(metadata.title ?? "").isEmpty
        case .artist: return !(metadata.artist ?? "").isEmpty
        case .album: return !(metadata.album ?? "").isEmpty
        case .author: return !(metadata.author ?? "").isEmpty
        case .creator: return !(metadata.creator ?? "").isEmpty
        case .length: return metadata.length != nil
        case .audioFile: return !(metadata.audioFile ?? "").isEmpty
        }
    }
}
