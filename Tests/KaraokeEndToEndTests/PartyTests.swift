import Foundation
import Testing

/// Where curl is (`make deps-test`).
private let partyCurl = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// Where zbarimg is (`make deps-test`).
private let partyZbarimg = ["/usr/bin/zbarimg", "/bin/zbarimg"].first {
    FileManager.default.isExecutableFile(atPath: $0)
}

/// Debian's python3, which `python3-selenium` installs into.
private let partyPython = "/usr/bin/python3"

/// Whether chromium, chromedriver and python3's selenium are here (`make deps-test`).
private let partyBrowsers: Bool = {
    guard ["/usr/bin/chromium", "/usr/bin/chromedriver", partyPython].allSatisfy(FileManager.default.isExecutableFile)
    else { return false }
    let check = Process()
    check.executableURL = URL(fileURLWithPath: partyPython)
    check.arguments = ["-c", "import selenium"]
    check.standardOutput = FileHandle.nullDevice
    check.standardError = FileHandle.nullDevice
    guard (try? check.run()) != nil else { return false }
    check.waitUntilExit()
    return check.terminationStatus == 0
}()

/// `karaoke party` in a real terminal (tmux) with its real server (DESIGN §20): guests' requests through curl
/// change the card and `GET /api/queue` alike, the host's keys change both, a song is sung and the card comes
/// back, and a party killed with SIGKILL is resumed with its queue. Silent (`--no-audio`), with songs of two
/// seconds, on 127.0.0.1 and a port the system picks.
@Suite(
    "A karaoke party in a terminal",
    .enabled(if: TmuxSession.isAvailable && partyCurl != nil, "needs tmux and curl"),
    .concurrencyLimit(1))
struct PartyTests {

    /// A folder of three short songs: One, Two and Three by Test Band.
    static func songs() throws -> URL {
        let folder = try KaraokeProcess.temporaryFolder()
        for name in ["One", "Two", "Three"] {
            try QueueTests.shortSong(name).write(
                to: folder.appendingPathComponent("\(name.lowercased()).lrc"), atomically: true, encoding: .utf8)
        }
        return folder
    }

    /// `karaoke party --no-audio … FOLDER` in a 100 × 30 session; the session's state folder holds the journal.
    static func party(_ folder: URL, _ options: String = "", settings: URL? = nil) throws -> TmuxSession {
        try TmuxSession(
            "'\(KaraokeProcess.binary.path)' party --no-audio --bind 127.0.0.1 --port 0 --code 4711 \(options) "
                + "'\(folder.path)' 2>'\(folder.path)/stderr'",
            columns: 100, rows: 30, settingsFolder: settings)
    }

    /// The guests' address as the card shows it.
    static func address(on session: TmuxSession) throws -> String? {
        let screen = try session.waitFor(timeout: 15) { rows in rows.contains { $0.contains("http://127.0.0.1:") } }
        guard let row = screen.first(where: { $0.contains("http://127.0.0.1:") }),
            let start = row.range(of: "http://")
        else { return nil }
        return String(row[start.lowerBound...].prefix { $0 != " " && $0 != "│" })
    }

