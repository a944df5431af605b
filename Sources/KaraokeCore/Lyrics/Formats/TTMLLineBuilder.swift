/// Builds a song's lines from the elements of a TTML document: `<p>` lines, timed `<span>` words,
/// background vocals, translations, ruby, singers and the head's metadata. Times are collected into a
/// `TTMLTimingModel` and settled when the document has been read (`finish`).
struct TTMLLineBuilder: XMLEventHandler {
    /// Text of a line on its way to segments. Pieces hold no String or array of their own: their text is a
    /// range of `lineBytes`, and a line's pieces are a chain through `pieces` (DESIGN §7.5).
    struct Piece {
        /// The text as read, whitespace not yet collapsed: a range of `lineBytes`; empty for layout.
        var text: Range<Int>
        /// The time node it is sung over, -1 for none (text between words). A ruby base timed by several
        /// readings lists the others in `moreTiming`.
        var node: Int
        /// Whitespace with a line feed between two tags: indentation in a pretty-printed file.
        var isLayout = false
        /// The next piece of its line, -1 after the last.
        var next = -1
    }

    /// Romanization text on its way to a line's reading (DESIGN §29.2).
    struct RomanPiece {
        /// The text as read.
        var text: String
        /// The word's time node when the piece romanizes one word; nil for the whole line's reading.
        var node: Int?
    }

    /// A `<p>` or a background-vocal span, before its times are known.
    struct Draft {
        /// Its own timing node, when it has one.
        var node: Int?
        /// Whether that node writes a `begin`.
        var writesBegin = false
        /// Without one, the nearest ancestor's, whose interval it takes when it has no timed words.
        var inheritedNode: Int?
        /// Its first and last piece in `pieces`, -1 for none; the chain gives its text in document order.
        var firstPiece = -1
        var lastPiece = -1
        /// Who sings it.
        var voice: Voice?
        /// `itunes:key`, else `xml:id`: what iTunes translations name it by.
        var key: String?
        /// Translations shown under it.
        var translations: [String] = []
        /// Its romanization as read: `x-roman` spans, or the iTunes transliteration of its key.
        var romanPieces: [RomanPiece] = []
        /// Whether the romanization's pieces carry their own spaces (Apple's transliterations do; `x-roman`
        /// spans, one per word, do not).
        var romanCarriesSpaces = false
        /// The file line of its start tag.
        var sourceLine: Int
        /// For background vocals, the paragraph they are in.
        var parent: Int?
        /// For a paragraph, its background-vocal drafts.
        var backgrounds: [Int] = []
        /// Whether its end tag was read (broken XML can cut a line off).
        var isComplete = false
        /// The last piece that is not layout: text only joins a timed piece that no words follow.
        var lastContent = -1
    }

    /// What the characters inside an element are.
    enum TextRole {
        /// Not shown: styling, readings, transliterations, text outside paragraphs.
        case ignored
        /// A line's text.
        case line
        /// `ttm:title`.
        case title
        /// An iTunes `<songwriter>`.
        case songwriter
        /// An `x-translation` span of the line.
        case lineTranslation
        /// An iTunes `<text for="…">` translation.
        case keyedTranslation
        /// The background-vocal span inside an iTunes translation.
        case keyedBackgroundTranslation
        /// An `x-roman` span of the line or of one of its words.
        case lineRomanization
        /// An iTunes `<text for="…">` transliteration.
        case keyedRomanization
    }

    /// One open element and what it passes down to its children.
    struct OpenElement {
        /// The element's local name (`br` for `tt:br`).
        var name: TTMLElementName
        /// What its characters are.
        var role: TextRole
        /// The nearest timed element, itself included.
        var node: Int?
        /// The line its text goes to.
        var draft: Int?
        /// The piece the innermost timed span in effect writes to.
        var piece: Int?
        /// The piece of the ruby container in effect, and whether this element holds its base text.
        var ruby: Int?
        var isRubyBase = false
        /// The nearest `ttm:agent`, itself included: an index of `agentValues`.
        var agent: Int?
        /// Whether it is inside `<head>`.
        var inHead = false
        /// Whether it is inside an iTunes `<translations>`.
        var inTranslations = false
        /// Whether it is inside an iTunes `<transliterations>`.
        var inTransliterations = false
        /// Whether it is a `seq` time container: its children follow one another.
        var isSequence = false
    }

