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

    /// The string with `parameters` substituted.
    public func expanded(_ parameters: Int...) -> [UInt8] { expanded(parameters) }

    /// The string with `parameters` substituted.
    public func expanded(_ parameters: [Int]) -> [UInt8] {
        guard bytes.contains(UInt8(ascii: "%")) else { return bytes }
        var params = parameters + Array(repeating: 0, count: max(0, 9 - parameters.count))
        var stack: [Int] = []
        var dynamic = [Int](repeating: 0, count: 26), fixed = [Int](repeating: 0, count: 26)
        var out: [UInt8] = []
        var index = 0
        func pop() -> Int { stack.popLast() ?? 0 }
        /// Moves `index` past the `%e` or `%;` that ends the branch being skipped (nested `%?` counted).
        func skip(stopAtElse: Bool) {
            var depth = 0
            while index + 1 < bytes.count {
                if bytes[index] != UInt8(ascii: "%") { index += 1; continue }
                let code = bytes[index + 1]
                index += 2
                switch code {
                case UInt8(ascii: "?"): depth += 1
                case UInt8(ascii: ";"):
                    if depth == 0 { return }
                    depth -= 1
                case UInt8(ascii: "e") where depth == 0 && stopAtElse: return
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
                if index < bytes.count, case let n = Int(bytes[index]) - 49, n >= 0, n < 9 { stack.append(params[n]) }
                index += 1
            case UInt8(ascii: "P"), UInt8(ascii: "g"):
                guard index < bytes.count else { break }
                let name = Int(bytes[index])
                index += 1
                let isDynamic = name >= 97 && name <= 122, isFixed = name >= 65 && name <= 90
                guard isDynamic || isFixed else { break }
                let slot = isDynamic ? name - 97 : name - 65
                if code == UInt8(ascii: "P") {
                    let value = pop()
                    if isDynamic { dynamic[slot] = value } else { fixed[slot] = value }
                } else {
                    stack.append(isDynamic ? dynamic[slot] : fixed[slot])
                }
            case UInt8(ascii: "'"):
                if index < bytes.count { stack.append(Int(bytes[index])) }
                index += 2
            case UInt8(ascii: "{"):
                var value = 0
                while index < bytes.count, bytes[index] != UInt8(ascii: "}") {
                    value = value &* 10 &+ Int(bytes[index]) - 48
                    index += 1
                }
                index += 1
                stack.append(value)
            case UInt8(ascii: "i"):
                params[0] += 1
                params[1] += 1
            case UInt8(ascii: "c"): out.append(UInt8(truncatingIfNeeded: pop()))
            case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "*"), UInt8(ascii: "/"), UInt8(ascii: "m"),
                 UInt8(ascii: "&"), UInt8(ascii: "|"), UInt8(ascii: "^"), UInt8(ascii: "="), UInt8(ascii: "<"),
                 UInt8(ascii: ">"), UInt8(ascii: "A"), UInt8(ascii: "O"):
                let b = pop(), a = pop()
                switch code {
                case UInt8(ascii: "+"): stack.append(a &+ b)
                case UInt8(ascii: "-"): stack.append(a &- b)
                case UInt8(ascii: "*"): stack.append(a &* b)
                case UInt8(ascii: "/"): stack.append(b == 0 ? 0 : a / b)
                case UInt8(ascii: "m"): stack.append(b == 0 ? 0 : a % b)
                case UInt8(ascii: "&"): stack.append(a & b)
                case UInt8(ascii: "|"): stack.append(a | b)
                case UInt8(ascii: "^"): stack.append(a ^ b)
                case UInt8(ascii: "="): stack.append(a == b ? 1 : 0)
                case UInt8(ascii: "<"): stack.append(a < b ? 1 : 0)
                case UInt8(ascii: ">"): stack.append(a > b ? 1 : 0)
                case UInt8(ascii: "A"): stack.append(a != 0 && b != 0 ? 1 : 0)
                default: stack.append(a != 0 || b != 0 ? 1 : 0)
                }
            case UInt8(ascii: "!"): stack.append(pop() == 0 ? 1 : 0)
            case UInt8(ascii: "~"): stack.append(~pop())
            case UInt8(ascii: "?"): break
            case UInt8(ascii: "t"): if pop() == 0 { skip(stopAtElse: true) }
            case UInt8(ascii: "e"): skip(stopAtElse: false) // the branch taken has ended
            case UInt8(ascii: ";"): break
            default:
                // A printf-like conversion: `%[:][flags][width][.precision](d|o|x|X|s)`.
                var cursor = index - 1
                if bytes[cursor] == UInt8(ascii: ":") { cursor += 1 }
                var zeroPad = false, width = 0
                while cursor < bytes.count, [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "#"),
                                             UInt8(ascii: " "), UInt8(ascii: "0")].contains(bytes[cursor]) {
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
                var digits = Array(String(abs(value), radix: radix, uppercase: conversion == UInt8(ascii: "X")).utf8)
                if value < 0 { digits.insert(UInt8(ascii: "-"), at: 0) }
                if digits.count < width {
                    out += [UInt8](repeating: zeroPad ? UInt8(ascii: "0") : UInt8(ascii: " "), count: width - digits.count)
                }
                out += digits
            }
        }
        return out
    }
}
