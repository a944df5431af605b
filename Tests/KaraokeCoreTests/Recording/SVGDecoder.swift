import Foundation
#if canImport(FoundationXML)
    import FoundationXML
#endif
@testable import KaraokeCore

/// An element of a parsed XML document, with its attributes, child elements and character data.
final class XMLElementNode {
    let name: String
    let attributes: [String: String]
    var children: [XMLElementNode] = []
    /// The character data directly inside it.
    var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    /// Every element under this one, depth first.
    var descendants: [XMLElementNode] { children.flatMap { [$0] + $0.descendants } }
}

/// Parses a document with Foundation's `XMLParser` into a tree; a malformed document throws.
final class XMLTreeBuilder: NSObject, XMLParserDelegate {
    private var stack: [XMLElementNode] = []
    private var root: XMLElementNode?
    private var failure: String?

    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ text: String) throws -> XMLElementNode {
        let parser = XMLParser(data: Data(text.utf8))
        let builder = XMLTreeBuilder()
        parser.delegate = builder
        let parsed = parser.parse()
        guard parsed, builder.failure == nil, let root = builder.root else {
            throw Malformed(
                description: builder.failure ?? parser.parserError.map { "\($0)" } ?? "no root element")
        }
        return root
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        let node = XMLElementNode(name: elementName, attributes: attributeDict)
        if let parent = stack.last { parent.children.append(node) } else { root = node }
        stack.append(node)
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        stack.last?.text += string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        failure = "line \(parser.lineNumber), column \(parser.columnNumber): \(parseError)"
    }
}

/// A cell as the picture draws it.
struct DrawnCell: Equatable, CustomStringConvertible {
    var column: Int
    var glyph: String
    /// `#rrggbb`.
    var fill: String
    var bold: Bool

    var description: String { "\(column):\(glyph)\(fill)\(bold ? "b" : "")" }
}

/// What a recording's SVG shows, read back the way a browser would place it: which drawing each row position
/// holds at a time, and each drawing's cells (column from `x` ÷ cell width), colours and backgrounds.
///
/// It knows only SVG and CSS, not `SVGRecording`: text without an `x` continues one cell after the previous
/// character, as a monospace font of the picture's advance places it.
struct SVGDecoder {
    /// What a row position holds: one drawing throughout, or a strip that slides.
    enum Position {
        case constant(String)
        /// The drawings by their `x` in the strip, and the keyframes: (offset in %, the strip's translation).
        case strip(uses: [Int: String], keyframes: [(percent: Double, shift: Int)])
    }

    let root: XMLElementNode
    let cellWidth = 6
    let rowHeight = 12
    let baseline = 9
    /// The root's `fill`: the ink of text without a colour of its own.
    let foreground: String
    /// The page's colour: the first rectangle's fill.
    let background: String
    /// The loop's length in seconds, nil for a still.
    var duration: Double?
    var definitions: [String: XMLElementNode] = [:]
    var positions: [Int: Position] = [:]

    init(_ svg: String) throws {
        root = try XMLTreeBuilder.parse(svg)
        foreground = root.attributes["fill"] ?? ""
        background = root.children.first { $0.name == "rect" }?.attributes["fill"] ?? ""
        for node in root.descendants { if let id = node.attributes["id"] { definitions[id] = node } }
        let style = root.children.first { $0.name == "style" }?.text ?? ""
        for child in root.children {
            if child.name == "use", let y = child.attributes["y"].flatMap({ Int($0) }),
                let href = child.attributes["href"]
            {
                positions[(y - baseline) / rowHeight] = .constant(String(href.dropFirst()))
            }
            if child.name == "g", let transform = child.attributes["transform"],
                let strip = child.children.first, let name = strip.attributes["class"]
            {
                let y = Int(transform.split(separator: " ").last!.dropLast())!
                var uses: [Int: String] = [:]
                for use in strip.children {
                    uses[Int(use.attributes["x"] ?? "0")!] = String(use.attributes["href"]!.dropFirst())
                }
                let (seconds, keyframes) = SVGDecoder.animation(of: name, in: style)
                duration = seconds
                positions[(y - baseline) / rowHeight] = .strip(uses: uses, keyframes: keyframes)
            }
        }
    }

