// TTML is XML, and XML is read with Foundation's parser (libxml2 underneath), not by hand. This file
// is the only one in the core that uses Foundation.
#if canImport(FoundationXML)
import FoundationXML
#endif
import Foundation

/// Reads TTML (Timed Text Markup Language): W3C subtitles and the word-timed lyrics of Apple Music
/// and AMLL.
///
/// Each `<p>` is a line; each timed `<span>` in it a word segment. Background vocals
/// (`ttm:role="x-bg"`) become a line of their own in parentheses; `x-translation` spans and the
/// iTunes `<translations>` block become translations. Singers come from `ttm:agent`.
///
/// Times nested in a timed element count from that element's begin, as TTML defines it. Apple Music
/// and AMLL files ignore that rule and write every time as absolute; a file where most nested begins
/// are not earlier than their parent's is read that way (see `TimeTree.isAbsolute`).
public enum TTMLParser {
    /// Parses the UTF-8 text of a TTML file (without BOM; see `SourceText`). `file` names it in messages.
    public static func parse(_ utf8: [UInt8], file: String) -> ParseResult {
        let reader = TTMLReader(file: file)
        let parser = XMLParser(data: Data(blankingProcessingInstructions(utf8)))
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        _ = parser.parse()
        return reader.finish()
    }

    /// The text with its XML declaration and processing instructions (`<?…?>`) turned into spaces, line
    /// breaks kept, so every line and column stays the same for messages.
    ///
    /// Both trip FoundationXML, and TTML needs neither:
    /// 1. The text is UTF-8 whatever the declaration names, and libxml2 would switch to the encoding it
    ///    names: wrong for a file that said ISO-8859-1, and a crash inside libxml2 for an unknown name
    ///    before a byte that is not UTF-8 (`<?xml version="1.0" encoding="utf08"` then 0xFF). The
    ///    declaration is blanked up to its first `>`, or to the end when it has none.
    /// 2. A processing instruction without data (`<?a?>`) crashes FoundationXML's callback, which reads
    ///    the missing data as a C string. One left open is not touched: libxml2 stops at it with an error.
    /// CDATA sections are skipped, so a `<?` inside one stays text.
    static func blankingProcessingInstructions(_ utf8: [UInt8]) -> [UInt8] {
        let lessThan = UInt8(ascii: "<"), question = UInt8(ascii: "?"), greaterThan = UInt8(ascii: ">")
        var text = utf8
        let count = text.count
        if text.starts(with: "<?xml".utf8) {
            let end = text.firstIndex(of: greaterThan).map { $0 + 1 } ?? count
            blank(0..<end, in: &text)
        }
        let cdata = Array("<![CDATA[".utf8)
        var index = 0
        while index + 1 < count {
            guard text[index] == lessThan else { index += 1; continue }
            if text[index + 1] == question {
                var end = index + 2
                while end + 1 < count && !(text[end] == question && text[end + 1] == greaterThan) { end += 1 }
                guard end + 1 < count else { break }
                blank(index..<end + 2, in: &text)
                index = end + 2
            } else if text[index...].starts(with: cdata) {
                var end = index + cdata.count
                while end + 2 < count
                    && !(text[end] == UInt8(ascii: "]") && text[end + 1] == UInt8(ascii: "]") && text[end + 2] == greaterThan) {
                    end += 1
                }
                index = end + 3
            } else {
                index += 1
            }
        }
        return text
    }

    /// Turns the bytes of `range` into spaces, but for line breaks.
    private static func blank(_ range: Range<Int>, in text: inout [UInt8]) {
        for index in range where text[index] != 0x0A && text[index] != 0x0D { text[index] = 0x20 }
    }
}

/// The timing attributes of the elements that have any, as written, and how they nest.
struct TimeTree {
    /// One element's `begin`, `end` and `dur` in milliseconds, and its nearest timed ancestor.
    struct Node {
        /// The nearest ancestor that has timing attributes.
        var parent: Int?
        /// `begin`, as written.
        var begin: Int?
        /// `end`, as written.
        var end: Int?
        /// `dur`.
        var duration: Int?
    }

