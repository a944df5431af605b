import Testing
@testable import KaraokeCore

/// The play request `arguments` make, or the usage error.
private func parsePlay(_ arguments: [String]) -> Result<PlayRequest, any Error> {
    do {
        let invocation = try CommandLineParser.parse(["play"] + arguments)
        guard case .play(let request) = invocation else {
            return .failure(UnexpectedInvocation(invocation: invocation))
        }
        return .success(request)
    } catch {
        return .failure(error)
    }
}

@Suite("The queue's options")
struct QueueOptionTests {
    @Test("play takes several FILEs in order, the first being the display's file")
    func severalFiles() throws {
        let request = try parsePlay(["a.lrc", "b.lrc", "--no-audio", "c.mp3"]).get()
        #expect(request.files == ["a.lrc", "b.lrc", "c.mp3"])
        #expect(request.display.file == "a.lrc")
        #expect(request.queue == PlayRequest.QueueOptions())
    }

    @Test("--shuffle, --seed, --loop and --singer set the queue's options; --seed implies --shuffle")
    func options() throws {
        let request = try parsePlay(["a.lrc", "--seed", "42", "--loop", "--singer", "Ana"]).get()
        #expect(request.queue.shuffles)
        #expect(request.queue.seed == 42)
        #expect(request.queue.loops)
        #expect(request.queue.singer == "Ana")
        #expect(try parsePlay(["a.lrc", "--shuffle"]).get().queue.seed == nil)
    }

    @Test(
        "bad queue options are usage errors that say what was wrong",
        arguments: [
            (["a.lrc", "--seed", "-1"], "--seed"),
            (["a.lrc", "--seed", "x"], "--seed"),
            (["a.lrc", "--singer", ""], "--singer"),
            (["a.lrc", "b.lrc", "--audio", "x.mp3"], "--audio"),
            ([String](), "needs a FILE"),
        ])
    func badOptions(arguments: [String], mentioning: String) {
        guard case .failure(let error as UsageError) = parsePlay(arguments) else {
            Issue.record("expected a usage error for \(arguments)")
            return
        }
        #expect(error.message.contains(mentioning))
    }

    @Test("render still takes exactly one FILE")
    func renderOneFile() {
        #expect(throws: UsageError.self) { try CommandLineParser.parse(["render", "a.lrc", "b.lrc", "--at", "1"]) }
    }
}