    /// The file's name in messages.
    let file: String
    /// The warnings so far.
    var log: DiagnosticLog
    /// Title, artist, album, author.
    var metadata = SongMetadata()
    /// The file's frame and tick rates.
    var times = TTMLTimeReader()
    /// Every timing attribute, settled at the end.
    var timing = TTMLTimingModel()
    /// Lines in document order; background vocals after their paragraph.
    var drafts: [Draft] = []
    /// Every line's pieces, in the order they were made.
    var pieces: [Piece] = []
    /// The text of every piece, one after another (a piece whose text grows after another's moves to the end).
    var lineBytes: [UInt8] = []
    /// The further time nodes of ruby bases timed by several readings, by piece.
    var moreTiming: [Int: [Int]] = [:]
    /// A line's text on its way to segments (`build`): its stretches' raw text, where each starts, and
    /// when each is sung; the text collapsed, and where each stretch's part of it ends. Kept between lines
    /// for their memory.
    var rawLine: [UInt8] = []
    var stretchStarts: [Int] = []
    var stretchTimes: [StretchTime] = []
    var collapsedLine: [UInt8] = []
    var textEnds: [Int] = []
    /// The lines built so far, and what settling each needs (`finish`).
    var builtLines: [LyricLine] = []
    var builtSettling: [Settling] = []
    /// The open elements.
    var stack: [OpenElement] = []
    /// Characters since the last tag, as UTF-8 (the parser may hand one text over in several calls).
    var text: [UInt8] = []
    /// Whether the file is Apple Music's or AMLL's dialect (it names `itunes:` or `amll:` attributes or
    /// elements), whose word spans carry their own spaces.
    var isLyricsDialect = false
    /// AMLL's `artists` tags.
    var artists: [String] = []
    /// iTunes songwriters.
    var songwriters: [String] = []
    /// AMLL's `musicName`, the title when there is no `ttm:title`.
    var fallbackTitle: String?
    /// The voice of each agent id.
    var agents: [String: Voice] = [:]
    /// The `ttm:agent` values read, which open elements point to (an index keeps `OpenElement` free of Strings).
    var agentValues: [String] = []
    /// How many parts have been given out.
    var personCount = 0
    /// iTunes translations by line key: the main text and the background vocals' text of each.
    var keyedTranslations: [String: [(main: String, background: String)]] = [:]
    /// The `for` of the iTunes translation being read.
    var translationKey: String?
    /// Its text, and its background-vocal part.
    var translationMain = "", translationBackground = ""
    /// The text of the `x-translation` span being read.
    var spanTranslation = ""
    /// iTunes transliterations by line key, their timed spans as pieces.
    var keyedRomanizations: [String: [RomanPiece]] = [:]
    /// The `for` of the iTunes transliteration being read, and its pieces so far.
    var romanizationKey: String?
    var romanizationPieces: [RomanPiece] = []

    /// A builder for the file named `file` in messages.
    init(file: String) {
        self.file = file
        log = DiagnosticLog(file: file)
    }

    /// The role of the innermost open element, read in place.
    var topRole: TextRole? { stack.isEmpty ? nil : stack[stack.count - 1].role }

    // MARK: Elements

