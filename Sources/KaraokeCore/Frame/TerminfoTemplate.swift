/// A parameterised terminfo string (`cup`, `setaf`, …) and its expansion, as terminfo(5) defines it.
///
/// The painter builds every escape sequence from the terminal's own terminfo entry, so the core can count
/// and write the bytes without a terminal (DESIGN §9). Only the parts of the language real entries use for
/// cursor and colour strings are kept: `%p1`…`%p9`, `%d` (with a width and `0` flag), `%c`, `%{n}`, `%'c'`,
/// `%i`, arithmetic and logic (`%+ %- %* %/ %m %& %| %^ %= %< %> %A %O %! %~`), `%?…%t…%e…%;`, `%P`/`%g`
/// variables and `%%`; anything else expands to nothing.
public struct TerminfoTemplate: Sendable, Equatable {
    /// The string as terminfo holds it (escapes already decoded: ESC is the byte 27).
    public var bytes: [UInt8]

    /// Wraps a string read from terminfo.
    public init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Wraps a string given as text (tests and fixed entries).
    public init(_ text: String) {
        self.bytes = Array(text.utf8)
    }

    /// The string with `p1` and `p2` substituted (`%p3`…`%p9` are 0: no string the painter uses takes more).
    public func expanded(_ p1: Int = 0, _ p2: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        expand(p1, p2, into: &out)
        return out
    }

