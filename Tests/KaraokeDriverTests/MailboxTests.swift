import Glibc
import KaraokeDriver
import Testing

@Suite("A mailbox hands a background thread's messages over and wakes the waiter")
struct MailboxTests {
    @Test("messages come out oldest first, once each")
    func takesInOrderOnce() {
        let mailbox = Mailbox<Int>(waking: nil)
        for number in 1...3 { mailbox.post(number) }
        #expect(mailbox.take() == [1, 2, 3])
        #expect(mailbox.take().isEmpty)
    }

    @Test("past its limit a mailbox drops the oldest messages, keeping the latest")
    func dropsTheOldestPastItsLimit() {
        let mailbox = Mailbox<Int>(waking: nil, keepingAtMost: 3)
        for number in 1...5 { mailbox.post(number) }
        #expect(mailbox.take() == [3, 4, 5])
    }

    @Test("a post from a background thread wakes a command's waiter, which then sleeps again until its deadline")
    func aPostWakesTheWaiter() throws {
        // The waiter of a command without a screen, but with this thread's own mask: the test installs no
        // signal handler into the test runner.
        var mask = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &mask)
        let waiter = PollWaiter(wake: try #require(WakePipe()), waitMask: mask, terminal: -1)
        let mailbox = Mailbox<String>(waking: waiter.wake)
        let thread = try BackgroundThread.start { mailbox.post("heard") }
        let woke = waiter.wait(until: waiter.now() + 10)
        thread.join()
        #expect(woke.contains(.posted))
        #expect(mailbox.take() == ["heard"])
        let start = waiter.now()
        #expect(waiter.wait(until: start + 0.05) == .deadline)
        #expect(waiter.now() >= start + 0.05)
    }
}