    /// Opens an element: reads its attributes and decides what its text is.
    mutating func startElement(_ tag: XMLStartTag) {
        flushText()
        if !isLyricsDialect { isLyricsDialect = Self.isDialect(tag) }
        let name = TTMLElementName(tag.localName)
        var frame = stack.last ?? OpenElement(name: .other, role: .ignored)
        frame.name = name
        let attribute = TTMLAttributes(tag)
        switch name {
        case .tt where stack.isEmpty:
            times.readParameters(attribute)
            // The document's language gives its lines their base direction (DESIGN §3.5).
            metadata.language = attribute.language.map(ControlCharacters.strip).flatMap { $0.isEmpty ? nil : $0 }
        case .head:
            frame.inHead = true
            frame.role = .ignored
        case .body:
            frame.inHead = false
        default:
            break
        }
        if let agent = attribute.agent {
            agentValues.append(agent)
            frame.agent = agentValues.count - 1
        }
        if frame.inHead {
            startHeadElement(name, attribute, &frame, line: tag.line)
        } else {
            startBodyElement(name, attribute, &frame, line: tag.line)
        }
        stack.append(frame)
    }

    /// Whether the tag or one of its attributes is in Apple Music's or AMLL's namespace, by the prefixes
    /// their files use.
    static func isDialect(_ tag: XMLStartTag) -> Bool {
        func isDialectPrefix(_ prefix: UnsafePointer<UInt8>?) -> Bool {
            guard let prefix else { return false }
            return XMLStartTag.name(prefix, is: "itunes") || XMLStartTag.name(prefix, is: "amll")
        }
        var found = isDialectPrefix(tag.prefix)
        tag.forEachAttribute { prefix, _, _ in found = found || isDialectPrefix(prefix) }
        return found
    }

    /// Closes an element: files a translation, completes a line.
    mutating func endElement() {
        guard !stack.isEmpty else { return }
        flushText()
        let frame = stack.removeLast()
        switch frame.role {
        case .lineTranslation where topRole != .lineTranslation:
            if let draft = frame.draft {
                let translation = collapsed(spanTranslation)
                if !translation.isEmpty { drafts[draft].translations.append(translation) }
            }
            spanTranslation = ""
        case .keyedTranslation where frame.name == .text:
            if let key = translationKey {
                keyedTranslations[key, default: []].append(
                    (collapsed(translationMain), collapsed(translationBackground)))
            }
            translationKey = nil
        case .keyedRomanization where frame.name == .text:
            if let key = romanizationKey, keyedRomanizations[key] == nil {
                keyedRomanizations[key] = romanizationPieces
            }
            romanizationKey = nil
            romanizationPieces = []
        default:
            break
        }
        if let draft = frame.draft, stack.isEmpty || stack[stack.count - 1].draft != draft {
            drafts[draft].isComplete = true
        }
    }

    /// Keeps characters until the next tag; those of an element whose text is not shown are dropped at once.
    mutating func characters(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let role = topRole, role != .ignored else { return }
        text.append(contentsOf: utf8)
    }

    /// Warns about the XML error that stopped the reader; the complete lines before it are kept.
    mutating func malformed(code: Int, line: Int, column: Int) {
        log.warn(
            line: line, column: column,
            "malformed XML (\(XMLEventReader.describe(errorCode: code))); the lines before it are kept")
    }

