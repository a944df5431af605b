/// The attributes of a TTML element that the line builder reads, by local name (`ttm:agent` is `agent`,
/// `xml:id` is `id`): only these become Strings, straight from libxml2's bytes, and every other attribute
/// is passed over without one. A dictionary of every attribute per element was half of reading a TTML
/// file (DESIGN §7.5).
struct TTMLAttributes {
    var begin: String?
    var end: String?
    var duration: String?
    var timeContainer: String?
    var agent: String?
    var role: String?
    var key: String?
    var id: String?
    var ruby: String?
    var type: String?
    /// `for`, on an iTunes translation's `<text>`.
    var forKey: String?
    var value: String?
    var frameRate: String?
    var frameRateMultiplier: String?
    var tickRate: String?

    /// No attributes.
    init() {}

    /// The attributes of `tag`; of two with the same local name, the last.
    init(_ tag: XMLStartTag) {
        tag.forEachAttribute { _, name, bytes in
            let text = { String(decoding: bytes, as: UTF8.self) }
            // The first byte picks the few names to compare; most attributes are begin, end and dur.
            switch name[0] {
            case UInt8(ascii: "b") where XMLStartTag.name(name, is: "begin"): begin = text()
            case UInt8(ascii: "e") where XMLStartTag.name(name, is: "end"): end = text()
            case UInt8(ascii: "d") where XMLStartTag.name(name, is: "dur"): duration = text()
            case UInt8(ascii: "a") where XMLStartTag.name(name, is: "agent"): agent = text()
            case UInt8(ascii: "r"):
                if XMLStartTag.name(name, is: "role") {
                    role = text()
                } else if XMLStartTag.name(name, is: "ruby") {
                    ruby = text()
                }
            case UInt8(ascii: "k") where XMLStartTag.name(name, is: "key"): key = text()
            case UInt8(ascii: "i") where XMLStartTag.name(name, is: "id"): id = text()
            case UInt8(ascii: "t"):
                if XMLStartTag.name(name, is: "timeContainer") {
                    timeContainer = text()
                } else if XMLStartTag.name(name, is: "type") {
                    type = text()
                } else if XMLStartTag.name(name, is: "tickRate") {
                    tickRate = text()
                }
            case UInt8(ascii: "f"):
                if XMLStartTag.name(name, is: "for") {
                    forKey = text()
                } else if XMLStartTag.name(name, is: "frameRate") {
                    frameRate = text()
                } else if XMLStartTag.name(name, is: "frameRateMultiplier") {
                    frameRateMultiplier = text()
                }
            case UInt8(ascii: "v") where XMLStartTag.name(name, is: "value"): self.value = text()
            default: break
            }
        }
    }
}
