import Glibc

/// The bytes of a lyric file made ready to parse: UTF-8 without a byte order mark.
///
/// UTF-16 files (with a BOM, as Windows tools write them) are converted; data with NUL bytes is not text.
public enum SourceText {
    /// Why a file's bytes cannot be read as text.
    public enum Failure: Error, Equatable, Sendable {
        /// The data holds NUL bytes or undecodable UTF-16: it is not a text file.
        case notText
    }

    /// UTF-8 bytes of the text, without BOM; `.notText` for binary data.
    public static func utf8(from bytes: [UInt8]) -> Result<[UInt8], Failure> {
        if bytes.count >= 2 && ((bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF)) {
            return decodeUTF16(bytes, bigEndian: bytes[0] == 0xFE)
        }
        let start = ByteScanner.skipByteOrderMark(bytes, at: 0, end: bytes.count)
        let hasNUL = bytes.withUnsafeBufferPointer { buffer in
            buffer.count > start && memchr(buffer.baseAddress! + start, 0, buffer.count - start) != nil
        }
        if hasNUL { return .failure(.notText) }
        return .success(start == 0 ? bytes : Array(bytes[start...]))
    }

    private static func decodeUTF16(_ bytes: [UInt8], bigEndian: Bool) -> Result<[UInt8], Failure> {
        guard bytes.count % 2 == 0 else { return .failure(.notText) }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2 - 1)
        var i = 2
        while i + 1 < bytes.count {
            let unit =
                bigEndian
                ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1])
                : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
            if unit == 0 { return .failure(.notText) }
            units.append(unit)
            i += 2
        }
        var output: [UInt8] = []
        output.reserveCapacity(units.count * 2)
        var decoder = UTF16()
        var iterator = units.makeIterator()
        loop: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): UTF8.encode(scalar) { output.append($0) }
            case .emptyInput: break loop
            case .error: return .failure(.notText)
            }
        }
        return .success(output)
    }
}
