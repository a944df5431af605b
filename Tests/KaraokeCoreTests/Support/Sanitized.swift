import Foundation
import Testing

/// Whether the tests run under a sanitizer: `make check-asan` sets `KARAOKE_SANITIZED`.
let runsSanitized = !(ProcessInfo.processInfo.environment["KARAOKE_SANITIZED"] ?? "").isEmpty

/// The hardening suites' guard against a parse or a layout that runs away. Swift Testing counts it while a
/// test waits for a thread behind the rest of the parallel run too, and under AddressSanitizer the core tests
/// take about 300 s on two cores (one run's cases of a few seconds "exceeded" 5 minutes), so the guard is
/// longer there. A test of these suites takes seconds either way.
let hardeningTimeLimit: TimeLimitTrait.Duration = runsSanitized ? .minutes(15) : .minutes(5)
