import Testing

/// At most `limit` test cases of the suite that has this trait run at once; the others wait their turn without
/// holding a thread.
///
/// Between `.serialized` (one at a time) and nothing (all at once): for suites whose tests spend most of their
/// time waiting on real time, each with processes and folders of its own, but where all of them at once would
/// load a 2-core machine enough to make their timing unfair.
struct ConcurrencyLimit: SuiteTrait, TestTrait, TestScoping {
    /// The turns, shared by every copy of the trait.
    private let turns: Turns

    /// Applied to each test of the suite (hence a test trait too), not to the suite as a whole.
    var isRecursive: Bool { true }

    init(_ limit: Int) {
        turns = Turns(free: limit)
    }

    /// A scope for each test case only: a test function or a suite runs no code of its own.
    func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    /// Waits for a turn, runs the test case and gives the turn back, however the case ends.
    func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        await turns.take()
        do {
            try await function()
        } catch {
            await turns.give()
            throw error
        }
        await turns.give()
    }

    /// The free turns and, when none is free, who waits for one, in order.
    private actor Turns {
        private var free: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(free: Int) {
            self.free = free
        }

        /// Returns once a turn is this caller's.
        func take() async {
            if free > 0 {
                free -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        /// Hands the turn to the first waiting, or frees it.
        func give() {
            if waiting.isEmpty {
                free += 1
            } else {
                waiting.removeFirst().resume()
            }
        }
    }
}

extension Trait where Self == ConcurrencyLimit {
    /// At most `limit` of the suite's test cases at once.
    static func concurrencyLimit(_ limit: Int) -> Self { Self(limit) }
}
