import Foundation
import Testing
@testable import KaraokeCore

/// A config file at a made-up path, read from `lines`.
private func config(_ lines: String...) -> ConfigFile {
    ConfigFile(path: "/home/ann/.config/karaoke/config", text: lines.joined(separator: "\n") + "\n")
}

/// The request `render` parses from `arguments` with `config` under them.
private func render(_ arguments: [String], _ config: ConfigFile) throws -> RenderRequest {
    let invocation = try CommandLineParser.parse(["render", "song.lrc", "--at", "1"] + arguments, config: config)
    guard case .render(let request) = invocation else { throw UnexpectedInvocation(invocation: invocation) }
    return request
}

/// The request `play` parses from `arguments` with `config` under them.
private func play(_ arguments: [String], _ config: ConfigFile?) throws -> PlayRequest {
    let invocation = try CommandLineParser.parse(["play"] + arguments, config: config)
    guard case .play(let request) = invocation else { throw UnexpectedInvocation(invocation: invocation) }
    return request
}

/// The config file `$XDG_CONFIG_HOME/karaoke/config`: settings under the command line (DESIGN §14.4).
@Suite("Config file: settings read at start, the command line over them")
struct ConfigFileTests {
    @Test("key = value lines are read in order; comments, blank lines and spaces around are ignored")
    func readsSettings() {
        let file = config(
            "# my settings", "", "  fps = 24  ", "align=left", "\treduce-motion = true\r", "colors = #ff0000,mint")
        #expect(file.warnings.isEmpty)
        #expect(
            file.settings == [
                .init(option: "--fps", value: "24", line: 3), .init(option: "--align", value: "left", line: 4),
                .init(option: "--reduce-motion", value: "true", line: 5),
                .init(option: "--colors", value: "#ff0000,mint", line: 6),
            ])
    }

    @Test(
        "a line that cannot be used is a warning at FILE:LINE, and the other lines still count",
        arguments: [
            // A misspelt key gets a suggestion, as a misspelt option does.
            ("colr = never", "unknown key 'colr'; did you mean 'color'?"),
            ("wobble = 2", "unknown key 'wobble'"),
            // The option's own check words the problem.
            ("align = middle", "bad value 'middle' for '--align'; expected left, center or right"),
            ("fps = 500", "bad value '500' for '--fps'; expected a whole number from 1 to 120"),
            ("reduce-motion = yes", "bad value 'yes' for 'reduce-motion'; expected true or false"),
            ("start = 30", "'start' is given on the command line only"),
            ("output = lyrics.lrc", "'output' is given on the command line only"),
            ("fps 24", "expected 'key = value', got 'fps 24'"),
        ])
    func warnsAboutBadLines(line: String, message: String) {
        let file = config("fps = 24", line, "align = right")
        #expect(file.warnings.map(\.description) == ["/home/ann/.config/karaoke/config:2: warning: " + message])
        #expect(file.settings.map(\.option) == ["--fps", "--align"])
    }

    @Test("a setting applies to the commands that take the option; the command line wins over it")
    func commandLineWins() throws {
        let file = config("fps = 24", "align = left", "volume = 50", "reduce-motion = true")
        let fromFile = try render([], file)
        #expect(fromFile.display.framesPerSecond == 24)
        #expect(fromFile.display.frame.alignment == .left)
        #expect(fromFile.display.frame.reduceMotion)
        let overridden = try render(["--fps", "60", "--align=right"], file)
        #expect(overridden.display.framesPerSecond == 60)
        #expect(overridden.display.frame.alignment == .right)
        // volume is play's: render ignores it, and play takes it.
        #expect(try play(["song.lrc"], file).volume == 50)
    }

    @Test("a flag set to false leaves the default")
    func falseFlag() throws {
        #expect(try !render([], config("reduce-motion = false")).display.frame.reduceMotion)
        #expect(try render([], config("no-translation = false")).display.showsTranslations)
        #expect(try render([], config("no-romanization = false")).display.frame.showsRomanization)
        #expect(try !render([], config("no-romanization = true")).display.frame.showsRomanization)
        #expect(try render([], config("romanize = true")).display.frame.romanizes)
    }

    @Test("a repeatable option given on the command line replaces the file's list instead of adding to it")
    func repeatableReplaced() throws {
        let file = config("mpv-option = ao=null", "mpv-option = volume-max=150")
        #expect(try play(["song.lrc"], file).mpvOptions == ["ao=null", "volume-max=150"])
        #expect(try play(["song.lrc", "--mpv-option", "ao=pulse"], file).mpvOptions == ["ao=pulse"])
    }

    @Test("fetch = true asks LRCLIB for audio files and leaves lyric files playing as they are")
    func fetchOnlyForAudio() throws {
        let file = config("fetch = true")
        #expect(try play(["song.mp3"], file).display.lyrics.fetch)
        #expect(try !play(["song.lrc"], file).display.lyrics.fetch)
    }

    @Test("play knows whether --offset came from the command line, so it beats the remembered offset")
    func offsetGiven() throws {
        let file = config("offset = 300")
        let fromFile = try play(["song.lrc"], file)
        #expect(fromFile.display.frame.userOffset == 300 && !fromFile.offsetIsGiven)
        let given = try play(["song.lrc", "--offset", "-200"], file)
        #expect(given.display.frame.userOffset == -200 && given.offsetIsGiven)
    }

    @Test("karaoke config lists each setting once with where it came from: command line, FILE:LINE or default")
    func listing() throws {
        let file = config("fps = 24", "align = left", "align = right", "mpv-option = ao=null", "mpv-option = x=1")
        let invocation = try CommandLineParser.parse(["config", "--align", "center"], config: file)
        guard case .config(let text) = invocation else {
            Issue.record("not a listing: \(invocation)")
            return
        }
        // Each row is `SETTING # SOURCE`; a default's SETTING is itself a comment.
        let rows = text.split(separator: "\n").dropFirst().map { row in
            let parts = row.components(separatedBy: " # ")
            return (setting: parts.dropLast().joined(separator: " # ").trimmingSpaces(), source: parts.last ?? "")
        }
        func sources(_ key: String) -> [String] {
            rows.filter { $0.setting.hasPrefix("\(key) = ") }.map(\.source)
        }
        #expect(text.includes("fps = 24"))
        #expect(sources("fps") == ["/home/ann/.config/karaoke/config:1"])
        #expect(sources("align") == ["command line"])
        #expect(sources("mpv-option") == ["/home/ann/.config/karaoke/config:4", "/home/ann/.config/karaoke/config:5"])
        // Defaults are comments, so the listing reads back as a config file with the same settings.
        #expect(text.includes("# volume = 100"))
        let readBack = ConfigFile(path: "listing", text: text)
        #expect(readBack.warnings.isEmpty)
        #expect(
            readBack.settings.map { "\($0.option) \($0.value)" } == [
                "--fps 24", "--mpv-option ao=null", "--mpv-option x=1", "--align center",
            ])
    }

    @Test("every setting karaoke config prints reads back without a warning once uncommented, to its value")
    func listingUncommented() throws {
        let file = config("colors = \"#ff8800, mint\"", "lyrics-dir = \"  spaced # dir \"", "reduce-motion = true")
        let invocation = try CommandLineParser.parse(["config", "--singer", "Ann # 2", "--fps", "60"], config: file)
        guard case .config(let text) = invocation else {
            Issue.record("not a listing: \(invocation)")
            return
        }
        let keys = Set(ConfigFile.keys)
        var uncommented: [String] = []
        for line in text.split(separator: "\n") {
            let bare = line.hasPrefix("# ") ? String(line.dropFirst(2)) : String(line)
            guard let equals = bare.range(of: " = ") else {
                // Only a comment may say something other than a setting: the header and the defaults' meanings.
                #expect(line.hasPrefix("# "), "'\(line)' is neither a setting nor a comment")
                #expect(!bare.contains("="), "'\(line)' looks like a setting but is none")
                continue
            }
            #expect(keys.contains(String(bare[..<equals.lowerBound])), "'\(line)'")
            uncommented.append(bare)
        }
        // Every key has a setting line but those whose default no value says and that nobody set.
        let written = Set(uncommented.map { String($0.prefix { $0 != " " }) })
        #expect(
            keys.subtracting(written)
                == [
                    "cols", "rows", "music-dir", "mpv-option", "seed", "mic", "encoding", "lrclib-url", "soundfont",
                    "bind", "monitor", "monitor-sink",
                ])
        let readBack = ConfigFile(path: "uncommented", text: uncommented.joined(separator: "\n"))
        #expect(readBack.warnings.map(\.message) == [])
        let values = Dictionary(readBack.settings.map { ($0.option, $0.value) }) { first, _ in first }
        #expect(values["--player"] == "auto")
        #expect(values["--theme"] == "auto")
        #expect(values["--singer"] == "Ann # 2")
        #expect(values["--fps"] == "60")
        #expect(values["--colors"] == "#ff8800, mint")
        #expect(values["--lyrics-dir"] == "  spaced # dir ")
        #expect(values["--reduce-motion"] == "true")
        // What a value cannot say is on a comment line of its own.
        #expect(text.includes("\n# player: by default auto: an MPRIS player that plays, else MPD\n# player = auto "))
        #expect(text.includes("\n# cols: by default the terminal's, else 80\n"))
        #expect(text.includes("\n# mpv-option: none by default\n"))
    }

    @Test("karaoke config checks the values it is given, as the commands do")
    func listingChecksValues() {
        #expect(
            usageMessage(["config", "--fps", "0"]) == "bad value '0' for '--fps'; expected a whole number from 1 to 120"
        )
        #expect(usageMessage(["config", "--start", "3"]) == "unknown option '--start' for 'config'")
    }

    @Test("the file's place follows the XDG rules: XDG_CONFIG_HOME when absolute, else ~/.config")
    func standardPath() {
        #expect(
            ConfigFile.standardPath(environment: { ["XDG_CONFIG_HOME": "/x", "HOME": "/h"][$0] }) == "/x/karaoke/config"
        )
        #expect(
            ConfigFile.standardPath(environment: { ["XDG_CONFIG_HOME": "rel", "HOME": "/h"][$0] })
                == "/h/.config/karaoke/config")
        #expect(ConfigFile.standardPath(environment: { _ in nil }) == nil)
    }
}

