import Testing
@testable import KaraokeCore

/// The lines karaoke writes to mpv's IPC socket and how it reads mpv's.
@Suite("mpv's JSON IPC")
struct MpvProtocolTests {
    @Test(
        "commands are one JSON object each, with mpv's command names",
        arguments: [
            (AudioCommand.setPaused(true), #"{"command":["set_property","pause",true]}"#),
            (.seek(to: 12.5), #"{"command":["seek",12.500,"absolute+exact"]}"#),
            (.seek(to: 0.0004), #"{"command":["seek",0.000,"absolute+exact"]}"#),
            (.setVolume(85), #"{"command":["set_property","volume",85]}"#),
            (.setMuted(false), #"{"command":["set_property","mute",false]}"#),
        ])
    func commandLines(command: AudioCommand, line: String) {
        #expect(MpvProtocol.line(for: command) == line)
    }

    @Test("the greeting observes the position, the length and the end")
    func greeting() {
        #expect(
            MpvProtocol.greeting == [
                #"{"command":["observe_property",1,"time-pos"]}"#,
                #"{"command":["observe_property",2,"duration"]}"#,
                #"{"command":["observe_property",3,"eof-reached"]}"#,
            ])
    }

    @Test(
        "mpv's messages become events; replies and other events are nothing",
        arguments: [
            (
                #"{"event":"property-change","id":1,"name":"time-pos","data":12.345}"#,
                AudioEvent?.some(.position(12.345))
            ),
            (#"{"event":"property-change","id":2,"name":"duration","data":180.5}"#, .duration(180.5)),
            (#"{"event":"property-change","id":3,"name":"eof-reached","data":true}"#, .reachedEnd),
            (#"{"event":"property-change","id":3,"name":"eof-reached","data":false}"#, nil),
            (#"{"event":"property-change","id":1,"name":"time-pos"}"#, nil),
            (
                #"{"event":"end-file","reason":"error","playlist_entry_id":1,"file_error":"unrecognized file format"}"#,
                .failed("unrecognized file format")
            ),
            (#"{"event":"end-file","reason":"quit"}"#, nil),
            (#"{"data":null,"request_id":0,"error":"success"}"#, nil),
            (#"{"event":"property-change","id":9,"data":1}"#, nil),
            ("not json", nil),
            ("", nil),
        ])
    func events(line: String, event: AudioEvent?) {
        #expect(MpvProtocol.event(from: Array(line.utf8)) == event)
    }
}

/// Finding a song's audio beside its lyrics, and its lyrics beside its audio.
@Suite("Audio and lyric files that go together")
struct AudioFilesTests {
    @Test("audio candidates keep the folder and base name and try every common extension")
    func audioCandidates() {
        let candidates = AudioFiles.audioCandidates(forLyrics: "songs/Moon River.v2.lrc")
        #expect(candidates.first == "songs/Moon River.v2.mp3")
        #expect(candidates.contains("songs/Moon River.v2.flac"))
        #expect(candidates.contains("songs/Moon River.v2.OGG"))
        #expect(candidates.contains("songs/Moon River.v2.opus"))
        #expect(candidates.contains("songs/Moon River.v2.m4a"))
        #expect(candidates.contains("songs/Moon River.v2.wav"))
    }

    @Test("an audio file's lyrics: LRC first, then the other formats")
    func lyricCandidates() {
        let candidates = AudioFiles.lyricCandidates(forAudio: "a/b.flac")
        #expect(candidates.prefix(2) == ["a/b.lrc", "a/b.LRC"])
        #expect(candidates.contains("a/b.srt"))
    }

    @Test(
        "which names are audio",
        arguments: [
            ("x.mp3", true), ("x.FLAC", true), ("x.lrc", false),
            ("mp3", false), (".mp3", false), ("dir.mp3/x", false),
        ])
    func isAudio(path: String, expected: Bool) {
        #expect(AudioFiles.isAudio(path) == expected)
    }
}
