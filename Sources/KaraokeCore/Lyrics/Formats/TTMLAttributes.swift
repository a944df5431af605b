/// The attributes of a TTML element that the line builder reads, by local name (`ttm:agent` is `agent`,
/// `xml:id` is `id`), picked without a dictionary; every other attribute is passed over (DESIGN §7.5).
///
/// Each is kept as libxml2's bytes, so a value of this type holds no String and lives only while its start
/// tag is handled. The times, which most elements carry, are read into milliseconds from the bytes; the
/// rest become a String only when the builder asks for one.
struct TTMLAttributes {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    var begin: Bytes?
    var end: Bytes?
    var duration: Bytes?
    var timeContainerBytes: Bytes?
    var agentBytes: Bytes?
    var roleBytes: Bytes?
    var keyBytes: Bytes?
    var idBytes: Bytes?
    var rubyBytes: Bytes?
    var typeBytes: Bytes?
    /// `for`, on an iTunes translation's `<text>`.
    var forKeyBytes: Bytes?
    var valueBytes: Bytes?
    var frameRateBytes: Bytes?
    var frameRateMultiplierBytes: Bytes?
    var tickRateBytes: Bytes?
    /// `xml:lang`.
    var languageBytes: Bytes?

    var timeContainer: String? { Self.text(timeContainerBytes) }
    var agent: String? { Self.text(agentBytes) }
    var role: String? { Self.text(roleBytes) }
    var key: String? { Self.text(keyBytes) }
    var id: String? { Self.text(idBytes) }
    var ruby: String? { Self.text(rubyBytes) }
    var type: String? { Self.text(typeBytes) }
    var forKey: String? { Self.text(forKeyBytes) }
    var value: String? { Self.text(valueBytes) }
    var frameRate: String? { Self.text(frameRateBytes) }
    var frameRateMultiplier: String? { Self.text(frameRateMultiplierBytes) }
    var tickRate: String? { Self.text(tickRateBytes) }
    var language: String? { Self.text(languageBytes) }

    /// No attributes.
    init() {}

    /// The attributes of `tag`; of two with the same local name, the last.
    init(_ tag: XMLStartTag) {
        guard let attributes = tag.attributes else { return }
        for index in 0..<tag.attributeCount {
            let fields = attributes + index * 5
            guard let name = fields[0], let start = fields[3], let stop = fields[4] else { continue }
            let bytes = Bytes(start: start, count: stop - start)
            // The first byte picks the few names to compare; most attributes are begin, end and dur.
            switch name[0] {
            case UInt8(ascii: "b") where XMLStartTag.name(name, is: "begin"): begin = bytes
            case UInt8(ascii: "e") where XMLStartTag.name(name, is: "end"): end = bytes
            case UInt8(ascii: "d") where XMLStartTag.name(name, is: "dur"): duration = bytes
            case UInt8(ascii: "a") where XMLStartTag.name(name, is: "agent"): agentBytes = bytes
            case UInt8(ascii: "r"):
                if XMLStartTag.name(name, is: "role") {
                    roleBytes = bytes
                } else if XMLStartTag.name(name, is: "ruby") {
                    rubyBytes = bytes
                }
            case UInt8(ascii: "k") where XMLStartTag.name(name, is: "key"): keyBytes = bytes
            case UInt8(ascii: "l") where XMLStartTag.name(name, is: "lang"): languageBytes = bytes
            case UInt8(ascii: "i") where XMLStartTag.name(name, is: "id"): idBytes = bytes
            case UInt8(ascii: "t"):
                if XMLStartTag.name(name, is: "timeContainer") {
                    timeContainerBytes = bytes
                } else if XMLStartTag.name(name, is: "type") {
                    typeBytes = bytes
                } else if XMLStartTag.name(name, is: "tickRate") {
                    tickRateBytes = bytes
                }
            case UInt8(ascii: "f"):
                if XMLStartTag.name(name, is: "for") {
                    forKeyBytes = bytes
                } else if XMLStartTag.name(name, is: "frameRate") {
                    frameRateBytes = bytes
                } else if XMLStartTag.name(name, is: "frameRateMultiplier") {
                    frameRateMultiplierBytes = bytes
                }
            case UInt8(ascii: "v") where XMLStartTag.name(name, is: "value"): valueBytes = bytes
            default: break
            }
        }
    }

    /// The bytes as a String, nil for an attribute that is not there.
    private static func text(_ bytes: Bytes?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }
}

/// The local names of the elements the line builder tells apart (`tt:p` is `p`), read from libxml2's bytes
/// without a String; every other element is `other`.
enum TTMLElementName: Equatable {
    case tt, head, body, p, span, br, metadata, set, style, layout, region
    case title, agent, songwriter, meta, translations, transliterations, text
    case other

    /// The name of the NUL-terminated `localName`.
    init(_ localName: UnsafePointer<UInt8>) {
        func named(_ name: StaticString) -> Bool { XMLStartTag.name(localName, is: name) }
        // The first byte picks the few names to compare; most elements are p and span.
        switch localName[0] {
        case UInt8(ascii: "p"): self = named("p") ? .p : .other
        case UInt8(ascii: "s"):
            self =
                named("span")
                ? .span : named("set") ? .set : named("style") ? .style : named("songwriter") ? .songwriter : .other
        case UInt8(ascii: "b"): self = named("br") ? .br : named("body") ? .body : .other
        case UInt8(ascii: "t"):
            self =
                named("tt")
                ? .tt
                : named("text")
                    ? .text
                    : named("title")
                        ? .title
                        : named("translations")
                            ? .translations : named("transliterations") ? .transliterations : .other
        case UInt8(ascii: "h"): self = named("head") ? .head : .other
        case UInt8(ascii: "m"): self = named("metadata") ? .metadata : named("meta") ? .meta : .other
        case UInt8(ascii: "l"): self = named("layout") ? .layout : .other
        case UInt8(ascii: "r"): self = named("region") ? .region : .other
        case UInt8(ascii: "a"): self = named("agent") ? .agent : .other
        default: self = .other
        }
    }
}
