import Foundation
import KaraokeCore
import Testing

/// A small CD+G writer for these tests: packets from instructions (the core tests have a fuller one).
private struct CDGFile {
    private(set) var bytes: [UInt8] = []
    /// The packets with the graphics command, by index.
    private(set) var graphicsPackets: [Int] = []

    var packetCount: Int { bytes.count / 24 }

    mutating func packet(command: UInt8 = 9, _ instruction: UInt8, _ data: [UInt8] = []) {
        if command == 9 { graphicsPackets.append(packetCount) }
        bytes += [command, instruction, 0, 0] + data + [UInt8](repeating: 0, count: 16 - data.count) + [0, 0, 0, 0]
    }

    /// Colour table low (30) or high (31), from eight 4-bit (red, green, blue).
    mutating func colors(high: Bool, _ colors: [(Int, Int, Int)]) {
        packet(high ? 31 : 30, colors.flatMap { [UInt8($0.0 << 2 | $0.1 >> 2), UInt8(($0.1 & 3) << 4 | $0.2)] })
    }

    /// A tile with a pattern that differs from row to row and from tile to tile.
    mutating func tile(_ color0: Int, _ color1: Int, row: Int, column: Int, xor: Bool = false) {
        let rows = (0..<12).map { UInt8((row * 7 + column * 3 + $0 * 11) & 0x3F) }
        packet(xor ? 38 : 6, [UInt8(color0), UInt8(color1), UInt8(row), UInt8(column)] + rows)
    }

    /// A song of `seconds`: the picture blue from the start, then red tiles across columns 10…39 of the tile
    /// rows `rows`, drawn from packet 300 (1 s) on, one a packet.
    static func blueThenRed(seconds: Int, rows: Range<Int>) -> CDGFile {
        var file = CDGFile()
        file.colors(
            high: false, [(0, 0, 0), (15, 0, 0), (0, 0, 15), (15, 15, 15), (0, 0, 0), (0, 0, 0), (0, 0, 0), (0, 0, 0)])
        file.packet(1, [2, 0])
        for _ in 0..<298 { file.packet(command: 0, 0) }
        for row in rows {
            for column in 10..<40 {
                file.packet(6, [1, 1, UInt8(row), UInt8(column)] + [UInt8](repeating: 0x3F, count: 12))
            }
        }
        for _ in 0..<(seconds * 300 - file.packetCount) { file.packet(command: 0, 0) }
        return file
    }

    /// A file that uses every instruction the way ffmpeg treats as the specification does: memory preset
    /// with repeat 0, border preset with nothing in its second byte, scrolls that move along one axis (or
    /// preset diagonally) with both offsets 0, tiles on the screen (DESIGN §19.3).
    static func comparable(withGaps: Bool) -> CDGFile {
        var file = CDGFile()
        func gap() { if withGaps { file.packet(command: 0, 0) } }
        file.colors(
            high: false,
            [(0, 0, 0), (15, 0, 0), (0, 15, 0), (0, 0, 15), (15, 15, 15), (1, 2, 3), (8, 4, 12), (7, 9, 10)])
        file.colors(
            high: true,
            [(3, 14, 5), (10, 1, 0), (0, 6, 15), (12, 12, 1), (2, 8, 9), (11, 3, 13), (4, 5, 6), (15, 10, 5)])
        file.packet(1, [2, 0])
        gap()
        file.packet(2, [5, 0])
        for index in 0..<120 {
            file.tile(
                index % 16, (index * 7 + 3) % 16, row: index * 5 % 18, column: index * 11 % 50, xor: index % 3 == 0)
            if index % 10 == 0 { gap() }
        }
        // Moves: right, left, down, up as copies and presets, then a diagonal preset.
        for (instruction, horizontal, vertical) in [
            (24, 0x10, 0), (24, 0x20, 0), (24, 0, 0x10), (24, 0, 0x20), (20, 0x10, 0), (20, 0, 0x20), (20, 0x20, 0x10),
        ] as [(UInt8, UInt8, UInt8)] {
            file.packet(instruction, [9, horizontal, vertical])
            file.tile(3, 12, row: 9, column: 25)
            gap()
        }
        file.packet(28, [4])
        file.colors(
            high: false,
            [(9, 9, 9), (15, 0, 0), (0, 15, 0), (0, 0, 15), (15, 15, 15), (1, 2, 3), (8, 4, 12), (7, 9, 10)])
        file.packet(1, [11, 0])
        file.tile(1, 2, row: 0, column: 0)
        return file
    }
}

