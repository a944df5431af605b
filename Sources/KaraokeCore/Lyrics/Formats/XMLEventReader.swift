// XML is read by libxml2's SAX2 parser, loaded on first use by the CLibXML2 shim: nothing else in the
// program needs libxml2 or the ICU it links.
import CLibXML2

/// What an XML reader hands on, element by element, in document order.
protocol XMLEventHandler {
    /// An element opens. The tag's names and values are libxml2's bytes, valid only during the call: a
    /// handler makes Strings of what it keeps, and nothing of the rest (DESIGN §7.5).
    mutating func startElement(_ tag: XMLStartTag)
    /// The element opened last closes.
    mutating func endElement()
    /// Characters as UTF-8: text, CDATA or whitespace, predefined entities and character references
    /// replaced; valid only during the call. One text may come in several calls.
    mutating func characters(_ utf8: UnsafeBufferPointer<UInt8>)
}

/// A start tag in libxml2's SAX2 form: `prefix:localName`, and the attributes in groups of five pointers
/// (local name, prefix, URI, value start, value end). Namespace declarations are not among them.
struct XMLStartTag {
    /// The element's prefix (`ttm` of `ttm:agent`), nil without one; NUL-terminated.
    let prefix: UnsafePointer<UInt8>?
    /// The element's local name, NUL-terminated.
    let localName: UnsafePointer<UInt8>
    /// The file line of the start tag's end.
    let line: Int
    let attributeCount: Int
    let attributes: UnsafeMutablePointer<UnsafePointer<UInt8>?>?

    /// The local name as a String (short names are stored inline, without an allocation).
    var name: String { String(cString: localName) }

    /// Calls `body` with each attribute's prefix (nil without one), local name and value bytes.
    func forEachAttribute(
        _ body: (_ prefix: UnsafePointer<UInt8>?, _ name: UnsafePointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>)
            -> Void
    ) {
        guard let attributes else { return }
        for index in 0..<attributeCount {
            let fields = attributes + index * 5
            guard let name = fields[0], let start = fields[3], let end = fields[4] else { continue }
            body(fields[1], name, UnsafeBufferPointer(start: start, count: end - start))
        }
    }

    /// Whether the NUL-terminated `name` is `expected`, byte for byte.
    static func name(_ name: UnsafePointer<UInt8>, is expected: StaticString) -> Bool {
        let count = expected.utf8CodeUnitCount, bytes = expected.utf8Start
        for index in 0..<count where name[index] != bytes[index] { return false }
        return name[count] == 0
    }
}

/// Walks an XML document held in memory with libxml2, handing its elements and text to a handler.
enum XMLEventReader {
    /// How a read ended.
    enum Outcome: Equatable {
        /// The whole document was read.
        case complete
        /// The XML broke at `line`:`column` with libxml2's error `code` (`xmlParserErrors`); everything
        /// before it was handed on.
        case malformed(code: Int, line: Int, column: Int)
        /// libxml2 could not be loaded (or could not start a parser); nothing was read. The text is the
        /// message to show, the loader's, which names the package.
        case libraryMissing(String)
    }

    /// Reads `utf8` (UTF-8, whatever its XML declaration says) into `handler`.
    ///
    /// The network is off and no entity the document declares is expanded, external or not: a reference
    /// to one is malformed XML. The predefined entities and character references are read.
    static func read<Handler: XMLEventHandler>(_ utf8: [UInt8], into handler: inout Handler) -> Outcome {
        if let missing = kk_xml_load() { return .libraryMissing(String(cString: missing)) }
        guard utf8.count < Int(Int32.max) else { return .malformed(code: 1, line: 0, column: 0) }
        return withUnsafeMutablePointer(to: &handler) { handler in
            let sink: EventSink = TypedSink(handler)
            var events = kk_xml_events()
            events.context = Unmanaged.passUnretained(sink).toOpaque()
            events.start_element = { context, prefix, localName, attributeCount, attributes, line in
                guard let localName else { return }
                // The sink outlives the parse (below), so a call needs no retain of its own.
                Unmanaged<EventSink>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                    $0.startElement(
                        XMLStartTag(
                            prefix: prefix, localName: localName, line: Int(line),
                            attributeCount: Int(attributeCount), attributes: attributes))
                }
            }
            events.end_element = { context in
                Unmanaged<EventSink>.fromOpaque(context!)._withUnsafeGuaranteedRef { $0.endElement() }
            }
            events.characters = { context, text, length in
                guard let text, length > 0 else { return }
                Unmanaged<EventSink>.fromOpaque(context!)._withUnsafeGuaranteedRef {
                    $0.characters(UnsafeBufferPointer(start: text, count: Int(length)))
                }
            }
            var failure = kk_xml_failure()
            // libxml2 wants a pointer even for an empty document.
            let bytes = utf8.isEmpty ? [0] : utf8
            let status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { text in
                    kk_xml_parse(text.baseAddress, Int32(utf8.count), &events, &failure)
                }
            }
            withExtendedLifetime(sink) {}
            switch status {
            case 0: return .complete
            case 1:
                return .malformed(
                    code: Int(failure.code), line: Int(failure.line), column: max(Int(failure.column), 0))
            default: return .libraryMissing(libraryMissingMessage("libxml2 could not start a parser"))
            }
        }
    }

    /// The message of a document libxml2 cannot read, with `reason`: the loader's words for a missing libxml2.
    static func libraryMissingMessage(_ reason: String) -> String {
        var text = [CChar](repeating: 0, count: 1024)
        kk_xml_missing_message(reason, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// What libxml2's callbacks, which carry one pointer of context, reach: a class whose subclass knows
    /// the handler's type and holds a pointer to the caller's handler, so an event is one class call into
    /// the handler itself, not a trip through an existential box (DESIGN §7.5).
    private class EventSink {
        func startElement(_ tag: XMLStartTag) {}
        func endElement() {}
        func characters(_ utf8: UnsafeBufferPointer<UInt8>) {}
    }

    /// The sink of a handler of type `Handler`, valid while the handler it points to is.
    private final class TypedSink<Handler: XMLEventHandler>: EventSink {
        let handler: UnsafeMutablePointer<Handler>

        init(_ handler: UnsafeMutablePointer<Handler>) { self.handler = handler }

        override func startElement(_ tag: XMLStartTag) { handler.pointee.startElement(tag) }
        override func endElement() { handler.pointee.endElement() }
        override func characters(_ utf8: UnsafeBufferPointer<UInt8>) { handler.pointee.characters(utf8) }
    }

    /// What libxml2's error `code` (`xmlParserErrors`) means, in a reader's words.
    static func describe(errorCode code: Int) -> String {
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
