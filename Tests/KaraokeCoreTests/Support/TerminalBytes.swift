/// The bytes of `text`, with `^[` standing for ESC so that cases read as terminals write them.
func bytes(_ text: String) -> [UInt8] {
    var out: [UInt8] = []
    for byte in text.utf8 {
        if byte == UInt8(ascii: "["), out.last == UInt8(ascii: "^") {
            out[out.count - 1] = 0x1B
        } else {
            out.append(byte)
        }
    }
    return out
}