/// Each song's remembered offset, `$XDG_STATE_HOME/karaoke/offsets` (DESIGN §14.4).
@Suite("Offset memory: a nudged song stays nudged")
struct OffsetMemoryTests {
    @Test("offsets are remembered by key and read back from the text written")
    func roundTrip() {
        var memory = OffsetMemory(text: "")
        memory.remember(300, for: "00000000000000aa")
        memory.remember(-1200, for: "00000000000000bb")
        memory.remember(400, for: "00000000000000aa")
        let readBack = OffsetMemory(text: memory.text)
        #expect(readBack == memory)
        #expect(readBack.value(for: "00000000000000aa") == 400)
        #expect(readBack.value(for: "00000000000000bb") == -1200)
        #expect(readBack.value(for: "00000000000000cc") == nil)
        // The newest last, so the oldest are forgotten first.
        #expect(readBack.entries.map(\.key) == ["00000000000000bb", "00000000000000aa"])
    }

    @Test("an offset of 0 forgets the song")
    func zeroForgets() {
        var memory = OffsetMemory(text: "00000000000000aa 300\n")
        memory.remember(0, for: "00000000000000aa")
        #expect(memory.value(for: "00000000000000aa") == nil)
        #expect(memory.text.isEmpty)
    }

    @Test(
        "a damaged line is skipped and the others are kept",
        arguments: [
            "garbage", "00000000000000aa", "00000000000000aa x", "0000aa 300", "00000000000000zz 300",
            "00000000000000aa 99999999999", "00000000000000aa 300 extra",
        ])
    func damagedLines(line: String) {
        let memory = OffsetMemory(text: "00000000000000bb 100\n\(line)\n00000000000000cc -100\n")
        #expect(memory.entries.map(\.key) == ["00000000000000bb", "00000000000000cc"])
    }

