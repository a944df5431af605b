/// Base64 (RFC 4648, with padding), for kitty's payloads.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// `bytes` in base64.
    static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var at = 0
        while at + 3 <= bytes.count {
            let value = UInt32(bytes[at]) << 16 | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(value >> UInt32(shift) & 0x3F)]) }
            at += 3
        }
        let rest = bytes.count - at
        if rest > 0 {
            let value = UInt32(bytes[at]) << 16 | (rest == 2 ? UInt32(bytes[at + 1]) << 8 : 0)
            out.append(alphabet[Int(value >> 18 & 0x3F)])
            out.append(alphabet[Int(value >> 12 & 0x3F)])
            out.append(rest == 2 ? alphabet[Int(value >> 6 & 0x3F)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
        return out
    }
}