    /// curl's status and body for one request.
    static func call(_ method: String, _ url: String, body: String? = nil) throws -> (status: Int, json: [String: Any])
    {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: partyCurl!)
        // From 127.0.0.2: the test's own looks do not spend the allowance of the browsers on 127.0.0.1.
        var arguments = ["-s", "-m", "10", "--interface", "127.0.0.2", "-X", method, "-w", "\n%{http_code}", url]
        if let body { arguments += ["-H", "Content-Type: application/json", "--data-binary", body] }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(lines.last ?? "") ?? 0
        let json =
            (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8)))
            as? [String: Any] ?? [:]
        return (status, json)
    }

    /// The song ids by title.
    static func songIDs(_ address: String) throws -> [String: String] {
        let songs = try call("GET", address + "api/songs?limit=10").json["songs"] as? [[String: Any]] ?? []
        var ids: [String: String] = [:]
        for song in songs { ids[song["title"] as? String ?? ""] = song["id"] as? String }
        return ids
    }

    /// The singers of `GET /api/queue` in order, and who sings now.
    static func queue(_ address: String) throws -> (now: String?, singers: [String]) {
        let json = try call("GET", address + "api/queue").json
        let now = (json["now"] as? [String: Any])?["singer"] as? String
        let singers = (json["queue"] as? [[String: Any]] ?? []).compactMap { $0["singer"] as? String }
        return (now, singers)
    }

    /// Asks for `title` as `singer`.
    @discardableResult
    static func request(_ address: String, _ singer: String, _ id: String?) throws -> Int {
        try call(
            "POST", address + "api/requests", body: #"{"code":"4711","singer":"\#(singer)","song":"\#(id ?? "")"}"#
        ).status
    }

    @Test("guests' requests show on the card in fair order; the host's keys and a song change card and API alike")
    func requestsCardAndSong() throws {
        let folder = try PartyTests.songs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try PartyTests.party(folder)
        let address = try #require(try PartyTests.address(on: session))
        var screen = try session.waitFor { $0.contains { $0.contains("room code 4711") } }
        #expect(screen.contains { $0.contains("Nothing queued yet") })
        let ids = try PartyTests.songIDs(address)
        #expect(Set(ids.keys) == ["One", "Two", "Three"])
        #expect(try PartyTests.request(address, "Ada", ids["One"]) == 201)
        #expect(try PartyTests.request(address, "Ada", ids["Two"]) == 201)
        #expect(try PartyTests.request(address, "Bo", ids["Three"]) == 201)
        #expect(try PartyTests.request(address, "Bo", ids["Three"]).self == 201)
        // Wrong code: refused, and nothing changes.
        let refused = try PartyTests.call(
            "POST", address + "api/requests", body: #"{"code":"0000","singer":"Cy","song":"\#(ids["One"]!)"}"#)
        #expect(refused.status == 403)
        screen = try session.waitFor { rows in rows.contains { $0.contains("4. Bo") } }
        let listed = screen.compactMap { row -> String? in
            guard let range = row.range(of: #"\d\. (Ada|Bo)"#, options: .regularExpression) else { return nil }
            return String(row[range].dropFirst(3))
        }
        #expect(listed == ["Ada", "Bo", "Ada", "Bo"], "the card: \(screen.joined(separator: "\n"))")
        #expect(try PartyTests.queue(address).singers == ["Ada", "Bo", "Ada", "Bo"])
        // The host chooses the last request and removes it: card and API agree.
        try session.send("Down")
        try session.send("Down")
        try session.send("Down")
        try session.send("Down")
        try session.send("x")
        screen = try session.waitFor { rows in !rows.contains { $0.contains("4. Bo") } }
        #expect(try PartyTests.queue(address).singers == ["Ada", "Bo", "Ada"])
        // Enter sings the first request now; the API says who sings.
        try session.send("Enter")
        screen = try session.waitFor { rows in rows.contains { $0.contains("One begins here") } }
        #expect(screen.contains { $0.contains("One begins here") })
        #expect(try PartyTests.queue(address).now == "Ada")
        // A request during the song is answered at once; Cy, who has not sung, comes before Ada's second song.
        #expect(try PartyTests.request(address, "Cy", ids["Two"]) == 201)
        #expect(try PartyTests.queue(address).singers == ["Bo", "Cy", "Ada"])
        // The song ends by itself; the card comes back with the rest of the queue.
        screen = try session.waitFor(timeout: 15) { rows in rows.contains { $0.contains("1. Bo") } }
        #expect(screen.contains { $0.contains("1. Bo") }, "\(screen.joined(separator: "\n"))")
        #expect(try PartyTests.queue(address).now == nil)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
        // The server stopped with the party.
        #expect(try PartyTests.call("GET", address + "api/queue").status == 0)
    }

    @Test(
        "two guests' browsers ask for songs: the card changes with them, and it, the rotation and the API agree",
        .enabled(if: partyBrowsers, "needs chromium, chromium-driver and python3-selenium (make deps-test)"),
        .runsAlone)
    func browsers() throws {
        let folder = try PartyTests.songs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try PartyTests.party(folder)
        let address = try #require(try PartyTests.address(on: session))
        // The host holds the next song, so the queue stays as the guests make it.
        try session.send("p")
        _ = try session.waitFor { rows in rows.contains { $0.contains("held: Enter sings") } }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/guests.py")
        let output = folder.appendingPathComponent("guests.out")
        let errors = folder.appendingPathComponent("guests.err")
        for file in [output, errors] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: partyPython)
        process.arguments = [script.path, address, "4711", "--titles", "One,Two,Three"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        // Foundation makes the child the leader of a process group: its chromedriver and chromiums are in it.
        let group = process.processIdentifier
        defer { if getpgid(group) == group { kill(-group, SIGKILL) } }
        // The card while the guests ask: Ada's second song is third once Bo has asked.
        var sawThird = false
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning && Date() < deadline {
            if try session.screen().contains(where: { $0.contains("3. Ada — Two") }) { sawThird = true }
            usleep(100_000)
        }
        if process.isRunning { kill(-group, SIGKILL) }
        process.waitUntilExit()
        let said = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        try #require(process.terminationStatus == 0, "guests.py: \(said)")
        #expect(sawThird, "the card never showed Ada's second song third")
        // Ada cancelled her second song: the card, the rotation and the API say Ada, then Bo.
        let screen = try session.waitFor { rows in !rows.contains { $0.contains("3. ") } }
        #expect(screen.contains { $0.contains("1. Ada — One") }, "\(screen.joined(separator: "\n"))")
        #expect(screen.contains { $0.contains("2. Bo <b>x</b> — Three") })
        #expect(try PartyTests.queue(address).singers == ["Ada", "Bo <b>x</b>"])
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("100 hostile connections while a song plays: the song keeps time, names reach the screen as text")
    func hostileGuests() throws {
        let folder = try PartyTests.songs()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "[ti:Long Song]\n[ar:Test Band]\n[00:00.00]The long song begins\n[01:00.00]It ends\n[01:05.00]\n".write(
            to: folder.appendingPathComponent("long.lrc"), atomically: true, encoding: .utf8)
        let session = try PartyTests.party(folder)
        let address = try #require(try PartyTests.address(on: session))
        let ids = try PartyTests.songIDs(address)
        let long = try #require(ids["Long Song"])
        #expect(try PartyTests.request(address, "Ada", long) == 201)
        try session.send("Enter")
        _ = try session.waitFor { rows in rows.contains { $0.contains("The long song begins") } }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Browser/hostile.py")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: partyPython)
        process.arguments = [script.path, address, "4711", long]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "hostile.py: \(said)")
        // The song kept its clock through it all: past the five seconds the stalled clients took.
        let screen = try session.waitFor(timeout: 15) { rows in rows.contains { $0.contains("▶ 0:07") } }
        #expect(screen.contains { $0.contains("▶ 0:07") }, "\(screen.joined(separator: "\n"))")
        // The names are text: the escape sequences' introducers are gone, the title is the terminal's own.
        let singers = try PartyTests.queue(address).singers
        #expect(singers.contains("[31mRed]0;pwned"), "\(singers)")
        #expect(singers.contains("<script>alert(1)</script>"))
        #expect(!singers.contains { $0.unicodeScalars.contains { $0.value < 0x20 } })
        try session.send("l")
        let listed = try session.waitFor { rows in rows.contains { $0.contains("Red]0;pwned") } }
        #expect(listed.contains { $0.contains("[31mRed]0;pwned") })
        #expect(try session.tmux(["display-message", "-p", "-t", "e2e", "#{pane_title}"]).contains("pwned") == false)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test(
        "the QR code on the terminal reads back to the address the card shows in text",
        .enabled(if: partyZbarimg != nil, "needs zbar-tools (make deps-test)"))
    func qrCodeOnScreen() throws {
        let folder = try PartyTests.songs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let session = try PartyTests.party(folder)
        let address = try #require(try PartyTests.address(on: session))
        let screen = try session.screen()
        // The code's cells: the rows holding half blocks, left of the text; a glyph's halves are ink.
        let rows = screen.filter { $0.contains("▀") || $0.contains("▄") || $0.contains("█") }
        // Every cell left of the text is one character wide, so the text's place in its row is its column.
        let addressRow = try #require(screen.first { $0.contains("http://") })
        let width = addressRow.distance(
            from: addressRow.startIndex, to: try #require(addressRow.range(of: "http://")).lowerBound)
        let scale = 4
        // A light quiet zone of four modules around the cells, then each half cell as scale × scale pixels.
        let margin = 4 * scale
        let pixelWidth = width * scale + 2 * margin, pixelHeight = rows.count * 2 * scale + 2 * margin
        var pixels = [UInt8](repeating: 255, count: pixelWidth * pixelHeight)
        for (y, row) in rows.enumerated() {
            for (x, glyph) in row.prefix(width).enumerated() {
                let halves: (Bool, Bool) =
                    switch glyph {
                    case "█": (true, true)
                    case "▀": (true, false)
                    case "▄": (false, true)
                    default: (false, false)
                    }
                for half in 0..<2 where half == 0 ? halves.0 : halves.1 {
                    for py in 0..<scale {
                        let line = margin + (2 * y + half) * scale + py
                        for px in 0..<scale { pixels[line * pixelWidth + margin + x * scale + px] = 0 }
                    }
                }
            }
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-e2e-qr-\(UUID()).pgm")
        defer { try? FileManager.default.removeItem(at: file) }
        try (Data("P5\n\(pixelWidth) \(pixelHeight)\n255\n".utf8) + Data(pixels)).write(to: file)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: partyZbarimg!)
        process.arguments = ["--nodbus", "--raw", "-q", "-Stest-inverted", file.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let read = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == address)
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }

    @Test("a party killed with SIGKILL goes on with --resume: the same queue, code and rotation")
    func resumeAfterKill() throws {
        let folder = try PartyTests.songs()
        defer { try? FileManager.default.removeItem(at: folder) }
        let settings = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-e2e-party-\(UUID())")
        defer { try? FileManager.default.removeItem(at: settings) }
        var before: [String] = []
        do {
            let session = try PartyTests.party(folder, settings: settings)
            let address = try #require(try PartyTests.address(on: session))
            let ids = try PartyTests.songIDs(address)
            try PartyTests.request(address, "Ada", ids["One"])
            try PartyTests.request(address, "Bo", ids["Two"])
            try PartyTests.request(address, "Ada", ids["Three"])
            before = try PartyTests.queue(address).singers
            #expect(before == ["Ada", "Bo", "Ada"])
            _ = try session.waitFor { rows in rows.contains { $0.contains("3. Ada") } }
            kill(try #require(try session.commandPID()), SIGKILL)
            // A killed karaoke cannot restore the screen, so its EXIT= line is not a row of its own.
            _ = try session.waitFor { rows in rows.contains { $0.contains("EXIT=137") } }
        }
        // Started again without --resume, the host is asked; y goes on with the same queue and code.
        do {
            let session = try PartyTests.party(folder, settings: settings)
            _ = try session.waitFor { rows in rows.contains { $0.contains("Go on with it? [Y/n]") } }
            try session.send("y", "Enter")
            let address = try #require(try PartyTests.address(on: session))
            #expect(try PartyTests.queue(address).singers == before)
            let screen = try session.waitFor { rows in rows.contains { $0.contains("3. Ada") } }
            #expect(screen.contains { $0.contains("room code 4711") })
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        // --resume goes on without asking; n to the question starts afresh.
        do {
            let session = try PartyTests.party(folder, "--resume", settings: settings)
            let address = try #require(try PartyTests.address(on: session))
            #expect(try PartyTests.queue(address).singers == before)
            try session.send("q")
            #expect(try session.exitStatus() == 0)
        }
        let session = try PartyTests.party(folder, settings: settings)
        _ = try session.waitFor { rows in rows.contains { $0.contains("Go on with it? [Y/n]") } }
        try session.send("n", "Enter")
        let address = try #require(try PartyTests.address(on: session))
        #expect(try PartyTests.queue(address).singers == [])
        try session.send("q")
        #expect(try session.exitStatus() == 0)
    }
}