    /// The timed elements in document order, so a parent always comes before its children.
    var nodes: [Node] = []

    /// Whether nested times are absolute (Apple Music, AMLL) rather than relative to the parent (TTML).
    ///
    /// Every element with a `begin` inside an ancestor whose `begin` is later than 0 votes: absolute
    /// when its own `begin` is not earlier than the ancestor's. A tie reads the file as TTML says.
    func isAbsolute() -> Bool {
        var beginAncestor = [Int?](repeating: nil, count: nodes.count)
        var votes = 0
        for index in nodes.indices {
            guard let parent = nodes[index].parent else { continue }
            beginAncestor[index] = nodes[parent].begin != nil ? parent : beginAncestor[parent]
            guard let begin = nodes[index].begin, let ancestor = beginAncestor[index],
                  let ancestorBegin = nodes[ancestor].begin, ancestorBegin > 0 else { continue }
            votes += begin >= ancestorBegin ? 1 : -1
        }
        return votes > 0
    }

    /// Every node's absolute begin and end, nil where the file gives none.
    func resolved() -> (begins: [Int?], ends: [Int?]) {
        let absolute = isAbsolute()
        var begins = [Int?](repeating: nil, count: nodes.count)
        var ends = [Int?](repeating: nil, count: nodes.count)
        // What a node's times count from: its parent's begin, or what the parent's count from.
        var bases = [Int](repeating: 0, count: nodes.count)
        for index in nodes.indices {
            let node = nodes[index]
            let base = absolute ? 0 : node.parent.map { begins[$0] ?? bases[$0] } ?? 0
            bases[index] = base
            begins[index] = node.begin.map { clampTime(base + $0) }
            if let end = node.end {
                ends[index] = clampTime(base + end)
            } else if let duration = node.duration {
                ends[index] = clampTime((begins[index] ?? base) + duration)
            }
        }
        return (begins, ends)
    }
}

/// Times beyond 100 hours are clamped: nothing that far is a real time, and sums must not overflow.
private let timeLimit = 360_000_000

/// The time within ±100 hours.
private func clampTime(_ value: Int) -> Int { min(max(value, -timeLimit), timeLimit) }

/// Reads TTML time expressions: clock times and offset times.
struct TTMLTimeReader {
    /// Frames a second (`ttp:frameRate` × `ttp:frameRateMultiplier`), 30 when the file does not say.
    var frameRate = 30.0
    /// Ticks a second (`ttp:tickRate`), 1 when the file does not say.
    var tickRate = 1.0