    @Test("at most a few thousand songs are kept, the oldest forgotten first")
    func capacity() {
        var memory = OffsetMemory(text: "")
        for index in 0..<(OffsetMemory.capacity + 3) {
            memory.remember(100, for: StableHash.hexadecimal(UInt64(index)))
        }
        #expect(memory.entries.count == OffsetMemory.capacity)
        #expect(memory.value(for: StableHash.hexadecimal(0)) == nil)
        #expect(memory.value(for: StableHash.hexadecimal(UInt64(OffsetMemory.capacity + 2))) == 100)
    }

    @Test("the key is the content's: the same bytes give the same key, one changed byte another")
    func keyByContent() {
        let text = Array("[00:01.00]hello\n".utf8)
        #expect(OffsetMemory.key(content: text) == OffsetMemory.key(content: text))
        #expect(OffsetMemory.key(content: text) != OffsetMemory.key(content: Array("[00:01.10]hello\n".utf8)))
        #expect(OffsetMemory.key(content: text).count == 16)
    }
}

/// Each song's remembered vocals level, `$XDG_STATE_HOME/karaoke/vocals`, beside the offsets (DESIGN §14.4).
@Suite("Vocals memory: a song sung with a guide keeps its guide")
struct VocalsMemoryTests {
    @Test(
        "a level is remembered by key and read back from the text written",
        arguments: [0, 1, 50, 99])
    func roundTrip(percent: Int) {
        var memory = OffsetMemory(text: "", setting: .vocals)
        memory.remember(percent, for: "00000000000000aa")
        #expect(memory.text == "00000000000000aa \(percent)\n")
        let readBack = OffsetMemory(text: memory.text, setting: .vocals)
        #expect(readBack == memory)
        #expect(readBack.value(for: "00000000000000aa") == percent)
    }

