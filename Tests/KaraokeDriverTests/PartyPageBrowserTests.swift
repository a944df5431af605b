import Foundation
import KaraokeCore
import KaraokeDriver
import Testing

/// Debian's python3, which `python3-selenium` installs into (a python3 earlier on PATH, pyenv's, may lack it).
private let python = "/usr/bin/python3"

/// Whether chromium, chromedriver and python3's selenium are here (`make deps-test`).
private let canDriveBrowser: Bool = {
    let files = FileManager.default
    guard ["/usr/bin/chromium", "/usr/bin/chromedriver", python].allSatisfy(files.isExecutableFile(atPath:)) else {
        return false
    }
    let check = Process()
    check.executableURL = URL(fileURLWithPath: python)
    check.arguments = ["-c", "import selenium"]
    check.standardOutput = FileHandle.nullDevice
    check.standardError = FileHandle.nullDevice
    guard (try? check.run()) != nil else { return false }
    check.waitUntilExit()
    return check.terminationStatus == 0
}()

/// Whether libmicrohttpd loads here, as the server loads it (`make deps`).
private let canServe: Bool = {
    guard let handle = dlopen("libmicrohttpd.so.12", RTLD_LAZY | RTLD_LOCAL) else { return false }
    dlclose(handle)
    return true
}()

/// The made-up songs of the evening; the browser test asks for the first three.
private let titles = ["Moonlit Ferry", "Paper Lanterns", "Copper Kettle Blues"]

/// The party's API on a real server on 127.0.0.1, with the guests' page, room code 4242 and made-up songs.
private final class PageServer {
    let server: HTTPServer
    let api: PthreadLock<PartyAPI>

