import Dispatch
import Foundation
import Testing

/// At most `limit` test cases of the suite that has this trait run at once, and at most
/// `ConcurrencyLimit.endToEndJobs` of all end-to-end suites together; each runs on a thread of its own.
///
/// The end-to-end tests wait on real time synchronously (a process's exit, a tmux screen, a sleep). Run as
/// they are, each would hold one of the cooperative pool's threads, of which there are as many as cores: on
/// a 2-core machine two waiting tests would stall every other test, and the run would be bound by the wait,
/// not by the work. So each case runs on a thread outside the pool (a task executor preference), and the
/// turns, not the pool, decide how many run at once. A turn is waited for without holding a thread.
///
/// Every end-to-end suite carries this trait: 1 for suites whose cases must not overlap (`.serialized`
/// would hold a pool thread), more for independent ones. A suite whose cases add up to the longest wait one or
/// two at a time (scoring's songs, sync's taps) says `first: true`: its cases are served before the others
/// waiting, so that it starts at once and the many short tests fill the turns around it, instead of it starting
/// late and running on alone at the end.
///
/// `runLimit` is what `.timeLimit` would be, counted from the turn, not from the request: Swift Testing's own limit
/// also counts the wait for a turn, which grows with the whole run (a CI run failed three quick tests of a
/// one-at-a-time suite that had waited 3 minutes for theirs).
struct ConcurrencyLimit: SuiteTrait, TestTrait, TestScoping {
    /// End-to-end test cases at once over all suites: `KARAOKE_E2E_JOBS`, or 8. Each mostly waits on
    /// tmux, mpv or a daemon; more at once on 2 cores would make the timing checks unfair.
    static let endToEndJobs = max(1, ProcessInfo.processInfo.environment["KARAOKE_E2E_JOBS"].flatMap { Int($0) } ?? 8)

    /// The turns shared by every end-to-end suite.
    private static let allSuites = Turns(free: endToEndJobs)

    /// The suite's turns, shared by every copy of the trait.
    private let turns: Turns

    /// Whether the suite's cases go before the others waiting for turns.
    private let first: Bool

    /// How long a case may run once it has its turns before an issue is recorded, or nil for no limit.
    private let runLimit: Duration?

    /// Applied to each test of the suite (hence a test trait too), not to the suite as a whole.
    var isRecursive: Bool { true }

    init(_ limit: Int, first: Bool = false, runLimit: Duration? = nil) {
        turns = Turns(free: limit)
        self.first = first
        self.runLimit = runLimit
    }