    /// Appends the string with `p1` and `p2` substituted to `out`.
    ///
    /// Called for every cursor move and colour change the painter considers, so it allocates nothing but
    /// what `out` needs to grow (the evaluation stack is on the call stack).
    public func expand(_ p1: Int = 0, _ p2: Int = 0, into out: inout [UInt8]) {
        guard bytes.contains(UInt8(ascii: "%")) else {
            out += bytes
            return
        }
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 16) { stack in
            evaluate(p1, p2, stack: stack, into: &out)
        }
    }

    /// The interpreter behind `expand`, with `stack` as its evaluation stack (deeper pushes are dropped).
    private func evaluate(_ first: Int, _ second: Int, stack: UnsafeMutableBufferPointer<Int>, into out: inout [UInt8])
    {
        var p1 = first, p2 = second
        func parameter(_ n: Int) -> Int { n == 0 ? p1 : n == 1 ? p2 : 0 }
        var depth = 0
        func push(_ value: Int) {
            if depth < stack.count { stack[depth] = value; depth += 1 }
        }
        func pop() -> Int {
            guard depth > 0 else { return 0 }
            depth -= 1
            return stack[depth]
        }
        var dynamic: [Int] = [], fixed: [Int] = []
        var index = 0
        /// Moves `index` past the `%e` or `%;` that ends the branch being skipped (nested `%?` counted).
        func skip(stopAtElse: Bool) {
            var nesting = 0
            while index + 1 < bytes.count {
                if bytes[index] != UInt8(ascii: "%") { index += 1; continue }
                let code = bytes[index + 1]
                index += 2
                switch code {
                case UInt8(ascii: "?"): nesting += 1
                case UInt8(ascii: ";"):
                    if nesting == 0 { return }
                    nesting -= 1
                case UInt8(ascii: "e") where nesting == 0 && stopAtElse: return
                default: break
                }
            }
            index = bytes.count
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            guard byte == UInt8(ascii: "%"), index < bytes.count else {
                out.append(byte)
                continue
            }
            let code = bytes[index]
            index += 1
            switch code {
            case UInt8(ascii: "%"): out.append(code)
            case UInt8(ascii: "p"):
                if index < bytes.count, case let n = Int(bytes[index]) - 49, n >= 0, n < 9 { push(parameter(n)) }
                index += 1
            case UInt8(ascii: "P"), UInt8(ascii: "g"):
                guard index < bytes.count else { break }
                let name = Int(bytes[index])
                index += 1
                let isDynamic = name >= 97 && name <= 122, isFixed = name >= 65 && name <= 90
                guard isDynamic || isFixed else { break }
                let slot = isDynamic ? name - 97 : name - 65
                if dynamic.isEmpty {
                    dynamic = [Int](repeating: 0, count: 26)
                    fixed = [Int](repeating: 0, count: 26)
                }
                if code == UInt8(ascii: "P") {
                    let value = pop()
                    if isDynamic { dynamic[slot] = value } else { fixed[slot] = value }
                } else {
                    push(isDynamic ? dynamic[slot] : fixed[slot])
                }
            case UInt8(ascii: "'"):
                if index < bytes.count { push(Int(bytes[index])) }
                index += 2
            case UInt8(ascii: "{"):
                var value = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    value = value &* 10 &+ Int(bytes[index]) - 48
                    index += 1
                }
                index += 1
                push(value)
            case UInt8(ascii: "i"):
                p1 += 1
                p2 += 1
            case UInt8(ascii: "c"): out.append(UInt8(truncatingIfNeeded: pop()))
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "m"),
                UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "="), UInt8(ascii: "<"),
                UInt8(ascii: ">"), UInt8(ascii: "A"), UInt8(ascii: "O"):
                let b = pop(), a = pop()
                switch code {
                case UInt8(ascii: "+"): push(a &+ b)
                case UInt8(ascii: "-"): push(a &- b)
                case UInt8(ascii: "*"): push(a &* b)
                case UInt8(ascii: "/"): push(b == 0 ? 0 : a / b)
                case UInt8(ascii: "m"): push(b == 0 ? 0 : a % b)
                case UInt8(ascii: "&"): push(a & b)
                case UInt8(ascii: "|"): push(a | b)
                case UInt8(ascii: "^"): push(a ^ b)
                case UInt8(ascii: "="): push(a == b ? 1 : 0)
                case UInt8(ascii: "<"): push(a < b ? 1 : 0)
                case UInt8(ascii: ">"): push(a > b ? 1 : 0)
                case UInt8(ascii: "A"): push(a != 0 && b != 0 ? 1 : 0)
                default: push(a != 0 || b != 0 ? 1 : 0)
                }
            case UInt8(ascii: "!"): push(pop() == 0 ? 1 : 0)
            case UInt8(ascii: "~"): push(~pop())
            case UInt8(ascii: "?"): break
            case UInt8(ascii: "t"): if pop() == 0 { skip(stopAtElse: true) }
            case UInt8(ascii: "e"): skip(stopAtElse: false) // the branch taken has ended
            case UInt8(ascii: ";"): break
            default:
                // A printf-like conversion: `%[:][flags][width][.precision](d|o|x|X|s)`.
                var cursor = index - 1
                if bytes[cursor] == UInt8(ascii: ":") { cursor += 1 }
                var zeroPad = false, width = 0
                while cursor < bytes.count,
                    [
                        UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "#"),
                        UInt8(ascii: " "), UInt8(ascii: "0"),
                    ].contains(bytes[cursor])
                {
                    if bytes[cursor] == UInt8(ascii: "0") { zeroPad = true }
                    cursor += 1
                }
                while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 {
                    width = width * 10 + Int(bytes[cursor]) - 48
                    cursor += 1
                }
                if cursor < bytes.count, bytes[cursor] == UInt8(ascii: ".") {
                    cursor += 1
                    while cursor < bytes.count, bytes[cursor] >= 48, bytes[cursor] <= 57 { cursor += 1 }
                }
                guard cursor < bytes.count else { index = cursor; break }
                let conversion = bytes[cursor]
                index = cursor + 1
                let radix: Int
                switch conversion {
                case UInt8(ascii: "d"): radix = 10
                case UInt8(ascii: "o"): radix = 8
                case UInt8(ascii: "x"), UInt8(ascii: "X"): radix = 16
                default: continue
                }
                let value = pop()
                // The digits, written from the right into a small buffer without making a String.
                var magnitude = value.magnitude, count = 0
                var digits: (UInt64, UInt64, UInt64) = (0, 0, 0) // room for 24 digits, one per byte
                repeat {
                    let digit = UInt8(magnitude % UInt(radix))
                    let letter = conversion == UInt8(ascii: "X") ? UInt8(ascii: "A") : UInt8(ascii: "a")
                    let byte = digit < 10 ? 48 + digit : letter + digit - 10
                    withUnsafeMutableBytes(of: &digits) { $0[count] = byte }
                    count += 1
                    magnitude /= UInt(radix)
                } while magnitude > 0 && count < 24
                let padding = max(0, width - count - (value < 0 ? 1 : 0))
                if !zeroPad { out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: padding)) }
                if value < 0 { out.append(UInt8(ascii: "-")) }
                if zeroPad { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: padding)) }
                withUnsafeBytes(of: &digits) { buffer in
                    for position in stride(from: count - 1, through: 0, by: -1) { out.append(buffer[position]) }
                }
            }
        }
    }
}
