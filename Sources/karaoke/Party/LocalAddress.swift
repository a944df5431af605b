import Glibc
import KaraokeCore

/// The machine's address on the local network, for the guests' link on the card (DESIGN §21).
enum LocalAddress {
    /// The IPv4 address guests can reach: that of the interface the default route leaves by (a bridge for
    /// containers is up too, but no phone reaches it), else of the first interface that is up and not the
    /// loopback, by name order (so the same machine shows the same address each evening); nil when there is none.
    static func lan() -> String? {
        let addresses = interfaceAddresses()
        if let route = defaultRouteInterface(), let address = addresses.first(where: { $0.name == route }) {
            return address.address
        }
        return addresses.min { $0.name < $1.name }?.address
    }

    /// The interface of the default IPv4 route, from `/proc/net/route` (its destination 00000000); nil when the
    /// machine has none.
    static func defaultRouteInterface() -> String? {
        guard case .success(let bytes) = LyricFile.read("/proc/net/route", maxSize: 1_048_576) else { return nil }
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n").dropFirst() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count > 1, fields[1] == "00000000" { return String(fields[0]) }
        }
        return nil
    }

    /// The IPv4 addresses of the interfaces that are up and not the loopback.
    private static func interfaceAddresses() -> [(name: String, address: String)] {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return [] }
        defer { freeifaddrs(first) }
        var found: [(name: String, address: String)] = []
        var next = first
        while let entry = next {
            defer { next = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0,
                let socketAddress = entry.pointee.ifa_addr, socketAddress.pointee.sa_family == sa_family_t(AF_INET)
            else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            let written = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                var inet = address.pointee.sin_addr
                return inet_ntop(AF_INET, &inet, &text, socklen_t(text.count))
            }
            guard written != nil else { continue }
            let address = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            found.append((String(cString: entry.pointee.ifa_name), address))
        }
        return found
    }

    /// The guests' link: `http://ADDRESS:PORT/`, ADDRESS being `--bind`'s when it names one address, else the
    /// machine's LAN address, else the loopback (a machine without a network still lets its own browser in).
    static func guestLink(bind: String?, port: Int) -> String {
        let host = bind.flatMap { $0 == "0.0.0.0" ? nil : $0 } ?? lan() ?? "127.0.0.1"
        return "http://\(host):\(port)/"
    }
}
