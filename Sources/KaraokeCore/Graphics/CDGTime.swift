/// A moment of a CD+G file as the packet playing then (DESIGN §19.4).
///
/// Packet i plays at i/300 s (4 packets a sector, 75 sectors a second). The packet playing at t s is
/// ⌊300·t⌋, and the picture at t shows every packet up to and including it, as ffmpeg shows its frame of
/// pts i from i/300 s on. The index is computed from the decimal text exactly: in binary floating point
/// 0.57 × 300 is 170.99999…, one packet early.
public struct CDGTime: Sendable, Equatable, Comparable {
    /// Bytes in a packet.
    public static let packetSize = 24
    /// Packets a second.
    public static let packetsPerSecond = 300

    /// The packet playing at this moment.
    public var packetIndex: Int

    /// The moment packet `packetIndex` starts.
    public init(packetIndex: Int) {
        self.packetIndex = packetIndex
    }

    /// The moment written `text` seconds (`12`, `0.57`, `1.5e1`, `+3.`), exactly; nil for text that is no
    /// plain non-negative decimal number or is beyond any file's length.
    public init?(seconds text: String) {
        guard let index = Self.packetIndex(seconds: Array(text.utf8)) else { return nil }
        packetIndex = index
    }

    /// The packets the picture at this moment has applied: those before it, and its own.
    public var packetsShown: Int { packetIndex + 1 }

    /// Orders moments.
    public static func < (lhs: CDGTime, rhs: CDGTime) -> Bool { lhs.packetIndex < rhs.packetIndex }

    /// A length of `packets` packets as `m:ss.cc` (hours ahead when there are any), the hundredths cut, not
    /// rounded.
    public static func length(packets: Int) -> String {
        let hundredths = packets * 100 / packetsPerSecond
        let seconds = hundredths / 100, fraction = hundredths % 100
        let hours = seconds / 3600, minutes = seconds / 60 % 60, secs = seconds % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let clock = "\(minutes):\(two(secs)).\(two(fraction))"
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(secs)).\(two(fraction))" : clock
    }

    /// ⌊300 × the decimal number in `text`⌋, from its digits: the whole part × 300, plus three times the
    /// first two fraction digits, plus what three times the rest carries over into the hundredths.
    static func packetIndex(seconds text: [UInt8]) -> Int? {
        var at = 0
        if at < text.count, text[at] == UInt8(ascii: "+") { at += 1 }
        var whole: [UInt8] = [], fraction: [UInt8] = []
        var seenPoint = false
        while at < text.count {
            let byte = text[at]
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                if seenPoint {
                    fraction.append(byte - UInt8(ascii: "0"))
                } else {
                    whole.append(byte - UInt8(ascii: "0"))
                }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                break
            }
            at += 1
        }
        guard !whole.isEmpty || !fraction.isEmpty else { return nil }
        if at < text.count {
            // An exponent moves the decimal point.
            guard text[at] == UInt8(ascii: "e") || text[at] == UInt8(ascii: "E") else { return nil }
            at += 1
            var negative = false
            if at < text.count, text[at] == UInt8(ascii: "+") || text[at] == UInt8(ascii: "-") {
                negative = text[at] == UInt8(ascii: "-")
                at += 1
            }
            var exponent = 0
            guard at < text.count else { return nil }
            while at < text.count {
                let byte = text[at]
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), exponent < 1000 else { return nil }
                exponent = exponent * 10 + Int(byte - UInt8(ascii: "0"))
                at += 1
            }
            if negative {
                let moved = min(exponent, whole.count)
                fraction = [UInt8](repeating: 0, count: exponent - moved) + whole.suffix(moved) + fraction
                whole.removeLast(moved)
            } else {
                fraction += [UInt8](repeating: 0, count: max(0, exponent - fraction.count))
                whole += fraction.prefix(exponent)
                fraction.removeFirst(exponent)
            }
        }
        while whole.first == 0 { whole.removeFirst() }
        // 15 digits of seconds is far beyond any file, and far from overflowing when multiplied by 300.
        guard whole.count <= 15 else { return nil }
        var index = whole.reduce(0) { $0 * 10 + Int($1) } * packetsPerSecond
        let hundredths = fraction.prefix(2) + [UInt8](repeating: 0, count: max(0, 2 - fraction.count))
        index += 3 * (Int(hundredths[hundredths.startIndex]) * 10 + Int(hundredths[hundredths.startIndex + 1]))
        var carry = 0
        for digit in fraction.dropFirst(2).reversed() { carry = (3 * Int(digit) + carry) / 10 }
        return index + carry
    }
}
