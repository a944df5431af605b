/// Rules L1 and L2 of UAX #9 on one wrapped row, from levels resolved for the whole line (DESIGN §3.5): what
/// FriBidi's line-by-line API (`fribidi_reorder_line`) does, done here so that it is pure and tested alone.
public enum BidiReorder {
    /// A line's levels per grapheme: each grapheme takes its first scalar's.
    public struct Graphemes: Sendable, Equatable {
        /// 0 for a left-to-right paragraph, 1 for a right-to-left one.
        public var paragraphLevel: UInt8
        /// Each grapheme's embedding level.
        public var levels: [UInt8]
        /// Each grapheme's part in rule L1.
        public var spacing: [BidiSpacing]
        /// Each grapheme's mirrored first scalar, shown when its level is odd.
        public var mirrors: [Unicode.Scalar?]
    }

    /// Whether `text` needs an algorithm at all: without a right-to-left letter or digit every level is 0, so
    /// a line of only left-to-right scripts never loads one.
    public static func needsAlgorithm(_ text: String) -> Bool {
        text.unicodeScalars.contains { VisualOrder.isRightToLeftScript($0.value) }
    }

    /// The levels of `characters` from a resolution of their scalars; nil when it does not match them.
    public static func graphemes(_ characters: [Character], resolution: BidiResolution) -> Graphemes? {
        var result = Graphemes(paragraphLevel: resolution.paragraphLevel, levels: [], spacing: [], mirrors: [])
        result.levels.reserveCapacity(characters.count)
        var scalar = 0
        for character in characters {
            guard scalar < resolution.levels.count, scalar < resolution.spacing.count,
                scalar < resolution.mirrors.count
            else { return nil }
            result.levels.append(resolution.levels[scalar])
            result.spacing.append(resolution.spacing[scalar])
            result.mirrors.append(resolution.mirrors[scalar])
            scalar += character.unicodeScalars.count
        }
        guard scalar == resolution.levels.count else { return nil }
        return result
    }

    /// The indices of a row, `levels.indices`, in visual order from the left, each with its level after rule
    /// L1 (odd reads right to left).
    ///
    /// L1: separators, the whitespace before them and the whitespace at the row's end take `paragraphLevel`.
    /// L2: from the highest level down to the lowest odd one, each maximal run at that level or above is
    /// reversed.
    public static func order(
        levels: ArraySlice<UInt8>, spacing: ArraySlice<BidiSpacing>, paragraphLevel: UInt8
    ) -> [(index: Int, level: UInt8)] {
        var entries = levels.indices.map { (index: $0, level: levels[$0]) }
        // L1, from the row's end: whitespace there, and whitespace before a separator, as the separator.
        var resetting = true
        for k in entries.indices.reversed() {
            switch spacing[entries[k].index] {
            case .separator:
                entries[k].level = paragraphLevel
                resetting = true
            case .whitespace:
                if resetting { entries[k].level = paragraphLevel }
            case .other:
                resetting = false
            }
        }
        guard let highest = entries.map(\.level).max(), let lowest = entries.map(\.level).min() else { return [] }
        let lowestOdd = lowest | 1
        guard highest >= lowestOdd else { return entries }
        for level in stride(from: highest, through: lowestOdd, by: -1) {
            var k = 0
            while k < entries.count {
                guard entries[k].level >= level else {
                    k += 1
                    continue
                }
                var end = k
                while end < entries.count && entries[end].level >= level { end += 1 }
                entries[k..<end].reverse()
                k = end
            }
        }
        return entries
    }
}

extension BidiReorder {
    /// Whether anything of `content` that is shown needs a bidi algorithm: a lyric line, a translation, a
    /// romanization, plain lyrics or the title with right-to-left text in it.
    public static func needsAlgorithm(_ content: LyricsContent) -> Bool {
        let metadata: SongMetadata
        var texts: [String] = []
        switch content {
        case .timed(let song):
            metadata = song.metadata
            for line in song.lines {
                texts.append(line.text)
                texts += line.translations
                if let romanization = line.romanization { texts.append(romanization.text) }
            }
        case .plain(let plain):
            metadata = plain.metadata
            texts = plain.lines
        case .message(let text): return needsAlgorithm(text)
        case .graphics(let graphics): metadata = graphics
        }
        texts += [metadata.title, metadata.artist].compactMap(\.self)
        return texts.contains(where: needsAlgorithm)
    }

    /// What `check` says of a file with right-to-left text when the algorithm cannot be loaded: `message` is
    /// the loader's (DESIGN §3.5, §16).
    public static func fallbackWarning(file: String, message: String) -> Diagnostic {
        Diagnostic(
            .warning, file: file, line: 0, column: 0,
            "\(message); karaoke orders them by its simpler rule")
    }
}
