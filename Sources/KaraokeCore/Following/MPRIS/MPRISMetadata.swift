/// Reading an MPRIS player's `Metadata` property (DESIGN §12.2).
public enum MPRISMetadata {
    /// The track id MPRIS players give when they have no track.
    public static let noTrackID = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// The track `metadata` describes: `mpris:trackid`, `xesam:title`, `xesam:artist` (a list joined with
    /// ", "), `xesam:album`, `mpris:length` (microseconds), and `xesam:url` (a `file://` URL becomes `file`,
    /// any other `location`). Nil when it describes no track (empty, or only the NoTrack id).
    ///
    /// A player that gives no track id (some do not) gets one made of the URL, else the title and artist,
    /// so that a change of track is still a change of id.
    public static func track(from metadata: [String: MPRISValue]) -> FollowedTrack? {
        let trackID = metadata["mpris:trackid"]?.text.flatMap { $0 == noTrackID || $0.isEmpty ? nil : $0 }
        let title = nonEmpty(metadata["xesam:title"]?.text)
        let artist = nonEmpty(metadata["xesam:artist"]?.texts?.filter { !$0.isEmpty }.joined(separator: ", "))
        let album = nonEmpty(metadata["xesam:album"]?.text)
        let url = nonEmpty(metadata["xesam:url"]?.text)
        let length = metadata["mpris:length"]?.number.flatMap { $0 > 0 ? $0 / 1_000_000 : nil }
        guard title != nil || url != nil, let id = trackID ?? url ?? title.map({ "\($0)\u{1F}\(artist ?? "")" })
        else { return nil }
        var track = FollowedTrack(id: id, title: title, artist: artist, album: album, length: length)
        if let url {
            if let path = filePath(fromURL: url) {
                track.file = path
            } else {
                track.location = url
            }
        }
        return track
    }

    /// The local path of a `file://` URL (`file:///a%20b.flac` → `/a b.flac`, host empty or `localhost`),
    /// percent escapes decoded; nil for any other URL, a remote host, a bad escape or an escaped NUL.
    public static func filePath(fromURL url: String) -> String? {
        let bytes = Array(url.utf8)
        let scheme = Array("file://".utf8)
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ lowercased($0) == $1 })
        else { return nil }
        var rest = bytes[scheme.count...]
        if let slash = rest.firstIndex(of: UInt8(ascii: "/")) {
            let host = rest[rest.startIndex..<slash]
            guard host.isEmpty || host.map(lowercased).elementsEqual("localhost".utf8) else { return nil }
            rest = rest[slash...]
        } else {
            return nil
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(rest.count)
        var index = rest.startIndex
        while index < rest.endIndex {
            let byte = rest[index]
            // A query or fragment is not part of a file's path.
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "%") {
                guard index + 2 < rest.endIndex, let high = hexValue(rest[index + 1]),
                    let low = hexValue(rest[index + 2])
                else { return nil }
                let value = high << 4 | low
                guard value != 0 else { return nil }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(byte)
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// Whether `text` is a D-Bus object path: `/`, or `/` followed by elements of ASCII letters, digits
    /// and `_`, separated by single `/`, with none at the end. `SetPosition` needs one, and some players
    /// give a track id that is not (a plain string such as `spotify:track:…`).
    public static func isObjectPath(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "/") else { return false }
        if bytes.count == 1 { return true }
        var previousWasSlash = false
        for byte in bytes {
            if byte == UInt8(ascii: "/") {
                if previousWasSlash { return false }
                previousWasSlash = true
                continue
            }
            previousWasSlash = false
            let allowed =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
            if !allowed { return false }
        }
        return !previousWasSlash
    }

    /// `text`, or nil when it is missing or empty.
    private static func nonEmpty(_ text: String?) -> String? {
        guard let text, !text.isEmpty else { return nil }
        return text
    }

    /// An ASCII letter in lower case; any other byte as it is.
    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// A hexadecimal digit's value.
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