    /// The time in milliseconds of `hh:mm:ss.fff`, `mm:ss.fff`, `ss.fff`, `hh:mm:ss:ff`, or a number
    /// with a unit (`1.5s`, `150ms`, `2m`, `1h`, `12f`, `10t`); nil when it is neither.
    func milliseconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D })
        var end = bytes.count
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D {
            end -= 1
        }
        guard end > 0, end <= 64 else { return nil }
        let trimmed = bytes[0..<end]
        // An offset time ends in its unit.
        var unitStart = end
        while unitStart > 0, (trimmed[unitStart - 1] | 0x20) >= 97, (trimmed[unitStart - 1] | 0x20) <= 122 { unitStart -= 1 }
        if unitStart < end {
            guard let value = Self.decimal(trimmed[0..<unitStart]) else { return nil }
            let scale: Double
            switch String(decoding: trimmed[unitStart..<end], as: UTF8.self) {
            case "h": scale = 3_600_000
            case "m": scale = 60_000
            case "s": scale = 1000
            case "ms": scale = 1
            case "f": scale = 1000 / frameRate
            case "t": scale = 1000 / tickRate
            default: return nil
            }
            return Self.rounded(value * scale)
        }
        // A clock time: up to four fields split by colons.
        let fields = trimmed.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        guard fields.count <= 4 else { return nil }
        var values: [Double] = []
        for (index, field) in fields.enumerated() {
            // Only the seconds (or the frames) may have a fraction.
            let mayHaveFraction = index == min(fields.count - 1, 2) || index == 3
            guard let value = Self.decimal(field), mayHaveFraction || !field.contains(UInt8(ascii: ".")) else { return nil }
            values.append(value)
        }
        var seconds = 0.0
        switch values.count {
        case 1: seconds = values[0]
        case 2: seconds = values[0] * 60 + values[1]
        default: seconds = values[0] * 3600 + values[1] * 60 + values[2]
        }
        if values.count == 4 { seconds += values[3] / frameRate }
        return Self.rounded(seconds * 1000)
    }

    /// Digits with an optional fraction; nil for anything else (signs included: TTML times are not negative).
    private static func decimal(_ bytes: ArraySlice<UInt8>) -> Double? {
        var value = 0.0, scale = 1.0, digits = 0, inFraction = false
        for byte in bytes {
            if byte >= 48 && byte <= 57 {
                guard digits < 15 else { return nil }
                value = value * 10 + Double(byte - 48)
                if inFraction { scale *= 10 }
                digits += 1
            } else if byte == UInt8(ascii: "."), !inFraction {
                inFraction = true
            } else {
                return nil
            }
        }
        return digits > 0 ? value / scale : nil
    }

    /// Whole milliseconds, within 0…100 hours; nil for a value that is not a number.
    private static func rounded(_ milliseconds: Double) -> Int? {
        guard milliseconds.isFinite else { return nil }
        return Int(min(max(milliseconds, 0), Double(timeLimit)).rounded())
    }
}

/// The SAX side: walks the elements once, keeping lines as drafts whose times are settled at the end.
final class TTMLReader: NSObject, XMLParserDelegate {
    /// Text of a line on its way to segments; `timing` lists the time nodes it is sung over (none for
    /// text between words, several for a ruby base timed by its readings).
    struct Piece {
        /// The text as read, whitespace not yet collapsed.
        var text: String
        /// Time nodes it is sung over.
        var timing: [Int]
        /// Whitespace with a line feed between two tags: indentation in a pretty-printed file.
        var isLayout = false
    }

    /// A `<p>` or a background-vocal span, before its times are known.
    struct Draft {
        /// Its own time node, when it has timing attributes.
        var node: Int?
        /// Its text in document order.
        var pieces: [Piece] = []
        /// Who sings it.
        var voice: Voice?
        /// `itunes:key`, else `xml:id`: what iTunes translations name it by.
        var key: String?
        /// Translations shown under it.
        var translations: [String] = []
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

        /// Adds a piece at the end.
        mutating func append(_ piece: Piece) {
            pieces.append(piece)
            if !piece.isLayout { lastContent = pieces.count - 1 }
        }
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
    }

    /// One open element and what it passes down to its children.
    struct Frame {
        /// The element's local name (`br` for `tt:br`).
        var name: String
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
        /// The nearest `ttm:agent`, itself included.
        var agent: String?
        /// Whether it is inside `<head>`.
        var inHead = false
        /// Whether it is inside an iTunes `<translations>`.
        var inTranslations = false
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
    var tree = TimeTree()
    /// Lines in document order; background vocals after their paragraph.
    var drafts: [Draft] = []
    /// The open elements.
    var stack: [Frame] = []
    /// Characters since the last tag (the parser may hand one text over in several calls).
    var text = ""
    /// Whether the XML broke; nothing after that is read.
    var failed = false
    /// AMLL's `artists` tags.
    var artists: [String] = []
    /// iTunes songwriters.
    var songwriters: [String] = []
    /// AMLL's `musicName`, the title when there is no `ttm:title`.
    var fallbackTitle: String?
    /// The voice of each agent id.
    var agents: [String: Voice] = [:]
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

