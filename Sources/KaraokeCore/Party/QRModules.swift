/// A QR code's symbol as a square of modules, each dark or light, without its quiet zone (DESIGN §22.1).
///
/// The edge's encoder (libqrencode) makes one from a text; the core only draws it, so any square is allowed
/// here, also widths no QR version has, which the drawing's tests use.
public struct QRModules: Sendable, Equatable {
    /// Modules on a side.
    public let width: Int
    /// Whether each module is dark, row by row from the top left: `width` × `width` of them.
    public let dark: [Bool]

    /// A symbol of `width` × `width` modules from `dark`, row by row; `dark` must hold exactly that many.
    public init(width: Int, dark: [Bool]) {
        precondition(width >= 1 && dark.count == width * width, "a symbol is a square of modules")
        self.width = width
        self.dark = dark
    }

    /// Whether the module in column `x` and row `y` is dark; outside the symbol every module is light, as
    /// its quiet zone is.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, x < width, y >= 0, y < width else { return false }
        return dark[y * width + x]
    }

    /// The symbol's version, 1…40, from its width (version v is 17 + 4v modules wide); nil for a width no
    /// version has.
    public var version: Int? {
        let version = (width - 17) / 4
        return (1...40).contains(version) && QRModules.width(ofVersion: version) == width ? version : nil
    }

    /// The width in modules of a symbol of `version` (1…40), quiet zone excluded.
    public static func width(ofVersion version: Int) -> Int { 17 + 4 * version }
}