    /// Metadata: the title, the singers, the iTunes translations, AMLL's song tags.
    mutating func startHeadElement(
        _ name: TTMLElementName, _ attribute: TTMLAttributes, _ frame: inout OpenElement, line: Int
    ) {
        switch name {
        case .title where frame.role == .ignored && stack.last?.name == .metadata:
            frame.role = .title
        case .agent:
            if let id = attribute.id, agents[id] == nil {
                agents[id] = attribute.type == "group" ? .together : nextPart()
            }
        case .songwriter:
            frame.role = .songwriter
        case .meta:
            guard let key = attribute.key, let value = attribute.value.map(ControlCharacters.strip),
                !value.isEmpty
            else { break }
            switch key {
            case "musicName": if fallbackTitle == nil { fallbackTitle = value }
            case "artists": artists.append(value)
            case "album": if metadata.album == nil { metadata.album = value }
            default: break
            }
        case .translations:
            frame.inTranslations = true
        case .transliterations:
            frame.inTranslations = false
            frame.inTransliterations = true
            frame.role = .ignored
        case .text where frame.inTransliterations:
            romanizationKey = attribute.forKey
            romanizationPieces = []
            frame.node = nil
            frame.role = .keyedRomanization
        case .span where frame.role == .keyedRomanization:
            // The background vocals' reading is not shown; a timed span is a word's (DESIGN §29.2).
            if attribute.role == "x-bg" {
                frame.role = .ignored
            } else if let node = timeNode(attribute, parent: nil, parentIsSequence: false, line: line),
                timing.nodes[node].isTimed
            {
                frame.node = node
            }
        case .text where frame.inTranslations:
            translationKey = attribute.forKey
            translationMain = ""
            translationBackground = ""
            frame.role = .keyedTranslation
        case .span where frame.role == .keyedTranslation || frame.role == .keyedBackgroundTranslation:
            if attribute.role == "x-bg" { frame.role = .keyedBackgroundTranslation }
        default:
            if frame.role == .title { frame.role = .ignored }
        }
    }

    /// Lines: paragraphs, word spans, background vocals, translations and ruby.
    mutating func startBodyElement(
        _ name: TTMLElementName, _ attribute: TTMLAttributes, _ frame: inout OpenElement, line: Int
    ) {
        let parentIsSequence = !stack.isEmpty && stack[stack.count - 1].isSequence
        frame.isSequence = false
        if let node = timeNode(attribute, parent: frame.node, parentIsSequence: parentIsSequence, line: line) {
            frame.node = node
            frame.isSequence = timing.nodes[node].isSequence
        }
        let ownNode = frame.node != (stack.isEmpty ? nil : stack[stack.count - 1].node) ? frame.node : nil
        // Whatever is timed inside a ruby container times its base (the readings carry the times).
        if let ruby = frame.ruby, let ownNode, timing.nodes[ownNode].isTimed, frame.draft != nil {
            if pieces[ruby].node < 0 {
                pieces[ruby].node = ownNode
            } else {
                moreTiming[ruby, default: []].append(ownNode)
            }
        }
        switch name {
        case .p where frame.draft == nil:
            drafts.append(
                Draft(
                    node: ownNode, writesBegin: writesBegin(ownNode), inheritedNode: ownNode == nil ? frame.node : nil,
                    voice: voice(for: frame.agent.map { agentValues[$0] }), key: attribute.key ?? attribute.id,
                    sourceLine: line))
            frame.draft = drafts.count - 1
            frame.role = .line
            frame.piece = nil
            frame.ruby = nil
        case .br where frame.role == .line:
            appendText([0x20], to: frame)
        case .metadata, .set, .style, .layout, .region:
            frame.role = .ignored
        case .span where frame.role == .line || frame.role == .lineTranslation:
            startSpan(attribute, ownNode, &frame, line: line)
        default:
            break
        }
    }

