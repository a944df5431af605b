/// mpv's JSON IPC, as karaoke speaks it: one JSON object per line each way.
///
/// Pure: it turns commands into lines and lines into events; the edge owns the socket.
public enum MpvProtocol {
    /// The properties karaoke observes, by the id mpv echoes back in each change.
    enum Observed: Int, CaseIterable {
        case timePosition = 1, duration, endReached

        var name: String {
            switch self {
            case .timePosition: return "time-pos"
            case .duration: return "duration"
            case .endReached: return "eof-reached"
            }
        }
    }

    /// The lines to send once connected: observe the position, the length and the end.
    public static var greeting: [String] {
        Observed.allCases.map { #"{"command":["observe_property",\#($0.rawValue),"\#($0.name)"]}"# }
    }

    /// The line that carries `command`.
    public static func line(for command: AudioCommand) -> String {
        switch command {
        case .setPaused(let paused): return #"{"command":["set_property","pause",\#(paused)]}"#
        case .seek(let seconds):
            return #"{"command":["seek",\#(number(seconds)),"absolute+exact"]}"#
        case .setVolume(let volume): return #"{"command":["set_property","volume",\#(volume)]}"#
        case .setMuted(let muted): return #"{"command":["set_property","mute",\#(muted)]}"#
        case .setAudioFilters(let filters):
            var quoted = ""
            appendJSONString(filters, to: &quoted)
            return #"{"command":["set_property","af",\#(quoted)]}"#
        case .setSpeed(let speed): return #"{"command":["set_property","speed",\#(number(speed))]}"#
        case .setAudioTrack(let track): return #"{"command":["set_property","aid",\#(track)]}"#
        }
    }

    /// The line that asks mpv to quit.
    public static let quit = #"{"command":["quit"]}"#

    /// The event a line from mpv carries, or nil for lines karaoke does not act on (replies, other events,
    /// anything that is not a JSON object).
    public static func event(from line: [UInt8]) -> AudioEvent? {
        guard let message = try? JSONValue.parse(line), case .object = message else { return nil }
        switch message["event"]?.string {
        case "property-change":
            guard let id = message["id"]?.integer, let property = Observed(rawValue: id) else { return nil }
            switch (property, message["data"]) {
            case (.timePosition, .number(let seconds)?): return .position(seconds)
            case (.duration, .number(let seconds)?): return .duration(seconds)
            case (.endReached, .bool(true)?): return .reachedEnd
            default: return nil
            }
        case "end-file":
            guard message["reason"]?.string == "error" else { return nil }
            return .failed(message["file_error"]?.string ?? "cannot play the file")
        default:
            return nil
        }
    }

    /// A number as JSON writes it, without exponent, to `decimals` places (1…9) for the positions,
    /// speeds and pitch scales karaoke sends.
    public static func number(_ value: Double, decimals: Int = 3) -> String {
        guard value.isFinite else { return "0" }
        let places = max(1, min(9, decimals))
        var unit = 1
        for _ in 0..<places { unit *= 10 }
        let scaled = Int((value * Double(unit)).rounded())
        let sign = scaled < 0 ? "-" : ""
        let magnitude = Int(scaled.magnitude)
        let fraction = String(magnitude % unit)
        return "\(sign)\(magnitude / unit).\(String(repeating: "0", count: places - fraction.count))\(fraction)"
    }
}
