/// One value of a D-Bus message as karaoke reads it (DESIGN §12.2): variants are unwrapped, object paths
/// and signatures are strings, arrays of dictionary entries with string keys are dictionaries.
public enum MPRISValue: Sendable, Equatable {
    /// A string, an object path or a signature.
    case string(String)
    /// A signed integer of any width.
    case integer(Int64)
    /// An unsigned integer of any width, or a byte.
    case unsigned(UInt64)
    /// A double.
    case double(Double)
    /// A boolean.
    case boolean(Bool)
    /// An array or a struct, in order.
    case array([MPRISValue])
    /// A dictionary (`a{sv}` and the like); keys that are not strings are dropped while decoding.
    case dictionary([String: MPRISValue])
    /// A type karaoke does not read (a file descriptor).
    case unreadable

    /// The string, when this is one.
    public var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    /// The number, whatever its D-Bus type (MPRIS players disagree on `mpris:length`'s: `x`, `t`, even `d`).
    public var number: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .unsigned(let value): return Double(value)
        case .double(let value): return value.isFinite ? value : nil
        default: return nil
        }
    }

    /// The strings of an array of strings, or a lone string as a list of one (some players send
    /// `xesam:artist` as a plain string although the specification says `as`).
    public var texts: [String]? {
        switch self {
        case .string(let text): return [text]
        case .array(let items): return items.compactMap(\.text)
        default: return nil
        }
    }

    /// The dictionary, when this is one; an empty array is an empty dictionary too, since an empty `a{sv}`
    /// has no entry to tell it from any other empty array.
    public var entries: [String: MPRISValue]? {
        switch self {
        case .dictionary(let entries): return entries
        case .array(let items) where items.isEmpty: return [:]
        default: return nil
        }
    }
}
