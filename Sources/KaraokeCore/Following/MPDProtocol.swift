/// MPD's text protocol, as karaoke speaks it (DESIGN §12.3): the lines it reads and the commands it writes.
///
/// Pure: it turns lines into values and values into lines; `MPDSession` owns the socket.
public enum MPDProtocol {
    /// The player's name in reports.
    public static let playerName = "mpd"

    /// MPD's version from its greeting line `OK MPD 0.23.5`; nil when the line is not one.
    public static func version(fromGreeting line: [UInt8]) -> String? {
        let prefix = Array("OK MPD ".utf8)
        guard line.count > prefix.count, line.starts(with: prefix) else { return nil }
        let version = line[prefix.count...]
        guard version.allSatisfy({ ByteScanner.isDigit($0) || $0 == 0x2E }) else { return nil }
        return String(decoding: version, as: UTF8.self)
    }

    /// The refusal an `ACK [code@index] {command} message` line carries; nil when the line is not one.
    public static func refusal(from line: [UInt8]) -> MPDRefusal? {
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("ACK ") else { return nil }
        var rest = Substring(text.dropFirst(4))
        var code = 0, index = 0, command = ""
        // The bracket and the brace are MPD's; read them when they are there, keep the rest as the message.
        if rest.first == "[", let close = rest.firstIndex(of: "]") {
            let inside = rest[rest.index(after: rest.startIndex)..<close].split(separator: "@")
            if inside.count == 2 {
                code = Int(inside[0]) ?? 0
                index = Int(inside[1]) ?? 0
            }
            rest = rest[rest.index(after: close)...].drop(while: { $0 == " " })
        }
        if rest.first == "{", let close = rest.firstIndex(of: "}") {
            command = String(rest[rest.index(after: rest.startIndex)..<close])
            rest = rest[rest.index(after: close)...].drop(while: { $0 == " " })
        }
        return MPDRefusal(code: code, index: index, command: command, message: String(rest))
    }

    /// The `key: value` pair a response line holds; nil when it has no `: `.
    public static func field(from line: [UInt8]) -> MPDField? {
        guard let colon = line.firstIndex(of: 0x3A), colon > 0, colon + 1 < line.count, line[colon + 1] == 0x20
        else { return nil }
        return MPDField(
            key: String(decoding: line[..<colon], as: UTF8.self),
            value: String(decoding: line[(colon + 2)...], as: UTF8.self))
    }

    // MARK: Commands

    /// One command line, line feed included, each argument in double quotes with `"` and `\` escaped; nil
    /// when an argument holds a line feed or a NUL, which no quoting carries.
    public static func command(_ name: String, _ arguments: [String] = []) -> String? {
        var line = name
        for argument in arguments {
            guard !argument.utf8.contains(0x0A), !argument.utf8.contains(0) else { return nil }
            line += " \""
            for character in argument.unicodeScalars {
                if character == "\"" || character == "\\" { line += "\\" }
                line.unicodeScalars.append(character)
            }
            line += "\""
        }
        return line + "\n"
    }

    /// The command line that does `command` for a player now `playback` (`pause` needs to know which way).
    public static func line(for command: PlayerCommand, playback: FollowedPlayback) -> String {
        switch command {
        case .playPause:
            switch playback {
            case .playing: return "pause \"1\"\n"
            case .paused: return "pause \"0\"\n"
            case .stopped: return "play\n"
            }
        // seekcur takes `+N`/`-N` as relative to where MPD is now, a bare N as a position.
        case .jump(let seconds): return "seekcur \"\(seconds < 0 ? "" : "+")\(number(seconds))\"\n"
        case .seek(let seconds): return "seekcur \"\(number(max(0, seconds)))\"\n"
        case .next: return "next\n"
        case .previous: return "previous\n"
        }
    }

    /// Seconds as MPD reads them: plain decimals to the millisecond, no exponent.
    static func number(_ value: Double) -> String { MpvProtocol.number(value) }

    // MARK: Answers

    /// The first value of `key` among `fields`.
    static func value(_ key: String, in fields: [MPDField]) -> String? {
        fields.first(where: { $0.key == key })?.value
    }

