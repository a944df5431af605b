/// A hash that names cache files: the same for the same text on every run and machine, unlike `Hasher`.
enum StableHash {
    /// The 64-bit FNV-1a hash of the UTF-8 of `text`.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The 64-bit FNV-1a hash of `bytes`: a file's content, whatever its encoding.
    static func fnv1a<Bytes: Sequence<UInt8>>(bytes: Bytes) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// The hash of `text` as 16 lower-case hexadecimal digits, for a file name.
    static func name(of text: String) -> String {
        hexadecimal(fnv1a(text))
    }

    /// `hash` as 16 lower-case hexadecimal digits.
    static func hexadecimal(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