    /// A span: background vocals, a translation, ruby, or a timed word.
    mutating func startSpan(_ attribute: TTMLAttributes, _ ownNode: Int?, _ frame: inout OpenElement, line: Int) {
        guard frame.role == .line, let draft = frame.draft else { return }
        // Most spans are words, without a role.
        let role = attribute.role
        if role == "x-bg" {
            let singer = attribute.agent != nil ? voice(for: attribute.agent) : drafts[draft].voice
            drafts.append(
                Draft(
                    node: ownNode, writesBegin: writesBegin(ownNode), inheritedNode: ownNode == nil ? frame.node : nil,
                    voice: singer, sourceLine: line, parent: draft))
            drafts[draft].backgrounds.append(drafts.count - 1)
            frame.draft = drafts.count - 1
            frame.piece = nil
            frame.ruby = nil
            return
        }
        if role == "x-translation" {
            frame.role = .lineTranslation
            return
        }
        if let role, role.hasPrefix("x-roman") {
            // The line's reading; inside a timed word, or timed itself, that word's (DESIGN §29.2).
            let lineNodes = [drafts[draft].node, drafts[draft].inheritedNode]
            let node = frame.node.flatMap { timing.nodes[$0].isTimed && !lineNodes.contains($0) ? $0 : nil }
            drafts[draft].romanPieces.append(RomanPiece(text: "", node: node))
            frame.role = .lineRomanization
            return
        }
        if let role, role.hasPrefix("x-translit") {
            frame.role = .ignored
            return
        }
        switch attribute.ruby {
        case "container":
            frame.ruby = appendPiece(Piece(text: lineBytes.count..<lineBytes.count, node: ownNode ?? -1), to: draft)
            frame.isRubyBase = false
            return
        case "base", "baseContainer":
            frame.isRubyBase = true
            return
        case "text", "textContainer", "delimiter":
            // The reading is not shown.
            frame.isRubyBase = false
            frame.role = .ignored
            return
        default:
            break
        }
        guard frame.ruby == nil, let ownNode, timing.nodes[ownNode].isTimed else { return }
        frame.piece = appendPiece(Piece(text: lineBytes.count..<lineBytes.count, node: ownNode), to: draft)
    }

    /// Adds a piece at the end of a line; returns its index in `pieces`.
    mutating func appendPiece(_ piece: Piece, to draft: Int) -> Int {
        let index = pieces.count
        pieces.append(piece)
        if drafts[draft].lastPiece >= 0 {
            pieces[drafts[draft].lastPiece].next = index
        } else {
            drafts[draft].firstPiece = index
        }
        drafts[draft].lastPiece = index
        if !piece.isLayout { drafts[draft].lastContent = index }
        return index
    }

    /// A timing node for an element with `begin`, `end`, `dur` or `timeContainer`, or in a `seq`
    /// container; nil for any other (it takes its parent's timing).
    mutating func timeNode(_ attribute: TTMLAttributes, parent: Int?, parentIsSequence: Bool, line: Int) -> Int? {
        let begin = attribute.begin, end = attribute.end, duration = attribute.duration
        let container = attribute.timeContainer
        let givesTime = begin != nil || end != nil || duration != nil
        guard givesTime || container != nil || parentIsSequence else { return nil }
        var node = TTMLTimingModel.Node(parent: parent)
        node.begin = begin.flatMap { readTime($0, "begin", line: line) }
        node.end = end.flatMap { readTime($0, "end", line: line) }
        node.duration = duration.flatMap { readTime($0, "dur", line: line) }
        node.isSequence = container.map { $0.split(separator: " ") == ["seq"] } ?? false
        node.isTimed = givesTime || parentIsSequence
        timing.nodes.append(node)
        return timing.nodes.count - 1
    }

    /// Whether `node` writes a `begin`: a line's own begin, which words do not replace.
    func writesBegin(_ node: Int?) -> Bool { node.map { timing.nodes[$0].begin != nil } ?? false }

    /// A time attribute's milliseconds, or a warning and nil.
    mutating func readTime(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String, line: Int) -> Int? {
        if let time = times.milliseconds(bytes) { return time }
        log.warn(
            line: line, column: 0,
            "malformed time \(ByteScanner.quoted(bytes, 0..<bytes.count)) in '\(name)'; "
                + "expected '00:01:02.500' or '62.5s'; attribute ignored")
        return nil
    }

    /// The voice of `ttm:agent` ids: a declared person's part, a group's `together`; an id the head
    /// does not declare is a new part; several ids sing together.
    mutating func voice(for agent: String?) -> Voice? {
        guard let agent else { return nil }
        let ids = agent.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard ids.count == 1, let id = ids.first.map(String.init) else { return ids.isEmpty ? nil : .together }
        if let voice = agents[id] { return voice }
        let voice = nextPart()
        agents[id] = voice
        return voice
    }

    /// The next unused part.
    mutating func nextPart() -> Voice {
        personCount += 1
        return .part(personCount - 1)
    }
}
