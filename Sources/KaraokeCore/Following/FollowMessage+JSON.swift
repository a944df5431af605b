extension FollowMessage {
    /// The message as one line of JSON, without its line feed, for `karaoke follow --print` (DESIGN §12):
    /// `{"event":"report","at":…,"player":…,"state":…,"position":…,"rate":…,"track":{…}}`,
    /// `{"event":"gone","reason":…}` or `{"event":"notice","text":…}`.
    public func jsonLine() -> String {
        var output = "{\"event\":"
        switch self {
        case .report(let report, let at):
            output += "\"report\",\"at\":\(jsonNumber(at)),\"player\":"
            appendJSONString(report.player, to: &output)
            output += ",\"state\":\"\(report.playback.rawValue)\",\"position\":"
            output += report.position.map(jsonNumber) ?? "null"
            output += ",\"rate\":\(jsonNumber(report.rate)),\"track\":"
            if let track = report.track {
                output += "{\"id\":"
                appendJSONString(track.id, to: &output)
                let texts: [(String, String?)] = [
                    ("title", track.title), ("artist", track.artist), ("album", track.album), ("file", track.file),
                    ("location", track.location),
                ]
                for (key, value) in texts {
                    output += ",\"\(key)\":"
                    if let value { appendJSONString(value, to: &output) } else { output += "null" }
                }
                output += ",\"length\":" + (track.length.map(jsonNumber) ?? "null") + "}"
            } else {
                output += "null"
            }
        case .gone(let reason):
            output += "\"gone\",\"reason\":"
            appendJSONString(reason, to: &output)
        case .notice(let text):
            output += "\"notice\",\"text\":"
            appendJSONString(text, to: &output)
        }
        return output + "}"
    }
}
