import CDBus
import Glibc
import KaraokeCore

/// A private connection to a D-Bus bus through libdbus-1 (DESIGN §12.2), used by one thread only.
///
/// Private rather than libdbus's shared connection, so that closing it is ours to do and nothing else in
/// the process sees its messages.
final class SessionBus {
    /// Why the bus could not be reached or asked.
    struct Failure: Error {
        var message: String
    }

    /// One argument of a method call.
    enum Argument {
        case string(String)
        case objectPath(String)
        case int64(Int64)
    }

    private let connection: UnsafeMutableRawPointer
    /// The connection's socket, to poll for reading.
    let descriptor: Int32

    /// Loads libdbus-1 on first use; nil when it is ready, else the loader's message, which names the Debian
    /// package.
    static func loadLibrary() -> String? {
        kk_dbus_load().map { String(cString: $0) }
    }

    /// Connects to the bus at `address` (as in `DBUS_SESSION_BUS_ADDRESS`) and registers with it.
    static func open(address: String) -> Result<SessionBus, Failure> {
        let (opened, reason) = SessionBus.withReason { kk_dbus_open(address, $0, $1) }
        guard let opened else { return .failure(Failure(message: reason)) }
        return .success(SessionBus(connection: opened))
    }

    /// Wraps an open connection.
    private init(connection: UnsafeMutableRawPointer) {
        self.connection = connection
        descriptor = kk_dbus_fd(connection)
    }

    deinit { kk_dbus_close(connection) }

    /// Has the bus route the signals `rule` matches to this connection.
    func addMatch(_ rule: String) throws(Failure) {
        let (result, reason) = SessionBus.withReason { kk_dbus_add_match(connection, rule, $0, $1) }
        guard result == 0 else { throw Failure(message: reason) }
    }

    /// Calls `method` and waits up to `timeout` milliseconds for the reply; signals that arrive meanwhile
    /// stay queued for `nextMessage`.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [Argument] = [],
        timeout: Int32 = 1000
    ) -> Result<BusMessage, Failure> {
        guard let message = SessionBus.message(destination, path, interface, method, arguments) else {
            return .failure(Failure(message: "cannot make the call \(method)"))
        }
        let (reply, reason) = SessionBus.withReason { kk_dbus_call(connection, message, timeout, $0, $1) }
        guard let reply else { return .failure(Failure(message: reason)) }
        return .success(BusMessage(reply))
    }

    /// Sends `method` without waiting; its reply comes through `nextMessage` with the serial returned
    /// (nil when it could not be sent).
    func send(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [Argument] = []
    ) -> UInt32? {
        guard let message = SessionBus.message(destination, path, interface, method, arguments) else { return nil }
        let serial = kk_dbus_send(connection, message)
        return serial == 0 ? nil : serial
    }

    /// Reads what the socket has (without waiting) and returns the next whole message, if any, and whether
    /// the connection is still up.
    func nextMessage() -> (message: BusMessage?, connected: Bool) {
        var connected: Int32 = 1
        let message = kk_dbus_pop(connection, &connected)
        return (message.map(BusMessage.init), connected != 0)
    }

    /// Runs `body` with a buffer (and its size) for the reason a call fails, and returns its result with
    /// the text written there.
    private static func withReason<Result>(
        _ body: (UnsafeMutablePointer<CChar>, Int) -> Result
    ) -> (Result, String) {
        let size = 512
        let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
        defer { buffer.deallocate() }
        buffer.initialize(repeating: 0, count: size)
        let result = body(buffer, size)
        let bytes = UnsafeRawBufferPointer(start: buffer, count: strnlen(buffer, size))
        return (result, String(decoding: bytes, as: UTF8.self))
    }

    /// A new method call with `arguments` appended; nil when one is not valid (libdbus would abort on it).
    private static func message(
        _ destination: String, _ path: String, _ interface: String, _ method: String, _ arguments: [Argument]
    ) -> UnsafeMutableRawPointer? {
        guard let message = kk_dbus_method_call(destination, path, interface, method) else { return nil }
        for argument in arguments {
            let appended: Int32
            switch argument {
            case .string(let text): appended = kk_dbus_append_string(message, text)
            case .objectPath(let path): appended = kk_dbus_append_object_path(message, path)
            case .int64(let value): appended = kk_dbus_append_int64(message, value)
            }
            guard appended != 0 else {
                kk_dbus_unref(message)
                return nil
            }
        }
        return message
    }
}