    /// A scope for each test case only: a test function or a suite runs no code of its own.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Waits for the suite's turn, then for one of all suites' (all but three for a test that runs nearly
    /// alone; no shared turn is held while waiting for the suite; ahead of the others waiting when the suite
    /// goes first), runs the test case on a thread of its own and gives the turns back, however it ends.
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let alone = test.traits.contains { $0 is RunsAlone }
        let timing = alone || test.traits.contains { $0 is RetriedAlone }
        let shared = alone ? max(1, Self.endToEndJobs - 3) : 1
        let asked = Date()
        await turns.take(1, first: first)
        await Self.allSuites.take(shared, first: first)
        let began = Date()
        let thread = OwnThreadExecutor(label: "karaoke-e2e \(test.name)")
        defer { Self.log(test, asked: asked, began: began, timing: timing) }
        do {
            try await Self.run(function, on: thread, within: runLimit)
        } catch {
            await Self.allSuites.give(shared)
            await turns.give(1)
            throw error
        }
        await Self.allSuites.give(shared)
        await turns.give(1)
    }

    /// Runs `function` on `thread`; when it runs past `limit`, records an issue then and still waits for it to end
    /// (as `.timeLimit` does: a test that blocks its thread cannot be stopped from outside).
    private static func run(
        _ function: @Sendable () async throws -> Void, on thread: OwnThreadExecutor, within limit: Duration?
    ) async throws {
        guard let limit else { return try await withTaskExecutorPreference(thread) { try await function() } }
        try await withoutActuallyEscaping(function) { function in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask(executorPreference: thread) { try await function() }
                // The watch runs on the shared pool: the test's own thread is busy with the test.
                group.addTask(executorPreference: globalConcurrentExecutor) {
                    guard (try? await Task.sleep(for: limit)) != nil else { return }
                    Issue.record("ran past its limit of \(limit) after its turn came")
                }
                try await group.next()
                group.cancelAll()
                while try await group.next() != nil {}
            }
        }
    }

    /// Where each case's wait and run are written, a line each, when `KARAOKE_E2E_TIMES` names a file: to see
    /// which tests the whole run waits on (README, How it is built).
    private static let timesFile: FileHandle? = {
        guard let path = ProcessInfo.processInfo.environment["KARAOKE_E2E_TIMES"],
            FileManager.default.createFile(atPath: path, contents: nil)
        else { return nil }
        return FileHandle(forWritingAtPath: path)
    }()

    /// One line written at a time, from the tests' own threads.
    private static let timesLock = NSLock()

    /// Appends `test`'s line to the times file: when it began (seconds since 1970), the seconds it waited for its
    /// turns and the seconds it ran, whether its result depends on the machine's load (`timing`, else `other`:
    /// `Tests/run-tests` runs such a test again by itself when it fails) and its id.
    private static func log(_ test: Test, asked: Date, began: Date, timing: Bool) {
        guard let file = timesFile else { return }
        let line = String(
            format: "%.2f\t%.2f\t%.2f\t%@\t%@\n", began.timeIntervalSince1970, began.timeIntervalSince(asked),
            Date().timeIntervalSince(began), timing ? "timing" : "other", String(describing: test.id))
        timesLock.withLock { file.write(Data(line.utf8)) }
    }

    /// The free turns and who waits for some, served in order (those that go first ahead of the rest, each in
    /// the order they came): a test waiting for many turns is not overtaken by the tests after it, however many
    /// single turns come free.
    private actor Turns {
        private var free: Int
        private var waiting: [(count: Int, first: Bool, turn: CheckedContinuation<Void, Never>)] = []

        init(free: Int) {
            self.free = free
        }

        /// Returns once `count` turns are this caller's: at once when no one waits ahead of it and enough are
        /// free.
        func take(_ count: Int, first: Bool = false) async {
            let place = first ? (waiting.firstIndex { !$0.first } ?? waiting.endIndex) : waiting.endIndex
            if place == 0 && free >= count {
                free -= count
                return
            }
            await withCheckedContinuation { waiting.insert((count, first, $0), at: place) }
        }

        /// Gives `count` turns back and hands them on to those waiting, in their order.
        func give(_ count: Int) {
            free += count
            while let first = waiting.first, first.count <= free {
                free -= first.count
                waiting.removeFirst().turn.resume()
            }
        }
    }
}

/// A test case that measures timing to tens of milliseconds (a tap, a click, mpv's clock): it runs with at most
/// three other end-to-end tests beside it; on 2 cores more of their load would be part of what it measures. When it
/// fails all the same, `Tests/run-tests` runs it again by itself.
struct RunsAlone: TestTrait {}

extension Trait where Self == RunsAlone {
    /// The test case runs with at most three other end-to-end tests beside it.
    static var runsAlone: Self { Self() }
}

/// A test case whose result depends on the machine's load (real-time audio, scored) but that holds up beside other
/// tests nearly always: it runs as others do, and `Tests/run-tests` runs it again by itself when it fails.
struct RetriedAlone: TestTrait {}

extension Trait where Self == RetriedAlone {
    /// The test case runs beside others, and again by itself when it fails.
    static var retriedAlone: Self { Self() }
}

/// A task executor whose jobs run on a serial dispatch queue of its own: dispatch gives such a queue a thread
/// outside the cooperative pool, and another when one blocks, so a test that blocks holds only its own.
private final class OwnThreadExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}

extension Trait where Self == ConcurrencyLimit {
    /// At most `limit` of the suite's test cases at once (1: one after another), each on a thread of its own;
    /// with `first`, ahead of the other suites' cases waiting for turns; with `runLimit`, an issue when a case runs
    /// longer once its turn came.
    static func concurrencyLimit(_ limit: Int, first: Bool = false, runLimit: Duration? = nil) -> Self {
        Self(limit, first: first, runLimit: runLimit)
    }
}