    /// A reader for the file named `file` in messages.
    init(file: String) {
        self.file = file
        log = DiagnosticLog(file: file)
    }

    // MARK: Elements

    /// Opens an element: reads its attributes and decides what its text is.
    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes: [String: String] = [:]) {
        guard !failed else { return }
        flushText()
        let name = localName(elementName)
        var frame = stack.last ?? Frame(name: "", role: .ignored)
        frame.name = name
        var attribute: [Substring: String] = [:]
        for (key, value) in attributes { attribute[localName(key)] = value }
        switch name {
        case "tt" where stack.isEmpty:
            readParameters(attribute)
        case "head":
            frame.inHead = true
            frame.role = .ignored
        case "body":
            frame.inHead = false
        default:
            break
        }
        if let agent = attribute["agent"] { frame.agent = agent }
        if frame.inHead {
            startHeadElement(name, attribute, &frame)
        } else {
            startBodyElement(name, attribute, &frame, line: parser.lineNumber)
        }
        stack.append(frame)
    }

    /// Closes an element: files a translation, completes a line.
    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        guard !failed, let frame = stack.last else { return }
        flushText()
        stack.removeLast()
        switch frame.role {
        case .lineTranslation where stack.last?.role != .lineTranslation:
            if let draft = frame.draft {
                let translation = collapsed(spanTranslation)
                if !translation.isEmpty { drafts[draft].translations.append(translation) }
            }
            spanTranslation = ""
        case .keyedTranslation where frame.name == "text":
            if let key = translationKey {
                keyedTranslations[key, default: []].append((collapsed(translationMain), collapsed(translationBackground)))
            }
            translationKey = nil
        default:
            break
        }
        if let draft = frame.draft, stack.last?.draft != draft {
            drafts[draft].isComplete = true
        }
    }

    /// Keeps characters until the next tag.
    func parser(_ parser: XMLParser, foundCharacters string: String) {
        guard !failed else { return }
        text += string
    }

    /// Keeps a CDATA section's text like other characters.
    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        guard !failed else { return }
        text += String(decoding: CDATABlock, as: UTF8.self)
    }

    /// Warns about the first XML error and stops; the complete lines before it are kept.
    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard !failed else { return }
        failed = true
        let code = (parseError as NSError).code
        log.warn(line: parser.lineNumber, column: max(parser.columnNumber, 0),
                 "malformed XML (\(Self.describe(xmlError: code))); the lines before it are kept")
        parser.abortParsing()
    }

    /// `ttp:frameRate`, `ttp:frameRateMultiplier` and `ttp:tickRate` on `<tt>`.
    func readParameters(_ attribute: [Substring: String]) {
        if let rate = attribute["frameRate"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), rate > 0, rate < 1000 {
            times.frameRate = rate
        }
        if let multiplier = attribute["frameRateMultiplier"] {
            let parts = multiplier.split(whereSeparator: { $0 == " " || $0 == ":" }).compactMap { Double($0) }
            if parts.count == 2, parts[0] > 0, parts[1] > 0 { times.frameRate *= parts[0] / parts[1] }
        }
        if let rate = attribute["tickRate"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), rate > 0 {
            times.tickRate = rate
        }
    }

    /// Metadata: the title, the singers, the iTunes translations, AMLL's song tags.
    func startHeadElement(_ name: String, _ attribute: [Substring: String], _ frame: inout Frame) {
        switch name {
        case "title" where frame.role == .ignored && stack.last?.name == "metadata":
            frame.role = .title
        case "agent":
            if let id = attribute["id"], agents[id] == nil {
                agents[id] = attribute["type"] == "group" ? .together : nextPart()
            }
        case "songwriter":
            frame.role = .songwriter
        case "meta":
            guard let key = attribute["key"], let value = attribute["value"].map(ControlCharacters.strip), !value.isEmpty else { break }
            switch key {
            case "musicName": if fallbackTitle == nil { fallbackTitle = value }
            case "artists": artists.append(value)
            case "album": if metadata.album == nil { metadata.album = value }
            default: break
            }
        case "translations":
            frame.inTranslations = true
        case "transliterations":
            frame.inTranslations = false
            frame.role = .ignored
        case "text" where frame.inTranslations:
            translationKey = attribute["for"]
            translationMain = ""
            translationBackground = ""
            frame.role = .keyedTranslation
        case "span" where frame.role == .keyedTranslation || frame.role == .keyedBackgroundTranslation:
            if attribute["role"] == "x-bg" { frame.role = .keyedBackgroundTranslation }
        default:
            if frame.role == .title { frame.role = .ignored }
        }
    }

    /// Lines: paragraphs, word spans, background vocals, translations and ruby.
    func startBodyElement(_ name: String, _ attribute: [Substring: String], _ frame: inout Frame, line: Int) {
        if let node = timeNode(attribute, parent: frame.node, line: line) {
            frame.node = node
        }
        let ownNode = frame.node != stack.last?.node ? frame.node : nil
        // Whatever is timed inside a ruby container times its base (the readings carry the times).
        if let ruby = frame.ruby, let ownNode, let draft = frame.draft {
            drafts[draft].pieces[ruby].timing.append(ownNode)
        }
        switch name {
        case "p" where frame.draft == nil:
            drafts.append(Draft(node: ownNode, voice: voice(for: frame.agent),
                                key: attribute["key"] ?? attribute["id"], sourceLine: line))
            frame.draft = drafts.count - 1
            frame.role = .line
            frame.piece = nil
            frame.ruby = nil
        case "br" where frame.role == .line:
            appendText(" ", to: frame)
        case "metadata", "set", "style", "layout", "region":
            frame.role = .ignored
        case "span" where frame.role == .line || frame.role == .lineTranslation:
            startSpan(attribute, ownNode, &frame, line: line)
        default:
            break
        }
    }

    /// A span: background vocals, a translation, ruby, or a timed word.
    func startSpan(_ attribute: [Substring: String], _ ownNode: Int?, _ frame: inout Frame, line: Int) {
        guard frame.role == .line, let draft = frame.draft else { return }
        let role = attribute["role"] ?? ""
        if role == "x-bg" {
            let singer = attribute["agent"] != nil ? voice(for: attribute["agent"]) : drafts[draft].voice
            drafts.append(Draft(node: ownNode, voice: singer, sourceLine: line, parent: draft))
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
        if role.hasPrefix("x-roman") || role.hasPrefix("x-translit") {
            frame.role = .ignored
            return
        }
        switch attribute["ruby"] {
        case "container":
            drafts[draft].append(Piece(text: "", timing: ownNode.map { [$0] } ?? []))
            frame.ruby = drafts[draft].pieces.count - 1
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
        guard frame.ruby == nil, let ownNode, tree.nodes[ownNode].begin != nil else { return }
        drafts[draft].append(Piece(text: "", timing: [ownNode]))
        frame.piece = drafts[draft].pieces.count - 1
    }

    /// A time node for an element with `begin`, `end` or `dur`, or nil for one without.
    func timeNode(_ attribute: [Substring: String], parent: Int?, line: Int) -> Int? {
        let begin = attribute["begin"], end = attribute["end"], duration = attribute["dur"]
        guard begin != nil || end != nil || duration != nil else { return nil }
        var node = TimeTree.Node(parent: parent)
        node.begin = begin.flatMap { readTime($0, "begin", line: line) }
        node.end = end.flatMap { readTime($0, "end", line: line) }
        node.duration = duration.flatMap { readTime($0, "dur", line: line) }
        tree.nodes.append(node)
        return tree.nodes.count - 1
    }

    /// A time attribute's milliseconds, or a warning and nil.
    func readTime(_ value: String, _ name: String, line: Int) -> Int? {
        if let time = times.milliseconds(value) { return time }
        let shown = ControlCharacters.strip(String(value.prefix(40)))
        log.warn(line: line, column: 0,
                 "malformed time '\(shown)' in '\(name)'; expected '00:01:02.500' or '62.5s'; attribute ignored")
        return nil
    }

    /// The voice of `ttm:agent` ids: a declared person's part, a group's `together`; an id the head
    /// does not declare is a new part; several ids sing together.
    func voice(for agent: String?) -> Voice? {
        guard let agent else { return nil }
        let ids = agent.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
        guard ids.count == 1, let id = ids.first.map(String.init) else { return ids.isEmpty ? nil : .together }
        if let voice = agents[id] { return voice }
        let voice = nextPart()
        agents[id] = voice
        return voice
    }

    /// The next unused part.
    func nextPart() -> Voice {
        personCount += 1
        return .part(personCount - 1)
    }

    // MARK: Text

    /// Hands the characters read since the last tag to the element they are in.
    func flushText() {
        guard !text.isEmpty else { return }
        defer { text = "" }
        guard let frame = stack.last else { return }
        switch frame.role {
        case .ignored: return
        case .title: if metadata.title == nil { metadata.title = nonEmpty(collapsed(text)) }
        case .songwriter: if let name = nonEmpty(collapsed(text)) { songwriters.append(name) }
        case .lineTranslation: spanTranslation += text
        case .keyedTranslation: translationMain += text
        case .keyedBackgroundTranslation: translationBackground += text
        case .line: appendText(text, to: frame)
        }
    }

    /// Adds text of a line to the piece it belongs to.
    func appendText(_ text: String, to frame: Frame) {
        guard let draft = frame.draft else { return }
        if let ruby = frame.ruby {
            // Inside a ruby container only the base is shown.
            if frame.isRubyBase { drafts[draft].pieces[ruby].text += text }
            return
        }
        let isLayout = text.utf8.contains(0x0A) && text.utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        if isLayout {
            drafts[draft].append(Piece(text: text, timing: [], isLayout: true))
            return
        }
        let lastContent = drafts[draft].lastContent
        let last = drafts[draft].pieces.count - 1
        // The innermost timed span takes its text, unless words came after it (the span resumed after
        // a nested one ended): then the text runs on untimed, so the line keeps its order.
        if let piece = frame.piece, lastContent <= piece {
            drafts[draft].pieces[piece].text += text
        } else if last >= 0, last == lastContent, drafts[draft].pieces[last].timing.isEmpty {
            drafts[draft].pieces[last].text += text
        } else {
            drafts[draft].append(Piece(text: text, timing: []))
        }
    }

    // MARK: Lines

    /// A line as built from a draft, its end perhaps still unknown.
    struct Built {
        /// The line, its end a placeholder when `endKnown` is false.
        var line: LyricLine
        /// Whether the file gives the line's end.
        var endKnown: Bool
        /// Segments the file gives no end, settled with the line's end.
        var openSegmentEnds: [Int]
    }

    /// The song from the complete lines, times settled.
    func finish() -> ParseResult {
        flushText()
        if metadata.title == nil { metadata.title = fallbackTitle }
        if metadata.artist == nil, !artists.isEmpty { metadata.artist = artists.joined(separator: ", ") }
        if metadata.author == nil, !songwriters.isEmpty { metadata.author = songwriters.joined(separator: ", ") }
        applyKeyedTranslations()
        let (begins, ends) = tree.resolved()
        var built: [Built] = []
        built.reserveCapacity(drafts.count)
        for index in drafts.indices {
            let draft = drafts[index]
            guard draft.isComplete, draft.parent.map({ drafts[$0].isComplete }) ?? true else { continue }
            if let line = build(draft, begins: begins, ends: ends) { built.append(line) }
        }
        settleOpenEnds(&built)
        let song = SongAssembly.assemble(metadata: metadata, timedLines: built.map(\.line))
        return log.finish(song: song, noSongMessage: "no timed lyric line")
    }

    /// iTunes `<translations>`: each `<text for="KEY">` translates the line whose `itunes:key` (or
    /// `xml:id`) is KEY; its background-vocal span translates that line's background line.
    func applyKeyedTranslations() {
        guard !keyedTranslations.isEmpty else { return }
        for index in drafts.indices where drafts[index].parent == nil {
            guard let key = drafts[index].key, let entries = keyedTranslations[key] else { continue }
            for entry in entries {
                if !entry.main.isEmpty { drafts[index].translations.append(entry.main) }
                if !entry.background.isEmpty, let background = drafts[index].backgrounds.first {
                    drafts[background].translations.append(entry.background)
                }
            }
        }
    }

    /// One line from a draft: its text normalised, its segments in order and inside the line.
    func build(_ draft: Draft, begins: [Int?], ends: [Int?]) -> Built? {
        // The sung stretches: each timed piece, with the untimed text after it; text before the first
        // timed piece joins it.
        struct Stretch { var text: String; var start: Int?; var end: Int? }
        let isWordTimed = draft.pieces.contains { piece in piece.timing.contains { begins[$0] != nil } }
        var stretches: [Stretch] = []
        var prefix = ""
        for piece in draft.pieces {
            // Indentation between the spans of a word-timed line is not a space (AMLL, Apple Music);
            // elsewhere XML's rule holds: a line feed is a space.
            let text = piece.isLayout ? (isWordTimed ? "" : " ") : piece.text
            let start = piece.timing.compactMap { begins[$0] }.min()
            if let start {
                let end = piece.timing.compactMap { ends[$0] }.max()
                stretches.append(Stretch(text: prefix + text, start: start, end: end))
                prefix = ""
            } else if stretches.isEmpty {
                prefix += text
            } else {
                stretches[stretches.count - 1].text += text
            }
        }
        if stretches.isEmpty { stretches.append(Stretch(text: prefix, start: nil, end: nil)) }
        // Whitespace runs become one space across the whole line; the line's outer spaces go.
        var texts = collapsedRuns(stretches.map(\.text))
        if draft.parent != nil, let first = texts.firstIndex(where: { !$0.isEmpty }),
           let last = texts.lastIndex(where: { !$0.isEmpty }),
           !(texts[first].hasPrefix("(") && texts[last].hasSuffix(")")) {
            texts[first] = "(" + texts[first]
            texts[last] += ")"
        }
        let text = texts.joined()
        guard !text.isEmpty else { return nil }
        var start = draft.node.flatMap { begins[$0] }
        var end = draft.node.flatMap { ends[$0] }
        var segments: [WordSegment] = []
        var openSegmentEnds: [Int] = []
        if isWordTimed {
            for (index, stretch) in stretches.enumerated() where !texts[index].isEmpty {
                // Starts never go back, so segments stay in order even when the file's do not.
                let segmentStart = max(stretch.start ?? 0, segments.last?.start ?? Int.min)
                if let previous = segments.indices.last, segments[previous].end > segmentStart {
                    segments[previous].end = max(segments[previous].start, segmentStart)
                }
                if stretch.end == nil { openSegmentEnds.append(segments.count) }
                segments.append(WordSegment(start: segmentStart, end: max(segmentStart, stretch.end ?? segmentStart),
                                            text: texts[index]))
            }
            // A paragraph without times takes its words' span.
            start = min(start ?? Int.max, segments[0].start)
            // Without its own end, a line whose last word has none ends as the file goes on (below).
            let lastIsOpen = openSegmentEnds.last == segments.count - 1
            if let lastEnd = segments.map(\.end).max(), end != nil || !lastIsOpen {
                end = max(end ?? lastEnd, lastEnd)
            }
        }
        guard let start else {
            log.warn(line: draft.sourceLine, column: 0,
                     "paragraph '\(text.prefix(40))' has no timing; line ignored")
            return nil
        }
        let line = LyricLine(start: start, end: end ?? start, text: text, segments: segments,
                             translations: draft.translations, sourceLine: draft.sourceLine,
                             endIsEstimated: false, voice: draft.voice)
        return Built(line: line, endKnown: end != nil, openSegmentEnds: openSegmentEnds)
    }

    /// Ends for lines the file leaves open: the next line's start, or an estimate for the last one;
    /// then the segments that had no end run to the next segment or the line's end.
    func settleOpenEnds(_ built: inout [Built]) {
        let starts = built.map(\.line.start).sorted()
        for index in built.indices {
            if !built[index].endKnown {
                let start = built[index].line.start
                // The first start after this one, by binary search: a million open lines stay fast.
                var low = 0, high = starts.count
                while low < high {
                    let middle = (low + high) / 2
                    if starts[middle] <= start { low = middle + 1 } else { high = middle }
                }
                if low < starts.count {
                    built[index].line.end = starts[low]
                } else {
                    built[index].line.end = start + SongAssembly.lastLineEstimate(width: DisplayWidth.of(built[index].line.text))
                    built[index].line.endIsEstimated = true
                }
            }
            var line = built[index].line
            for segment in built[index].openSegmentEnds {
                let next = segment + 1 < line.segments.count ? line.segments[segment + 1].start : line.end
                line.segments[segment].end = max(line.segments[segment].start, next)
            }
            if let last = line.segments.last { line.end = max(line.end, last.end) }
            built[index].line = line
        }
    }

    // MARK: Helpers

    /// `agent` for `ttm:agent`: prefixes differ between files, the local names do not.
    func localName<S: StringProtocol>(_ name: S) -> Substring {
        guard let colon = name.lastIndex(of: ":") else { return Substring(name) }
        return Substring(name[name.index(after: colon)...])
    }

    /// `localName` as a `String`.
    func localName(_ name: String) -> String { String(localName(name) as Substring) }

    /// Nil for an empty text.
    func nonEmpty(_ text: String) -> String? { text.isEmpty ? nil : text }

    /// The text with XML whitespace runs as one space, outer spaces trimmed, control characters removed.
    func collapsed(_ text: String) -> String { collapsedRuns([text]).joined() }

    /// Texts that are shown one after another, whitespace collapsed across their joins: a run of XML
    /// whitespace is one space, kept at the end of the text it starts in; the outer spaces are dropped.
    func collapsedRuns(_ texts: [String]) -> [String] {
        var result: [String] = []
        result.reserveCapacity(texts.count)
        var pendingSpace = false
        var sawText = false
        for text in texts {
            var scalars = String.UnicodeScalarView()
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x20, 0x09, 0x0A, 0x0D:
                    pendingSpace = sawText
                default:
                    guard !ControlCharacters.isForbidden(scalar.value) else { continue }
                    if pendingSpace {
                        // The space belongs to the end of the text before, when that is where it was.
                        if scalars.isEmpty, !result.isEmpty, let last = result.indices.last(where: { !result[$0].isEmpty }) {
                            result[last] += " "
                        } else {
                            scalars.append(" ")
                        }
                        pendingSpace = false
                    }
                    scalars.append(scalar)
                    sawText = true
                }
            }
            result.append(String(scalars))
        }
        return result
    }

    /// A reader's words for libxml2's error codes (`xmlParserErrors`).
    static func describe(xmlError code: Int) -> String {
        switch code {
        case 4: return "no element"
        case 5: return "the file ends early, or goes on after its root element"
        case 9: return "a character XML does not allow"
        case 26, 27: return "an undeclared entity"
        case 38, 39, 40, 41: return "a malformed attribute"
        case 68: return "a tag without a name"
        case 73: return "expected '>'"
        case 76: return "a closing tag that does not match its opening tag"
        case 77: return "the file ends inside an element"
        case 89: return "entities that refer to themselves or expand too far"
        default: return "libxml2 error \(code)"
        }
    }
}
