import Foundation
import Testing

/// Whether FluidSynth and a General MIDI SoundFont are installed (`make deps`).
private let canSynthesise =
    FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libfluidsynth.so.3")
    || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libfluidsynth.so.3")

/// A MIDI song's music synthesised and played through a real mpv (`ao=null`), its cache, its vocals track and
/// what happens without a SoundFont (DESIGN §18).
@Suite(
    "MIDI songs play with synthesised music",
    .enabled(if: TmuxSession.isAvailable && MpvProbe.isAvailable && canSynthesise, "needs tmux, mpv and FluidSynth"),
    .concurrencyLimit(1))
struct MidiMusicTests {
    /// A format-0 MIDI file of `seconds` seconds at 120 bpm: a melody of quarter notes on channel 2 (the
    /// second channel, 0-based 1) over half notes on channel 1.
    static func midi(seconds: Int) -> [UInt8] {
        var events: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20] // 500,000 µs a quarter
        for quarter in 0..<(2 * seconds) {
            if quarter % 2 == 0 { events += [0x00, 0x90, UInt8(40 + quarter % 5), 90] }
            events += [0x00, 0x91, UInt8(64 + quarter % 7), 100]
            // 480 ticks (a quarter) later, as a variable-length number: 0x83 0x60.
            events += [0x83, 0x60, 0x81, UInt8(64 + quarter % 7), 0]
            if quarter % 2 == 1 { events += [0x00, 0x80, UInt8(40 + (quarter - 1) % 5), 0] }
        }
        events += [0x00, 0xFF, 0x2F, 0x00]
        let length = events.count
        let size = [
            UInt8(length >> 24 & 0xFF), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF),
        ]
        return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + size + events
    }

    /// A folder with `song.lrc` and `song.mid` (`seconds` long) and an empty cache folder.
    func songFolder(seconds: Int = 40) throws -> URL {
        let folder = try KaraokeProcess.temporaryFolder()
        try AudioTests.lyrics.write(to: folder.appendingPathComponent("song.lrc"), atomically: true, encoding: .utf8)
        try Data(MidiMusicTests.midi(seconds: seconds)).write(to: folder.appendingPathComponent("song.mid"))
        return folder
    }

    /// `karaoke play song.lrc --audio song.mid` with mpv silent and the cache in `folder`, once its title shows.
    func play(_ folder: URL, _ arguments: String = "") throws -> TmuxSession {
        try AudioTests.play(
            folder, "--audio '\(folder.appendingPathComponent("song.mid").path)' \(arguments)",
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
    }

    /// The files in the music cache of `folder`.
    func cached(_ folder: URL) -> [String] {
        let music = folder.appendingPathComponent("cache/karaoke/music").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: music)) ?? []).sorted()
    }

    /// The karaoke processes whose command line mentions `text`.
    func karaokeProcesses(mentioning text: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry in
            guard let pid = Int32(entry), let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            guard arguments.first?.hasSuffix("/karaoke") == true, arguments.contains(where: { $0.contains(text) })
            else { return nil }
            return pid
        }
    }

    /// Whether process `pid` has libfluidsynth mapped.
    func loadsFluidSynth(_ pid: Int32) -> Bool { maps(pid, "libfluidsynth") }

    /// Whether process `pid` has a library whose file name starts with `library` mapped.
    func maps(_ pid: Int32, _ library: String) -> Bool {
        // Read to the end: /proc's files have no size to go by.
        let maps = FileHandle(forReadingAtPath: "/proc/\(pid)/maps")?.readDataToEndOfFile() ?? Data()
        return String(decoding: maps, as: UTF8.self).contains("/" + library)
    }

    @Test(
        "the music plays while it is synthesised, v switches to the accompaniment at the same place, and the WAVs land in the cache"
    )
    func playsWhileSynthesising() throws {
        let folder = try songFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder, "--melody-channel 2")
        let probe = try #require(waitForMpv(playing: "appending://" + folder.path + "/cache/karaoke/music/"))
        #expect(probe.arguments.contains { $0.hasPrefix("--audio-file=appending://") }, "\(probe.arguments)")
        let mpv = try probe.connect()
        #expect(poll(upTo: 10) { try (mpv.property("time-pos") as? Double ?? 0) > 0.5 }, "mpv plays")
        #expect(try mpv.property("aid") as? Int == 1, "the whole song first")
        let before = try #require(try mpv.property("time-pos") as? Double)
        try session.send("v")
        #expect(poll(upTo: 10) { try mpv.property("aid") as? Int == 2 }, "v: the accompaniment")
        let after = try #require(try mpv.property("time-pos") as? Double)
        #expect(after >= before && after < before + 2, "the place is kept: \(before) then \(after)")
        let screen = try session.waitFor(timeout: 20) { $0.contains { $0.contains("music synthesised in") } }
        #expect(screen.contains { $0.contains("music synthesised in") })
        #expect(karaokeProcesses(mentioning: folder.path).contains(where: loadsFluidSynth), "loaded when needed")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        let names = cached(folder)
        #expect(names.count == 2 && names.allSatisfy { $0.hasSuffix(".wav") && !$0.contains(".partial-") }, "\(names)")

        // The next play takes the cached music: mpv opens the finished files, and nothing new is written.
        let again = try play(folder, "--melody-channel 2")
        let cachedProbe = try #require(MpvProbe.waitFor(playing: folder.path + "/cache/karaoke/music/" + names[1]))
        #expect(cachedProbe.arguments.contains("--audio-file=" + folder.path + "/cache/karaoke/music/" + names[0]))
        try again.send("q")
        #expect(try again.exitStatus() == 0)
        #expect(cached(folder) == names)
    }

    /// How an mpv on the growing files can miss them, as a wrapper script run as `mpv` with the real one's path
    /// after it.
    static let lateMpvs = [
        // A 4-second song is synthesised and renamed into the cache long before this mpv opens it.
        "sleep 3\nexec -a mpv \"$REAL\" \"$@\"",
        // As an mpv that could not open the file and quit before karaoke connected to it.
        "case \"$*\" in *appending://*) exit 2;; esac\nexec -a mpv \"$REAL\" \"$@\"",
    ]

    @Test(
        "a song synthesised before mpv has opened its growing file still plays its music, from the cache",
        arguments: lateMpvs)
    func tooLateForTheGrowingFile(script: String) throws {
        let folder = try songFolder(seconds: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try #require(ChildProcess.find("mpv"))
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let slow = bin.appendingPathComponent("mpv").path
        // Named `mpv` as karaoke runs it, for the probe.
        // Each start's arguments and mpv's own log, for the message when the music is lost.
        let calls = folder.appendingPathComponent("mpv-calls").path
        let log = folder.appendingPathComponent("mpv.log").path
        try "#!/bin/bash\nREAL='\(real)'\necho \"$*\" >> '\(calls)'\n\(script)\n".write(
            toFile: slow, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: slow)
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)/song.lrc' --audio '\(folder.path)/song.mid' "
                + "--mpv-option ao=null --mpv-option 'log-file=\(log)'",
            environment: [
                "PATH": "\(bin.path):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")",
                "XDG_CACHE_HOME": folder.appendingPathComponent("cache").path,
            ])
        // The notice of a lost mpv would last a few seconds: the screen is watched from the start.
        var lost: [String]?
        let played = mpvPlaying(cacheOf: folder) {
            let screen = (try? session.screen()) ?? []
            if screen.joined().contains("without sound") { lost = screen }
        }
        let started = (try? String(contentsOfFile: calls, encoding: .utf8)) ?? "none"
        let said = ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "none").suffix(3000)
        #expect(lost == nil, "\(lost ?? [])\nmpv started with:\n\(started)\nmpv's log ends:\n\(said)")
        #expect(played != nil, "no mpv played the music: \(((try? session.screen()) ?? []).joined(separator: "\n"))")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    /// A 30-second Soft Karaoke song at 120 beats a minute: a "Words" track of one word a second (`@T` title
    /// and artist, four words a line) with a held melody note on channel 4 under each word, and a bass on
    /// channel 1.
    static func longKaraoke() -> [UInt8] {
        let words = ["one", "two", "three", "four", "five", "six", "seven", "eight"]
        var track = MIDIKaraokeTests.meta(0, 0x03, Array("Words".utf8))
        track += MIDIKaraokeTests.meta(0, 0x01, Array("@TCounting Song".utf8))
        track += MIDIKaraokeTests.meta(0, 0x01, Array("@TThe Counters".utf8))
        var wait = 960 // a second at 120 beats a minute and 480 ticks a quarter
        for k in 0..<30 {
            let word = words[k % words.count]
            let mark = k == 0 ? "\\" : k % 4 == 0 ? "/" : ""
            track += MIDIKaraokeTests.meta(wait, 0x01, Array((mark + word + " ").utf8))
            track += [0x00, 0x93, UInt8(60 + k % 12), 0x64, 0x00, 0x90, UInt8(36 + k % 5), 0x50]
            track +=
                MIDIKaraokeTests.quantity(900) + [0x83, UInt8(60 + k % 12), 0x40, 0x00, 0x80, UInt8(36 + k % 5), 0x40]
            wait = 60
        }
        track += MIDIKaraokeTests.meta(0, 0x2F, [])
        return MIDIKaraokeTests.chunk("MThd", [0, 0, 0, 1, 0x01, 0xE0]) + MIDIKaraokeTests.chunk("MTrk", track)
    }

    @Test("play song.kar sweeps the file's own syllables over its own music, synthesised, its melody channel found")
    func playsKaraokeFile() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("song.kar")
        try Data(MidiMusicTests.longKaraoke()).write(to: song)
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(song.path)' --mpv-option ao=null",
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        // The title from the file's @T tags, and its first line.
        let first = try session.waitFor { $0.contains { $0.contains("Counting Song") } }
        #expect(first.contains { $0.contains("Counting Song — The Counters") }, "\(first)")
        let mpv = try #require(mpvPlaying(cacheOf: folder), "mpv plays")
        // The reader found the melody on the words' channel, so there is an accompaniment track for v.
        #expect(mpv.probe.arguments.contains { $0.hasPrefix("--audio-file=") }, "\(mpv.probe.arguments)")
        let screen = try session.waitFor(timeout: 15) { $0.contains { $0.contains("five six seven eight") } }
        #expect(screen.contains { $0.contains("five six seven eight") }, "\(screen)")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test(
        "a folder holding an LRC and a .kar is a queue of both; the .kar's card names its @T title and it plays its music"
    )
    func queueWithKaraokeFile() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try QueueTests.shortSong("Alpha").write(
            to: folder.appendingPathComponent("a.lrc"), atomically: true, encoding: .utf8)
        try Data(MidiMusicTests.longKaraoke()).write(to: folder.appendingPathComponent("b.kar"))
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)' --mpv-option ao=null", columns: 70, rows: 14,
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        var screen = try session.waitFor { $0.contains { $0.contains("next: Alpha") } }
        #expect(screen.contains { $0.contains("1/2") }, "\(screen)")
        try session.send("n")
        screen = try session.waitFor { $0.contains { $0.contains("next: Counting Song") } }
        #expect(screen.contains { $0.contains("2/2") }, "\(screen)")
        try session.send("Space")
        #expect(waitForMpv(playing: "appending://" + folder.path + "/cache/karaoke/music/") != nil, "its music plays")
        screen = try session.waitFor { $0.contains { $0.contains("one two three four") } }
        #expect(screen.contains { $0.contains("one two three four") })
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a song left while its music is synthesised leaves no partial file in the cache")
    func quitEarly() throws {
        let folder = try songFolder(seconds: 1200)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try play(folder)
        _ = try session.waitFor { $0.contains { $0.contains("synthesising music") } }
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        #expect(cached(folder).isEmpty, "\(cached(folder))")
    }

    @Test("with a SoundFont that is not one the song plays silently on karaoke's own clock, saying why")
    func noSoundfont() throws {
        let folder = try songFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A short name, so the notice fits the status bar of 80 columns.
        let session = try play(folder, "--soundfont /dev/null")
        let screen = try session.waitFor { $0.contains { $0.contains("not a SoundFont") } }
        #expect(screen.contains { $0.contains("not a SoundFont") }, "\(screen)")
        // The lyrics go on without audio: the clock passes 0:02.
        _ = try session.waitFor { $0.contains { $0.contains("0:02") } }
        #expect(MpvProbe.all(mentioning: folder.path).isEmpty, "no mpv without music")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    /// Whether a test can show karaoke a machine without SoundFonts, without touching this one: as root, in a
    /// mount namespace of its own (`unshare`) where an empty tmpfs covers Debian's SoundFont folder; and
    /// whether libsonivox is there to play instead.
    static let canHideSoundfonts =
        getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")
        && (FileManager.default.fileExists(atPath: "/usr/lib/x86_64-linux-gnu/libsonivox.so.3")
            || FileManager.default.fileExists(atPath: "/usr/lib/aarch64-linux-gnu/libsonivox.so.3"))

    @Test(
        "without a SoundFont libsonivox plays the music: the notice names it, v switches to its accompaniment, FluidSynth is never loaded",
        .enabled(if: canHideSoundfonts, "needs root, unshare and libsonivox3"))
    func playsWithSonivox() throws {
        let folder = try KaraokeProcess.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let song = folder.appendingPathComponent("song.kar")
        try Data(MidiMusicTests.longKaraoke()).write(to: song)
        let sf2 = "/usr/share/sounds/sf2"
        let hide = FileManager.default.fileExists(atPath: sf2) ? "mount -t tmpfs none \(sf2) && " : ""
        let session = try TmuxSession(
            "unshare --mount sh -c \"\(hide)exec '\(KaraokeProcess.binary.path)' play '\(song.path)' --mpv-option ao=null\"",
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        let screen = try session.waitFor(timeout: 15) { $0.contains { $0.contains("(libsonivox)") } }
        #expect(screen.contains { $0.contains("(libsonivox)") }, "\(screen)")
        // Started on the finished files, not on growing ones: libsonivox is done before mpv would open them.
        let probe = try #require(waitForMpv(playing: folder.path + "/cache/karaoke/music/"))
        #expect(probe.arguments.contains { $0.hasPrefix("--audio-file=" + folder.path) }, "\(probe.arguments)")
        let mpv = try probe.connect()
        #expect(poll(upTo: 10) { try (mpv.property("time-pos") as? Double ?? 0) > 0.5 }, "mpv plays")
        try session.send("v")
        #expect(poll(upTo: 10) { try mpv.property("aid") as? Int == 2 }, "v: the accompaniment")
        let pids = karaokeProcesses(mentioning: folder.path)
        #expect(pids.contains { maps($0, "libsonivox") }, "loaded when needed")
        #expect(!pids.contains(where: loadsFluidSynth), "FluidSynth is not asked for")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test(
        "--version, and play of an LRC with a WAV, never load libfluidsynth, libsonivox, libchafa, libmicrohttpd, libqrencode or libfribidi"
    )
    func notLoadedForOtherSongs() throws {
        // The libraries only MIDI and CD+G songs need (DESIGN §16), and the party's server and QR code (DESIGN
        // §21, §22.1): playing a song never starts one. libsonivox is only asked for when a MIDI song has no
        // SoundFont. libfribidi is loaded by the first right-to-left line (DESIGN §3.5), and this song has none.
        let optional = ["libfluidsynth", "libsonivox", "libchafa", "libmicrohttpd", "libqrencode", "libfribidi"]
        let version = try KaraokeProcess.run(["--version"], environment: ["LD_DEBUG": "libs"])
        #expect(version.status == 0)
        #expect(version.stderr.contains("libc.so")) // LD_DEBUG works here
        for library in optional {
            #expect(!version.stderr.contains(library), "\(library)")
        }
        let folder = try AudioTests.songFolder(audioSeconds: 30)
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try AudioTests.play(folder)
        _ = try #require(MpvProbe.waitFor(playing: folder.appendingPathComponent("song.wav").path))
        let pids = karaokeProcesses(mentioning: folder.path)
        #expect(!pids.isEmpty)
        for library in optional {
            #expect(!pids.contains { maps($0, library) }, "\(library)")
        }
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    /// Waits up to 15 s for an mpv whose file starts with `prefix`, with its socket ready.
    func waitForMpv(playing prefix: String) -> MpvProbe? {
        let deadline = Date().addingTimeInterval(15)
        repeat {
            if let probe = MpvProbe.all(mentioning: prefix).first(where: {
                $0.arguments.last?.hasPrefix(prefix) == true
            }),
                FileManager.default.fileExists(atPath: probe.socketPath)
            {
                return probe
            }
            usleep(50_000)
        } while Date() < deadline
        return nil
    }

    /// The mpv playing `folder`'s music from its cache, the growing files or the finished ones, once it is past
    /// 0.5 s (waited for up to 20 s): a song synthesised before mpv has opened the growing files plays from the
    /// finished ones (DESIGN §18.3).
    func mpvPlaying(
        cacheOf folder: URL, meanwhile: () -> Void = {}
    ) -> (probe: MpvProbe, connection: MpvConnection)? {
        let deadline = Date().addingTimeInterval(20)
        repeat {
            meanwhile()
            for probe in MpvProbe.all(mentioning: folder.path + "/cache/karaoke/music/") {
                if let mpv = try? probe.connect(), (try? mpv.property("time-pos")) as? Double ?? 0 > 0.5 {
                    return (probe, mpv)
                }
            }
            usleep(100_000)
        } while Date() < deadline
        return nil
    }
}