/// Where ffmpeg is, or nil.
private let ffmpeg = ChildProcess.find("ffmpeg")

/// ffmpeg's frames of `file`: one per graphics packet, each 300×216 RGB.
private func ffmpegFrames(of file: URL) throws -> [[UInt8]] {
    let output = try KaraokeProcess.runRaw(
        [
            "-v", "error", "-f", "cdg", "-i", file.path, "-fps_mode", "passthrough", "-f", "rawvideo", "-pix_fmt",
            "rgb24", "-",
        ], executable: try #require(ffmpeg), timeout: 60)
    #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
    let size = 300 * 216 * 3
    return stride(from: 0, to: output.stdout.count - size + 1, by: size).map { Array(output.stdout[$0..<($0 + size)]) }
}

@Suite("CD+G files through render and check, with ffmpeg as a second opinion", .concurrencyLimit(4))
struct CDGTests {
    @Test(
        "ffmpeg's cdgraphics decoder agrees with ours pixel for pixel after every packet while the offsets are 0",
        .enabled(if: ffmpeg != nil, "ffmpeg is missing: 'make deps-test' installs it"),
        arguments: [false, true])
    func agreesWithFFmpeg(withGaps: Bool) throws {
        let file = CDGFile.comparable(withGaps: withGaps)
        try KaraokeProcess.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("song.cdg")
            try Data(file.bytes).write(to: path)
            let frames = try ffmpegFrames(of: path)
            // One frame per graphics packet, its pts the packet's index: the frame of packet p is the state
            // after packets [0, p].
            try #require(frames.count == file.graphicsPackets.count)
            var decoder = CDGDecoder(bytes: file.bytes)
            for (frame, packet) in zip(frames, file.graphicsPackets) {
                decoder.advance(toPacketCount: packet + 1)
                let ours = decoder.picture.rgb24()
                if ours != frame {
                    let first = zip(ours, frame).enumerated().first { $0.element.0 != $0.element.1 }!.offset / 3
                    Issue.record("packet \(packet): first different pixel at (\(first % 300), \(first / 300))")
                    return
                }
            }
        }
    }

    @Test("render --format ppm writes the picture the decoder shows at the exact packet of --at")
    func renderPPM() throws {
        let file = CDGFile.comparable(withGaps: true)
        try KaraokeProcess.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Song.CDG")
            try Data(file.bytes).write(to: path)
            var decoder = CDGDecoder(bytes: file.bytes)
            for at in ["0.57", "0.1", "0", "9"] {
                let output = try KaraokeProcess.runRaw(["render", path.path, "--at", at, "--format", "ppm"])
                #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
                #expect(output.stderr.isEmpty)
                decoder.advance(to: try #require(CDGTime(seconds: at)))
                let expected = decoder.picture.ppm()
                #expect(Array(output.stdout.prefix(15)) == Array("P6\n300 216\n255\n".utf8))
                #expect(output.stdout == expected, "at \(at)")
            }
        }
    }

    @Test("render draws a CD+G file in cells as play does, as text, ansi and json; ppm of a lyric file is refused")
    func renderCells() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            let path = folder.appendingPathComponent("Some Song.cdg").path
            try Data(CDGFile.comparable(withGaps: false).bytes).write(to: URL(fileURLWithPath: path))
            let size = ["--cols", "60", "--rows", "16"]
            let text = try KaraokeProcess.run(["render", path, "--at", "0.5"] + size)
            #expect(text.status == 0, "\(text.stderr)")
            let rows = text.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(rows.count == 16)
            #expect(rows.first?.trimmingCharacters(in: .whitespaces) == "Some Song")
            #expect(rows.last?.contains("0:00 / 0:00") == true, "\(rows)")
            // The tiles' two colours in a cell show as block elements, inside the picture's 39 columns.
            #expect(rows.contains { $0.unicodeScalars.contains { (0x2580...0x259F).contains($0.value) } })
            #expect(rows.allSatisfy { $0.count <= 60 })
            let ansi = try KaraokeProcess.run(
                ["render", path, "--at", "0.5", "--format", "ansi", "--color", "always"] + size)
            #expect(ansi.stdout.contains(";48;2;"), "backgrounds in direct colour")
            let json = try KaraokeProcess.run(["render", path, "--at", "0.5", "--format", "json"] + size)
            let screen = try #require(
                (try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])?["screen"]
                    as? [[String: Any]])
            #expect(screen.filter { $0["kind"] as? String == "picture" }.count == 14)
            let lyric = try KaraokeProcess.run([
                "render", KaraokeProcess.song("paper-boats.lrc"), "--at", "1", "--format", "ppm",
            ])
            #expect(lyric.status == 2)
            #expect(lyric.stderr == "karaoke: '--format ppm' draws a CD+G picture; give a .cdg FILE or an MP3+G .zip\n")
        }
    }

    /// A folder holding an MP3+G song of `seconds` as `Artist - Song.mp3` and `.cdg` (the picture blue, then a red
    /// band of tiles drawn from 1 s on), and the same two in `Artist - Song.zip`.
    private static func mp3gFolder(seconds: Int) throws -> URL? {
        guard let ffmpeg else { return nil }
        let folder = try KaraokeProcess.temporaryFolder()
        // Six tile rows: every cell over the middle of the band is red alone, whatever symbols it is drawn with.
        let file = CDGFile.blueThenRed(seconds: seconds, rows: 6..<12)
        try Data(file.bytes).write(to: folder.appendingPathComponent("Artist - Song.cdg"))
        let audio = folder.appendingPathComponent("Artist - Song.mp3").path
        let made = try KaraokeProcess.runRaw(
            ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=330:duration=\(seconds)", audio],
            executable: ffmpeg)
        try #require(made.status == 0)
        let zipped = try KaraokeProcess.runRaw(
            [
                "-c",
                "import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], 'w') as z:\n"
                    + " z.write(sys.argv[2], 'Artist - Song.mp3')\n z.write(sys.argv[3], 'Artist - Song.cdg')\n",
                folder.appendingPathComponent("Artist - Song.zip").path, audio,
                folder.appendingPathComponent("Artist - Song.cdg").path,
            ], executable: "/usr/bin/python3")
        try #require(zipped.status == 0)
        return folder
    }

    @Test("check of an audio file with its .cdg beside it checks the graphics, as play shows them")
    func checkAudioWithGraphics() throws {
        guard let folder = try Self.mp3gFolder(seconds: 2) else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try KaraokeProcess.run(["check", folder.appendingPathComponent("Artist - Song.mp3").path])
        #expect(output.status == 0, "\(output.stderr)")
        #expect(
            output.stdout == "\(folder.appendingPathComponent("Artist - Song.cdg").path): CD+G, 0:02.00, 600 packets\n")
    }

    @Test(
        "play draws an MP3+G song in the terminal in step with its audio: from a zip, an mp3 with its .cdg, a .cdg with its mp3",
        arguments: ["Artist - Song.zip", "Artist - Song.mp3", "Artist - Song.cdg"])
    func playsMP3G(file: String) throws {
        guard TmuxSession.isAvailable, MpvProbe.isAvailable, let folder = try Self.mp3gFolder(seconds: 6) else {
            return
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.appendingPathComponent(file).path)' --mpv-option ao=null",
            columns: 60, rows: 16)
        // In 256 colours the blue picture is palette 21 as background; the red band, 196, comes at 1 s.
        let blue = try session.waitFor { _ in (try? session.styledScreen().contains { $0.contains("8;5;21m") }) == true
        }
        #expect(blue.first?.contains("Artist - Song") == true, "\(blue)")
        let audio =
            file.hasSuffix(".zip")
            ? "archive://" + folder.path.replacingOccurrences(of: " ", with: "%20")
                + "/Artist%20-%20Song.zip|/Artist - Song.mp3"
            : folder.appendingPathComponent("Artist - Song.mp3").path
        let probe = MpvProbe.waitFor(playing: audio)
        #expect(probe != nil, "mpv plays \(audio)")
        // As ink or background, whichever the cells' symbols need.
        _ = try session.waitFor { _ in (try? session.styledScreen().contains { $0.contains("8;5;196m") }) == true }
        let styled = try session.styledScreen()
        #expect(styled.contains { $0.contains("8;5;196m") }, "the red band is drawn")
        if let probe {
            let position = try probe.connect().property("time-pos") as? Double ?? 0
            #expect(position >= 0.9, "the band shows once the audio has played 1 s, not before: \(position)")
        }
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("check prints a CD+G file's length and packets, its problems as warnings, and refuses what is not CD+G")
    func check() throws {
        try KaraokeProcess.withTemporaryFolder { folder in
            var clean = CDGFile()
            clean.packet(1, [2, 0])
            for _ in 0..<3701 { clean.packet(command: 0, 0) }
            let good = folder.appendingPathComponent("good.cdg")
            try Data(clean.bytes).write(to: good)
            var flawed = clean
            flawed.packet(17)
            let bad = folder.appendingPathComponent("flawed.CDG")
            try Data(flawed.bytes + [9, 1, 0]).write(to: bad)
            let notCDG = folder.appendingPathComponent("words.cdg")
            try Data(String(repeating: "no graphics here ", count: 10).utf8).write(to: notCDG)

            let output = try KaraokeProcess.run(["check", good.path, bad.path])
            #expect(output.status == 0)
            #expect(
                output.stdout == "\(good.path): CD+G, 0:12.34, 3702 packets\n"
                    + "\(bad.path): CD+G, 0:12.34, 3703 packets, 2 warnings\n")
            #expect(
                output.stderr == "\(bad.path): warning: packet 3702 (0:12.34): unknown instruction 17; ignored\n"
                    + "\(bad.path): warning: the last packet is cut short (3 of 24 bytes); ignored\n")
            #expect(try KaraokeProcess.run(["check", "--strict", bad.path]).status == 1)
            #expect(try KaraokeProcess.run(["check", "--strict", good.path]).status == 0)

            let refused = try KaraokeProcess.run(["check", notCDG.path])
            #expect(refused.status == 1)
            #expect(refused.stdout == "\(notCDG.path): unusable\n")
            #expect(
                refused.stderr
                    == "karaoke: \(notCDG.path): not a CD+G file: none of its 7 packets holds graphics (command 9)\n")
            let render = try KaraokeProcess.run(["render", notCDG.path, "--at", "0", "--format", "ppm"])
            #expect(render.status == 1)
            #expect(render.stdout.isEmpty)
            #expect(render.stderr == refused.stderr)
            let missing = try KaraokeProcess.run(["check", folder.appendingPathComponent("gone.cdg").path])
            #expect(missing.status == 1)
            #expect(missing.stderr.hasSuffix("gone.cdg: no such file\n"))
        }
    }

    @Test(
        "a zipped MP3+G song is checked and rendered from the .cdg inside it, read in memory; a zip that is no song says why"
    )
    func zippedSong() throws {
        let file = CDGFile.comparable(withGaps: true)
        try KaraokeProcess.withTemporaryFolder { folder in
            let zip = folder.appendingPathComponent("Artist - Song.ZIP")
            let other = folder.appendingPathComponent("two.zip")
            // The archives are made by Python's zipfile: a second, independent writer of the format.
            let script = """
                import sys, zipfile
                cdg = open(sys.argv[3], 'rb').read()
                with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                    z.writestr('Artist - Song/', '')
                    z.writestr('__MACOSX/Artist - Song/._Artist - Song.cdg', b'junk')
                    z.writestr('Artist - Song/Artist - Song.mp3', b'ID3 not really audio')
                    z.writestr('Artist - Song/Artist - Song.cdg', cdg)
                with zipfile.ZipFile(sys.argv[2], 'w') as z:
                    z.writestr('a.cdg', cdg)
                    z.writestr('b.cdg', cdg)
                """
            let cdg = folder.appendingPathComponent("plain.cdg")
            try Data(file.bytes).write(to: cdg)
            let made = try KaraokeProcess.runRaw(
                ["-c", script, zip.path, other.path, cdg.path], executable: "/usr/bin/python3")
            try #require(made.status == 0, "\(String(decoding: made.stderr, as: UTF8.self))")
            // Nothing is unpacked beside the archive.
            let before = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()

            let checked = try KaraokeProcess.run(["check", zip.path])
            #expect(checked.status == 0, "\(checked.stderr)")
            let plain = try KaraokeProcess.run(["check", cdg.path])
            #expect(
                checked.stdout
                    == plain.stdout.replacingOccurrences(of: cdg.path, with: zip.path).dropLast()
                    + ", audio Artist - Song/Artist - Song.mp3\n")

            for at in ["0.57", "9"] {
                let fromZip = try KaraokeProcess.runRaw(["render", zip.path, "--at", at, "--format", "ppm"])
                let fromFile = try KaraokeProcess.runRaw(["render", cdg.path, "--at", at, "--format", "ppm"])
                #expect(fromZip.status == 0)
                #expect(fromZip.stdout == fromFile.stdout, "at \(at)")
            }
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == before)

            let refused = try KaraokeProcess.run(["check", other.path])
            #expect(refused.status == 1)
            #expect(refused.stdout == "\(other.path): unusable\n")
            #expect(
                refused.stderr
                    == "karaoke: \(other.path): the archive holds 2 .cdg files; karaoke plays one song a zip\n")
            let notZip = folder.appendingPathComponent("fake.zip")
            try Data("not an archive".utf8).write(to: notZip)
            let damaged = try KaraokeProcess.run(["render", notZip.path, "--at", "0", "--format", "ppm"])
            #expect(damaged.status == 1)
            #expect(damaged.stderr.hasPrefix("karaoke: \(notZip.path): not a zip archive karaoke can read: "))
        }
    }

    @Test(
        "a folder holding an LRC, an MP3+G zip and a .kar is a queue of the three; the zip's card names it and it draws"
    )
    func queueOfKinds() throws {
        guard TmuxSession.isAvailable, MpvProbe.isAvailable, let folder = try Self.mp3gFolder(seconds: 6) else {
            return
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        // Only the zip of the pair: the mp3 and .cdg beside it would be the same song again.
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Artist - Song.mp3"))
        try FileManager.default.removeItem(at: folder.appendingPathComponent("Artist - Song.cdg"))
        // Last by name, after a.lrc and b.kar.
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("Artist - Song.zip"), to: folder.appendingPathComponent("z song.zip"))
        try QueueTests.shortSong("Alpha").write(
            to: folder.appendingPathComponent("a.lrc"), atomically: true, encoding: .utf8)
        try Data(MidiMusicTests.longKaraoke()).write(to: folder.appendingPathComponent("b.kar"))
        let session = try TmuxSession(
            "'\(KaraokeProcess.binary.path)' play '\(folder.path)' --mpv-option ao=null", columns: 70, rows: 16,
            environment: ["XDG_CACHE_HOME": folder.appendingPathComponent("cache").path])
        var screen = try session.waitFor { $0.contains { $0.contains("next: Alpha") } }
        #expect(screen.contains { $0.contains("1/3") }, "\(screen)")
        try session.send("n")
        screen = try session.waitFor { $0.contains { $0.contains("next: Counting Song") } }
        #expect(screen.contains { $0.contains("2/3") }, "\(screen)")
        try session.send("n")
        screen = try session.waitFor { $0.contains { $0.contains("next: z song") } }
        #expect(screen.contains { $0.contains("3/3") }, "\(screen)")
        try session.send("Space")
        _ = try session.waitFor { _ in (try? session.styledScreen().contains { $0.contains("8;5;21m") }) == true }
        #expect(try session.styledScreen().contains { $0.contains("8;5;21m") }, "the picture is drawn")
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    /// A .cdg alone: the picture blue, then a red band of tiles from 1 s on, `seconds` long.
    private static func bandFile(seconds: Int) throws -> (folder: URL, file: String) {
        let folder = try KaraokeProcess.temporaryFolder()
        let file = CDGFile.blueThenRed(seconds: seconds, rows: 8..<9)
        let path = folder.appendingPathComponent("Band.cdg").path
        try Data(file.bytes).write(to: URL(fileURLWithPath: path))
        return (folder, path)
    }

    /// What `karaoke play ARGUMENTS` wrote to a pretend 80×30 terminal that answers the device attributes with
    /// `da1` and the cell size with `cell` ("-" for silence), q pressed after 2.5 s.
    private static func playOnPretendTerminal(_ arguments: [String], da1: String, cell: String) throws -> String {
        let script = KaraokeProcess.repository.appendingPathComponent(
            "Tests/KaraokeEndToEndTests/Support/pixel_terminal.py")
        let output = try KaraokeProcess.runRaw(
            [script.path, "80", "30", "2.5", da1, cell, KaraokeProcess.binary.path, "play"] + arguments,
            executable: "/usr/bin/python3", timeout: 30)
        #expect(output.status == 0, "\(String(decoding: output.stderr, as: UTF8.self))")
        return String(decoding: output.stdout, as: UTF8.self)
    }

    @Test(
        "play draws a CD+G picture in sixel where the terminal says it can, the whole once, then only the changed band")
    func playsInSixel() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return }
        let (folder, file) = try Self.bandFile(seconds: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try Self.playOnPretendTerminal([file, "--no-audio"], da1: "^[[?62;4c", cell: "^[[6;16;8t")
        #expect(
            written.contains("\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[?2027$p\u{1B}[c"),
            "it asks, with grapheme-cluster mode in the same round trip")
        // 80×30 leaves 80×28 cells for the picture: 78×28 at its aspect, from the second row and column, so
        // 624×448 pixels of 8×16 cells.
        let whole = "\u{1B}[2;2H\u{1B}P0;1;0q\"1;1;624;448"
        #expect(written.contains(whole), "the whole picture in sixel at its cells")
        let sixels = written.components(separatedBy: "\u{1B}P0;1;0q").dropFirst()
        // The band (tile row 8 of 18, columns 10…39) comes in sixels of its own over its cells alone (a resize
        // at the start may send the whole again first).
        let parts = sixels.filter { !$0.hasPrefix("\"1;1;624;448") }
        #expect(!parts.isEmpty, "the band comes as smaller sixels")
        #expect(parts.allSatisfy { $0.contains("\u{1B}\\") }, "each DCS is ended")
        // No picture cells are drawn in blocks: the blue background never shows as a cell's colour.
        #expect(!written.contains("48;5;21m") && !written.contains("38;5;21m"))
    }

    @Test("play draws the picture in cells when the terminal says nothing of sixel, or with --graphics cells")
    func cellsWithoutAnswers() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return }
        let (folder, file) = try Self.bandFile(seconds: 4)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (arguments, da1) in [
            ([file, "--no-audio"], "-"), ([file, "--no-audio"], "^[[?62;22c"),
            ([file, "--no-audio", "--graphics", "cells"], "^[[?62;4c"),
        ] {
            let written = try Self.playOnPretendTerminal(arguments, da1: da1, cell: "^[[6;16;8t")
            #expect(!written.contains("\u{1B}P"), "no sixel: \(arguments) \(da1)")
            #expect(written.contains("8;5;21m"), "the blue picture in cells")
            #expect(written.contains("\u{1B}[16t") == !arguments.contains("cells"), "cells never asks about pixels")
            // Grapheme-cluster mode is asked about either way (DESIGN §3.6).
            #expect(written.contains("\u{1B}[?2027$p\u{1B}[c"))
        }
        // A lyric song never asks about pixels, only about grapheme-cluster mode.
        let lyrics = try Self.playOnPretendTerminal(
            [KaraokeProcess.song("paper-boats.lrc"), "--no-audio"], da1: "^[[?62;4c", cell: "^[[6;16;8t")
        #expect(!lyrics.contains("\u{1B}[16t") && !lyrics.contains("\u{1B}_G") && !lyrics.contains("\u{1B}P"))
        #expect(lyrics.hasPrefix("\u{1B}[?2027$p\u{1B}[c"))
    }
}