    @Test("100 forgets the song: the whole mix is what a song has when nothing is remembered")
    func hundredForgets() {
        var memory = OffsetMemory(text: "00000000000000aa 50\n", setting: .vocals)
        memory.remember(100, for: "00000000000000aa")
        #expect(memory.value(for: "00000000000000aa") == nil)
        #expect(memory.text.isEmpty)
    }

    @Test(
        "a line out of 0…99 is skipped",
        arguments: ["00000000000000aa 101", "00000000000000aa -1", "00000000000000aa 100", "00000000000000aa 5x"])
    func outOfRange(line: String) {
        let memory = OffsetMemory(text: "00000000000000bb 50\n\(line)\n", setting: .vocals)
        #expect(memory.entries.map(\.key) == ["00000000000000bb"])
    }

    @Test("an offsets file of before reads as before, and the vocals live in a file of their own beside it")
    func offsetsFileUnchanged() {
        let before = "00000000000000aa 300\n00000000000000bb -1200\n"
        let offsets = OffsetMemory(text: before)
        #expect(offsets.value(for: "00000000000000aa") == 300)
        #expect(offsets.value(for: "00000000000000bb") == -1200)
        #expect(offsets.text == before, "written back byte for byte")
        let environment: (String) -> String? = { $0 == "XDG_STATE_HOME" ? "/state" : nil }
        #expect(OffsetMemory.standardPath(environment: environment) == "/state/karaoke/offsets")
        #expect(OffsetMemory.standardPath(of: .vocals, environment: environment) == "/state/karaoke/vocals")
    }

    @Test("an offset of 50 ms and a level of 50 % are different memories")
    func settingsDiffer() {
        #expect(
            OffsetMemory(text: "00000000000000aa 50\n") != OffsetMemory(text: "00000000000000aa 50\n", setting: .vocals)
        )
    }
}
