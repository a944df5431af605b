import Testing
@testable import KaraokeCore

@Suite("The sync command line")
struct SyncCommandLineTests {
    @Test(
        "OUT defaults to FILE's name with .lrc, in FILE's folder",
        arguments: [
            ("song.txt", "song.lrc"),
            ("lyrics/old.srt", "lyrics/old.lrc"),
            // FILE already .lrc: OUT is FILE itself, which sync refuses without --force
            ("lyrics/song.lrc", "lyrics/song.lrc"),
            // a dot in a folder's name, or one that starts the name, is no extension
            ("v1.2/song", "v1.2/song.lrc"),
            (".hidden", ".hidden.lrc"),
        ])
    func defaultOutput(file: String, output: String) {
        #expect(SyncRequest(file: file).outputPath == output)
        #expect(SyncRequest(file: file).autosavePath == output + ".autosave")
    }

    @Test("the options set the request, the shared ones included")
    func optionsSetTheRequest() throws {
        let invocation = try CommandLineParser.parse([
            "sync", "song.txt", "--audio", "song.ogg", "-o", "out.lrc", "--words", "--force", "--latency", "120",
            "--no-resume", "--mpv-option", "ao=null",
        ])
        var expected = SyncRequest(file: "song.txt")
        expected.audio = "song.ogg"
        expected.output = "out.lrc"
        expected.words = true
        expected.force = true
        expected.latency = 120
        expected.resume = false
        expected.mpvOptions = ["ao=null"]
        #expect(invocation == .sync(expected))
    }

    @Test(
        "a sync command line that cannot run says why",
        arguments: [
            (["sync"], "'sync' needs a FILE"),
            (["sync", "a.txt", "--resume", "--no-resume"], "'--resume' and '--no-resume' contradict each other"),
            (["sync", "a.txt", "-o", "-"], "'sync' writes a file; '-o -' (stdout) is not one"),
            (["sync", "a.txt", "--calibrate"], "'--calibrate' takes no FILE: it plays its own clicks"),
            (
                ["sync", "a.txt", "--latency", "-5"],
                "bad value '-5' for '--latency'; expected a whole number from 0 to 2000"
            ),
        ])
    func refused(arguments: [String], message: String) {
        #expect(usageMessage(arguments) == message)
    }

    @Test("--calibrate alone is a calibration")
    func calibrate() throws {
        guard case .sync(let request) = try CommandLineParser.parse(["sync", "--calibrate"]) else {
            Issue.record("not a sync request")
            return
        }
        #expect(request.calibrates)
    }
}