    init() throws {
        let songs = PartySongs([
            PartySongs.Song(
                folder: "/songs", path: "harbour/moonlit-ferry.lrc", title: titles[0], artist: "The Harbour Lights",
                duration: 201),
            PartySongs.Song(
                folder: "/songs", path: "vale/paper-lanterns.lrc", title: titles[1], artist: "Juniper & Vale",
                duration: nil),
            // An artist that is also markup: the results and the queue must show it as text.
            PartySongs.Song(
                folder: "/songs", path: "tin/copper-kettle.lrc", title: titles[2], artist: "<i>Old</i> Tin Roof",
                duration: 174.5),
            PartySongs.Song(
                folder: "/songs", path: "misc/seven-quiet-rivers.lrc", title: "Seven Quiet Rivers", artist: "Marrow",
                duration: 240),
        ])
        // Cy is singing when the guests arrive, and has sung this round: Ada and Bo sing before Cy again.
        var rotation = PartyRotation()
        let rivers = try #require(songs.songs.first { $0.title == "Seven Quiet Rivers" })
        _ = try rotation.add(song: rivers.id, by: try #require(SingerName("Cy")))
        _ = rotation.next()
        let api = PthreadLock(
            PartyAPI(songs: songs, code: "4242", page: Array(PartyPage.html.utf8), rotation: rotation))
        self.api = api
        server = try HTTPServer.start(bind: "127.0.0.1", port: 0) { request in
            // Both browsers come from 127.0.0.1 and share one address's allowance (DESIGN §20.3): the pages must
            // keep within it, as two guests behind one router would.
            api.withLock { $0.respond(to: request, at: ProcessInfo.processInfo.systemUptime) }
        }
    }

    deinit {
        server.stop()
    }
}

/// What `guests.py` printed and how it ended.
private struct GuestsRun {
    var status: Int32
    var stdout: String
    var stderr: String
    var seconds: Double
    /// Whether the script led a process group of its own, which the test killed whole.
    var ownGroup: Bool
}

/// Runs `Tests/Browser/guests.py URL CODE --titles …` in a process group of its own, waits at most `timeout`
/// seconds, then kills the whole group, so no chromedriver or chromium outlives the test.
private func runGuests(url: String, code: String, timeout: Double = 300) throws -> GuestsRun {
    let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Browser/guests.py")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("karaoke-guests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let stdoutFile = folder.appendingPathComponent("stdout")
    let stderrFile = folder.appendingPathComponent("stderr")
    for file in [stdoutFile, stderrFile] { try Data().write(to: file) }
    let stdout = try FileHandle(forWritingTo: stdoutFile)
    let stderr = try FileHandle(forWritingTo: stderrFile)
    defer {
        try? stdout.close()
        try? stderr.close()
    }

    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [script.path, url, code, "--titles", titles.joined(separator: ",")]
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = stdout
    process.standardError = stderr
    let ended = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in ended.signal() }
    let start = Date()
    try process.run()
    // Foundation starts every child as the leader of a process group of its own (setsid would fork there, and
    // its python would escape the group).
    let group = process.processIdentifier
    let ownGroup = getpgid(group) == group
    let finished = ended.wait(timeout: .now() + timeout) == .success
    // Whatever happened, nothing of the run may stay: python, chromedriver and the chromiums share the group.
    if ownGroup { kill(-group, SIGKILL) } else { process.terminate() }
    process.waitUntilExit()
    let seconds = Date().timeIntervalSince(start)
    let read = { (file: URL) in (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
    return GuestsRun(
        status: finished ? process.terminationStatus : -1, stdout: read(stdoutFile),
        stderr: finished ? read(stderrFile) : "timed out after \(timeout) s\n" + read(stderrFile), seconds: seconds,
        ownGroup: ownGroup)
}

@Suite(
    "The guests' page in a real browser",
    .enabled(if: canServe, "needs libmicrohttpd12 (make deps)"),
    .enabled(if: canDriveBrowser, "needs chromium, chromium-driver and python3-selenium (make deps-test)"))
struct PartyPageBrowserTests {
    @Test("two guests join, ask for songs in a fair rotation, see their places, and one cancels")
    func twoGuests() throws {
        let party = try PageServer()
        let run = try runGuests(url: "http://127.0.0.1:\(party.server.port)/", code: "4242")
        #expect(run.ownGroup, "guests.py must lead a process group, for the test to stop its browsers with it")
        try #require(run.status == 0, "guests.py failed after \(run.seconds) s: \(run.stderr)")
        let report = try #require(
            (try? JSONSerialization.jsonObject(with: Data(run.stdout.utf8))) as? [String: Any],
            "guests.py printed no JSON object: \(run.stdout)\n\(run.stderr)")
        let steps = try #require(report["steps"] as? [[String: Any]])

        // The server's own rotation after the cancel: Ada's first song, then Bo's; Ada's second is gone.
        let rotation = party.api.withLock { $0.rotation }
        let songs = party.api.withLock { $0.songs }
        #expect(rotation.order.map(\.singer.shown) == ["Ada", "Bo <b>x</b>"])
        #expect(rotation.order.map { songs[$0.song]?.title } == [titles[0], titles[2]])
        #expect(rotation.turns.map(\.shown) == ["Ada", "Bo <b>x</b>"])

        // Each guest was shown the place the API gave: 1 and 2 for Ada, then 2 for Bo, ahead of Ada's second.
        let asked = steps.filter { $0["step"] as? String == "asked" }
        #expect(asked.map { $0["singer"] as? String } == ["Ada", "Ada", "Bo <b>x</b>"])
        #expect(asked.map { $0["place"] as? Int } == [1, 2, 2])
        #expect(
            asked.map { $0["shown"] as? String } == [1, 2, 2].map { "You are number \($0) in the queue" })
        let requests = asked.compactMap { $0["request"] as? Int }
        #expect(rotation.order.map(\.id) == [requests[0], requests[2]])
        for step in asked {
            let server = try #require((step["server"] as? [String: Any])?["queue"] as? [[String: Any]])
            let position = server.first { $0["id"] as? Int == step["request"] as? Int }?["position"] as? Int
            #expect(position == step["place"] as? Int, "\(step)")
        }

        // Before the cancel both pages showed Ada, Bo, Ada, Bo's name as the text he typed.
        let queued = try #require(steps.first { $0["step"] as? String == "queued" })
        let bo = try #require(queued["Bo <b>x</b>"] as? [String: Any])
        let boQueue = try #require(bo["queue"] as? [[String: Any]])
        #expect(boQueue.map { $0["singer"] as? String } == ["Ada", "Bo <b>x</b>", "Ada"])
        #expect(boQueue.map { $0["mine"] as? Bool } == [false, true, false])
        #expect(boQueue[1]["text"] as? String == "Bo <b>x</b> — Copper Kettle Blues (<i>Old</i> Tin Roof)")
        #expect(bo["now"] as? String == "Now singing: Cy — Seven Quiet Rivers")
        let ada = try #require(queued["Ada"] as? [String: Any])
        #expect(ada["place"] as? String == "You are number 3 in the queue")
        #expect(ada["now"] as? String == "Now singing: Cy — Seven Quiet Rivers")
        // Both pages fit a phone 360 CSS pixels wide without scrolling sideways.
        let widths = try #require(report["widths"] as? [String: [Int]])
        #expect(Array(widths.values) == [[360, 360], [360, 360]], "\(widths)")

        // After it, both pages and the server agree on Ada, then Bo.
        let cancelled = try #require(steps.first { $0["step"] as? String == "cancelled" })
        for guest in ["Ada", "Bo <b>x</b>"] {
            let page = try #require((cancelled[guest] as? [String: Any])?["queue"] as? [[String: Any]])
            #expect(page.map { $0["id"] as? Int } == rotation.order.map(\.id), "\(guest)")
            #expect(page.map { $0["position"] as? Int } == [1, 2], "\(guest)")
        }
    }
}