    /// Whether MPD's file name is a URL (`http://…`, `nfs://…`): a scheme of letters, digits, `+`, `-`, `.`,
    /// then `://`.
    static func isURL(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard let colon = bytes.firstIndex(of: 0x3A), colon > 0, bytes[colon...].starts(with: Array("://".utf8))
        else { return false }
        return bytes[..<colon].allSatisfy {
            ByteScanner.isLetter($0) || ByteScanner.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E
        }
    }

    /// A non-negative, finite number of seconds; nil for anything else.
    static func seconds(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite, value >= 0 else { return nil }
        return value
    }

    /// The music folder from a `config` answer (`music_directory: /srv/music`), without a trailing slash;
    /// nil when it is not there.
    public static func musicDirectory(fromConfig fields: [MPDField]) -> String? {
        guard var folder = value("music_directory", in: fields), !folder.isEmpty else { return nil }
        while folder.count > 1 && folder.hasSuffix("/") { folder.removeLast() }
        return folder
    }

    /// The track a `currentsong` answer describes; nil when MPD has none (an empty answer).
    ///
    /// MPD names files relative to its music folder: with `musicDirectory` known, `file` is the full path;
    /// without it, or for a stream's URL, MPD's name goes to `location`.
    public static func track(fromCurrentSong fields: [MPDField], musicDirectory: String?) -> FollowedTrack? {
        guard let name = value("file", in: fields), !name.isEmpty else { return nil }
        let artists = fields.filter { $0.key == "Artist" }.map(\.value)
        var track = FollowedTrack(
            id: value("Id", in: fields) ?? name, title: value("Title", in: fields),
            artist: artists.isEmpty ? nil : artists.joined(separator: ", "), album: value("Album", in: fields),
            length: seconds(value("duration", in: fields)) ?? seconds(value("Time", in: fields)))
        let isURL = isURL(name)
        if !isURL, let folder = musicDirectory, !name.hasPrefix("/") {
            track.file = (folder == "/" ? "" : folder) + "/" + name
        } else if !isURL, name.hasPrefix("/") {
            // MPD plays absolute paths only for local clients; they are files as they stand.
            track.file = name
        } else {
            track.location = name
            // Not a stream but a file, in a folder karaoke was not told of.
            track.isInUnknownMusicFolder = !isURL
        }
        return track
    }
}

/// What MPD's `status` says about playback (DESIGN §12.3).
public struct MPDStatus: Sendable, Equatable {
    /// `state`: play, pause or stop.
    public var playback: FollowedPlayback
    /// `elapsed` (or the first half of the older `time: E:D`), seconds.
    public var elapsed: Double?
    /// `duration` (or the second half of `time`), seconds.
    public var duration: Double?
    /// `songid`: the current song's id in the queue.
    public var songID: String?

    /// A status with every field given.
    public init(playback: FollowedPlayback, elapsed: Double? = nil, duration: Double? = nil, songID: String? = nil) {
        self.playback = playback
        self.elapsed = elapsed
        self.duration = duration
        self.songID = songID
    }

    /// Reads a `status` answer; nil when it has no `state` karaoke knows.
    public init?(fields: [MPDField]) {
        switch MPDProtocol.value("state", in: fields) {
        case "play": playback = .playing
        case "pause": playback = .paused
        case "stop": playback = .stopped
        default: return nil
        }
        let time = MPDProtocol.value("time", in: fields)?.split(separator: ":").map(String.init) ?? []
        elapsed = MPDProtocol.seconds(MPDProtocol.value("elapsed", in: fields)) ?? MPDProtocol.seconds(time.first)
        duration =
            MPDProtocol.seconds(MPDProtocol.value("duration", in: fields))
            ?? (time.count == 2 ? MPDProtocol.seconds(time[1]) : nil)
        songID = MPDProtocol.value("songid", in: fields)
    }

    /// The report of this status and `track` (the position only while there is a song).
    public func report(track: FollowedTrack?) -> PlayerReport {
        var track = track
        if track?.length == nil { track?.length = duration }
        return PlayerReport(
            player: MPDProtocol.playerName, track: track, playback: playback,
            position: playback == .stopped ? nil : elapsed)
    }
}
