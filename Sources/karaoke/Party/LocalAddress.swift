import Glibc

/// The machine's address on the local network, for the guests' link on the card (DESIGN §21).
enum LocalAddress {
    /// The IPv4 address of the first interface that is up and not the loopback, by name order (so the same
    /// machine shows the same address each evening); nil when there is none.
    static func lan() -> String? {
        var first: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&first) == 0 else { return nil }
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
            found.append((String(cString: entry.pointee.ifa_name), String(cString: text)))
        }
        return found.min { $0.name < $1.name }?.address
    }

    /// The guests' link: `http://ADDRESS:PORT/`, ADDRESS being `--bind`'s when it names one address, else the
    /// machine's LAN address, else the loopback (a machine without a network still lets its own browser in).
    static func guestLink(bind: String?, port: Int) -> String {
        let host = bind.flatMap { $0 == "0.0.0.0" ? nil : $0 } ?? lan() ?? "127.0.0.1"
        return "http://\(host):\(port)/"
    }
}
