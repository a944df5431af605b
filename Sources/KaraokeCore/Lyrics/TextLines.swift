/// Walks the lines of a text: LF, CRLF and a lone CR each end one line (lyric files come with all
/// three). memchr finds each LF; a CR before it is either CRLF or an old Mac line end. A value type, so
/// a parser can look ahead and step back by keeping a copy.
struct TextLines {
    /// Where the next line starts.
    private(set) var position = 0
    /// The 1-based number of the line last returned; 0 before the first.
    private(set) var number = 0
    let count: Int

    init(count: Int) { self.count = count }

    /// The next line's byte range (without its line end), or nil at the end of the text.
    @inline(__always)
    mutating func next(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        guard position < count else { return nil }
        let lineFeed = ByteScanner.index(of: 0x0A, in: bytes, from: position, to: count)
        let end = ByteScanner.index(of: 0x0D, in: bytes, from: position, to: lineFeed)
        let line = position..<end
        var after = end + 1
        if end < count, bytes[end] == 0x0D, end + 1 < count, bytes[end + 1] == 0x0A { after += 1 }
        position = after
        number += 1
        return line
    }
}
