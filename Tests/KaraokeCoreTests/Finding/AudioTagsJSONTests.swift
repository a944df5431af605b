import Testing
@testable import KaraokeCore

/// Reads `text` as the tag helper's JSON.
private func tags(_ text: String) throws(AudioTags.JSONFailure) -> AudioTags {
    try AudioTags(json: Array(text.utf8))
}

@Suite("Reading the tag helper's JSON")
struct AudioTagsJSONTests {
    @Test("every member is read into the tags")
    func everyMember() throws {
        let read = try tags(
            #"""
            {"title":"Lantern","artist":"Ann","album":"Rivers","duration":183.5,
             "synced":[{"ms":1000,"text":"one"},{"ms":2000,"text":"two"}],"syncedSource":"SYLT",
             "texts":[{"source":"USLT","text":"[00:01.00]one"}],"notes":["a note"]}
            """#)
        #expect(read.title == "Lantern")
        #expect(read.artist == "Ann")
        #expect(read.album == "Rivers")
        #expect(read.duration == 183.5)
        #expect(read.syncedLines == [.init(milliseconds: 1000, text: "one"), .init(milliseconds: 2000, text: "two")])
        #expect(read.lyricTexts == [.init(source: "USLT", text: "[00:01.00]one")])
        #expect(read.notes == ["a note"])
    }

    @Test(
        "missing and null members mean the file does not say",
        arguments: [
            "{}",
            #"{"title":null,"artist":null,"album":null,"duration":null,"synced":null,"texts":null,"notes":null}"#,
        ])
    func missingMembers(text: String) throws {
        #expect(try tags(text) == AudioTags())
    }

    @Test(
        "an answer of the wrong shape is refused with the member it names",
        arguments: [
            ("", "malformed JSON"), // the helper printed nothing
            ("[1]", "not a JSON object"),
            (#"{"title":1}"#, "'title' is not a string"),
            (#"{"artist":["a"]}"#, "'artist' is not a string"),
            (#"{"duration":"3:00"}"#, "'duration' is not a number"),
            (#"{"synced":{}}"#, "'synced' is not a list"),
            (#"{"texts":"la"}"#, "'texts' is not a list"),
            (#"{"synced":[{"ms":"1000","text":"a"}]}"#, "synced line 1 has no time"),
            (#"{"synced":[{"ms":-5,"text":"a"}]}"#, "synced line 1 has no time"), // before the song
            (#"{"synced":[{"ms":1.5,"text":"a"}]}"#, "synced line 1 has no time"), // not whole
            (#"{"synced":[{"ms":1e300,"text":"a"}]}"#, "synced line 1 has no time"), // past 100 h
            (#"{"synced":[{"ms":1}]}"#, "synced line 1 has no 'text'"),
            (#"{"texts":[{"text":"a"}]}"#, "lyric text 1 has no 'source' or 'text'"),
            (#"{"notes":[7]}"#, "a note is not a string"),
            (#"{"title":"a"} trailing"#, "malformed JSON"),
        ])
    func wrongShape(text: String, reason: String) {
        #expect(throws: AudioTags.JSONFailure.self) { try tags(text) }
        do {
            _ = try tags(text)
        } catch {
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test(
        "a duration outside 0…100 h is dropped, not used",
        arguments: ["-1", "1e12", "360001"])
    func durationOutOfRange(number: String) throws {
        #expect(try tags(#"{"duration":\#(number)}"#).duration == nil)
    }

    @Test("more synced lines than the cap keep the first ones and say so")
    func syncedLinesCapped() throws {
        let count = AudioTags.maximumSyncedLines + 5
        var text = #"{"synced":["#
        for index in 0..<count { text += (index == 0 ? "" : ",") + #"{"ms":\#(index),"text":"x"}"# }
        text += "]}"
        let read = try tags(text)
        #expect(read.syncedLines.count == AudioTags.maximumSyncedLines)
        #expect(read.syncedLines.last?.milliseconds == AudioTags.maximumSyncedLines - 1)
        #expect(read.notes.contains { $0.contains("synced lines") })
    }

    @Test("more lyric texts than the cap keep the first ones and say so")
    func lyricTextsCapped() throws {
        let entries = (0..<(AudioTags.maximumLyricTexts + 1)).map { #"{"source":"USLT","text":"\#($0)"}"# }
        let read = try tags(#"{"texts":[\#(entries.joined(separator: ","))]}"#)
        #expect(read.lyricTexts.count == AudioTags.maximumLyricTexts)
        #expect(read.notes.contains { $0.contains("lyric texts") })
    }

    @Test("escaped control characters arrive as they are; notes lose theirs")
    func controlCharacters() throws {
        let read = try tags(#"{"title":"a\u001b[2Jb","notes":["x\u001b]52;c;y"]}"#)
        #expect(read.title == "a\u{1B}[2Jb") // sanitised where it is shown, as lyric text is
        #expect(read.notes == ["x]52;c;y"])
    }
}