/// One message from the bus: a reply, an error or a signal; freed with the object.
final class BusMessage {
    private let pointer: UnsafeMutableRawPointer

    /// Takes ownership of a message libdbus returned.
    init(_ pointer: UnsafeMutableRawPointer) {
        self.pointer = pointer
    }

    deinit { kk_dbus_unref(pointer) }

    /// Whether it is a signal.
    var isSignal: Bool { kk_dbus_message_type(pointer) == Int32(KK_DBUS_SIGNAL) }
    /// Whether it is an error reply.
    var isError: Bool { kk_dbus_message_type(pointer) == Int32(KK_DBUS_ERROR) }
    /// Whether it is a method's (successful) reply.
    var isReply: Bool { kk_dbus_message_type(pointer) == Int32(KK_DBUS_METHOD_RETURN) }
    /// The interface of a signal.
    var interface: String { String(cString: kk_dbus_interface(pointer)) }
    /// The member (signal or method name).
    var member: String { String(cString: kk_dbus_member(pointer)) }
    /// The object path of a signal.
    var path: String { String(cString: kk_dbus_path(pointer)) }
    /// The sender's unique name.
    var sender: String { String(cString: kk_dbus_sender(pointer)) }
    /// An error reply's name.
    var errorName: String { String(cString: kk_dbus_error_name(pointer)) }
    /// The serial of the call a reply answers.
    var replySerial: UInt32 { kk_dbus_reply_serial(pointer) }

    /// The arguments, decoded.
    func arguments() -> [MPRISValue] {
        var iterator = kk_dbus_iter()
        guard kk_dbus_iter_start(pointer, &iterator) != 0 else { return [] }
        var values: [MPRISValue] = []
        repeat {
            values.append(BusMessage.decode(&iterator))
        } while kk_dbus_iter_next(&iterator) != 0
        return values
    }

    /// The value at `iterator`: variants unwrapped, arrays of dictionary entries as dictionaries.
    private static func decode(_ iterator: inout kk_dbus_iter) -> MPRISValue {
        let type = kk_dbus_iter_type(&iterator)
        switch UInt8(truncatingIfNeeded: type) {
        case UInt8(ascii: "v"):
            var inner = kk_dbus_iter()
            kk_dbus_iter_enter(&iterator, &inner)
            return decode(&inner)
        case UInt8(ascii: "a"), UInt8(ascii: "r"), UInt8(ascii: "e"):
            var inner = kk_dbus_iter()
            kk_dbus_iter_enter(&iterator, &inner)
            var items: [MPRISValue] = []
            var entries: [String: MPRISValue] = [:]
            var isDictionary = false
            while kk_dbus_iter_type(&inner) != 0 {
                if kk_dbus_iter_type(&inner) == Int32(UInt8(ascii: "e")) {
                    isDictionary = true
                    var entry = kk_dbus_iter()
                    kk_dbus_iter_enter(&inner, &entry)
                    let key = decode(&entry)
                    kk_dbus_iter_next(&entry)
                    if let key = key.text { entries[key] = decode(&entry) }
                } else {
                    items.append(decode(&inner))
                }
                if kk_dbus_iter_next(&inner) == 0 { break }
            }
            return isDictionary ? .dictionary(entries) : .array(items)
        default:
            var basic = kk_dbus_basic()
            guard kk_dbus_read_basic(&iterator, &basic) != 0 else { return .unreadable }
            switch UInt8(truncatingIfNeeded: basic.type) {
            case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"): return .string(String(cString: basic.text))
            case UInt8(ascii: "b"): return .boolean(basic.unsigned_integer != 0)
            case UInt8(ascii: "d"): return .double(basic.real)
            case UInt8(ascii: "n"), UInt8(ascii: "i"), UInt8(ascii: "x"): return .integer(basic.integer)
            default: return .unsigned(basic.unsigned_integer)
            }
        }
    }
}
