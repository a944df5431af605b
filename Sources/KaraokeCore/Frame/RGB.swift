/// A 24-bit colour.
public struct RGB: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Red, 0…255.
    public var red: UInt8
    /// Green, 0…255.
    public var green: UInt8
    /// Blue, 0…255.
    public var blue: UInt8

    /// Creates a colour from its channels.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Creates a colour from `0xRRGGBB`.
    public init(hex: UInt32) {
        self.init(UInt8(hex >> 16 & 0xFF), UInt8(hex >> 8 & 0xFF), UInt8(hex & 0xFF))
    }

    /// `0xRRGGBB`, the colour number ncurses uses in direct-colour mode.
    public var hexValue: UInt32 { UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue) }

    /// `#rrggbb`.
    public var description: String {
        let digits = Array("0123456789abcdef")
        var text = "#"
        for channel in [red, green, blue] {
            text.append(digits[Int(channel >> 4)])
            text.append(digits[Int(channel & 0xF)])
        }
        return text
    }

    /// The colour a fraction `amount` of the way from `self` to `other`, per channel, rounded.
    public func mixed(with other: RGB, _ amount: Double) -> RGB {
        let t = min(1, max(0, amount))
        func channel(_ a: UInt8, _ b: UInt8) -> UInt8 {
            UInt8((Double(a) + (Double(b) - Double(a)) * t).rounded())
        }
        return RGB(channel(red, other.red), channel(green, other.green), channel(blue, other.blue))
    }

    /// SwiftUI's system colours (light appearance), by the names `--colors` takes (DESIGN §4).
    public static let named: [(name: String, color: RGB)] = [
        ("pink", RGB(hex: 0xFF2D55)), ("orange", RGB(hex: 0xFF9500)), ("yellow", RGB(hex: 0xFFCC00)),
        ("mint", RGB(hex: 0x00C7BE)), ("cyan", RGB(hex: 0x32ADE6)), ("purple", RGB(hex: 0xAF52DE)),
        ("indigo", RGB(hex: 0x5856D6)), ("red", RGB(hex: 0xFF3B30)), ("green", RGB(hex: 0x34C759)),
        ("blue", RGB(hex: 0x007AFF)), ("teal", RGB(hex: 0x30B0C7)), ("brown", RGB(hex: 0xA2845E)),
        ("white", RGB(hex: 0xFFFFFF)), ("gray", RGB(hex: 0x8E8E93)), ("black", RGB(hex: 0x000000)),
    ]

    /// A colour from a name of `named` (any case) or `#rrggbb`; nil otherwise.
    public init?(parsing text: String) {
        let lowered = text.lowercased()
        if let entry = RGB.named.first(where: { $0.name == lowered }) {
            self = entry.color
            return
        }
        let digits = Array(lowered.utf8)
        guard digits.count == 7, digits[0] == UInt8(ascii: "#") else { return nil }
        var value: UInt32 = 0
        for digit in digits.dropFirst() {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(digit - 48)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(digit - 87)
            default: return nil
            }
        }
        self.init(hex: value)
    }
}