    /// The duration and keyframes of the CSS animation of class `name` in `style`.
    static func animation(of name: String, in style: String) -> (Double, [(percent: Double, shift: Int)]) {
        let rule = style.components(separatedBy: ".\(name){animation:")[1].components(separatedBy: "}")[0]
        let parts = rule.split(separator: " ")
        let keyframesName = String(parts[0])
        let seconds = Double(parts[1].dropLast())!
        let body = style.components(separatedBy: "@keyframes \(keyframesName){")[1].components(separatedBy: "}}")[0]
        var keyframes: [(percent: Double, shift: Int)] = []
        for block in body.components(separatedBy: "}") where !block.isEmpty {
            let halves = block.components(separatedBy: "{")
            let value = halves[1].components(separatedBy: "translate(")[1]
                .replacingOccurrences(of: "px)", with: "").replacingOccurrences(of: ")", with: "")
            for selector in halves[0].split(separator: ",") {
                keyframes.append((Double(selector.dropLast())!, Int(value)!))
            }
        }
        return (seconds, keyframes.sorted { $0.percent < $1.percent })
    }

    /// The id of the drawing row `row` shows at `time` seconds, nil for a blank row.
    func drawing(row: Int, at time: Double) -> String? {
        switch positions[row] {
        case nil: return nil
        case .constant(let id): return id
        case .strip(let uses, let keyframes):
            let loop = duration ?? 1
            let percent = time.truncatingRemainder(dividingBy: loop) / loop * 100
            let shift = keyframes.last { $0.percent <= percent }?.shift ?? 0
            return uses[-shift]
        }
    }

    /// The cells row `row` shows at `time`, in column order.
    func cells(row: Int, at time: Double) -> [DrawnCell] {
        guard let id = drawing(row: row, at: time), let node = definitions[id] else { return [] }
        let text = node.name == "text" ? node : node.children.first { $0.name == "text" }
        guard let text else { return [] }
        let rowBold = text.attributes["class"] == "b"
        var cells: [DrawnCell] = []
        var pen = 0
        for span in text.children where span.name == "tspan" {
            let xs = (span.attributes["x"] ?? "").split(separator: " ").map { Int($0)! }
            let fill = span.attributes["fill"] ?? text.attributes["fill"] ?? foreground
            for (k, character) in span.text.enumerated() {
                if k < xs.count { pen = xs[k] }
                cells.append(
                    DrawnCell(
                        column: pen / cellWidth, glyph: String(character), fill: fill,
                        bold: rowBold || span.attributes["class"] == "b"))
                pen += cellWidth
            }
        }
        return cells
    }

    /// The background colour of each column of row `row` at `time` that has one.
    func backgrounds(row: Int, at time: Double) -> [Int: String] {
        guard let id = drawing(row: row, at: time), let node = definitions[id] else { return [:] }
        var result: [Int: String] = [:]
        for rect in node.children where rect.name == "rect" {
            let x = Int(rect.attributes["x"]!)!, width = Int(rect.attributes["width"]!)!
            for column in x / cellWidth..<(x + width) / cellWidth { result[column] = rect.attributes["fill"] }
        }
        return result
    }

    /// Row `row` at `time` as text: gaps as spaces, trailing spaces trimmed, as `FrameRow.text` gives it.
    func text(row: Int, at time: Double) -> String {
        var result = ""
        var column = 0
        for cell in cells(row: row, at: time) {
            if cell.column > column { result += String(repeating: " ", count: cell.column - column) }
            result += cell.glyph
            column = cell.column + DisplayWidth.of(cell.glyph)
        }
        while result.last == " " { result.removeLast() }
        return result
    }
}
