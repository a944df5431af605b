import CQREncode
import KaraokeCore

/// Encodes a text as a QR code through libqrencode, loaded on first use (DESIGN §22.1).
///
/// The text is encoded whole as UTF-8 bytes (8-bit mode) at error correction level M, in the smallest version
/// that holds it; the modules are copied out, so nothing of libqrencode's is kept.
public enum QREncoder {
    /// Why a text has no QR code.
    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// libqrencode cannot be loaded: the loader's message, naming the Debian package (`libqrencode4`).
        case unavailable(String)
        /// libqrencode refused the text (too long for version 40, or with a NUL, which a C string cannot hold).
        case refused(String)

        /// The message, control characters removed.
        public var description: String {
            switch self {
            case .unavailable(let message), .refused(let message): message
            }
        }
    }

    /// Loads libqrencode if this is the first call; throws `Failure.unavailable` when it cannot be loaded.
    public static func load() throws(Failure) {
        if let message = kk_qrencode_load() {
            throw .unavailable(ControlCharacters.strip(String(cString: message)))
        }
    }

    /// The QR code of `text`: its modules, version 1…40 by the text's length.
    public static func encode(_ text: String) throws(Failure) -> QRModules {
        try load()
        if text.utf8.contains(0) { throw .refused("a QR code's text cannot hold a NUL character") }
        let capacity = Int(KK_QRENCODE_MAX_WIDTH) * Int(KK_QRENCODE_MAX_WIDTH)
        var modules = [UInt8](repeating: 0, count: capacity)
        var reason = [CChar](repeating: 0, count: 256)
        let width = Int(
            kk_qrencode_encode(text, &modules, capacity, &reason, reason.count))
        guard width > 0 else {
            throw .refused(
                ControlCharacters.strip(
                    String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)))
        }
        return QRModules(width: width, dark: modules.prefix(width * width).map { $0 != 0 })
    }
}
