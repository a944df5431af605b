import Testing
@testable import KaraokeCore

/// An evening of the entries named, in order: `x…` names an entry whose lyrics cannot be read.
private func evening(_ names: [String], loops: Bool = false) -> QueueEvening {
    QueueEvening(queue: SongQueue(entries: names.map { QueueEntry(path: $0) }, loops: loops))
}

/// Plays the edge's part: reads the entry a `.read` step names (an `x…` entry cannot be read) until the
/// evening asks for something else, and returns that step.
private func reading(_ step: QueueEvening.Step, in evening: inout QueueEvening, now: Double = 0) -> QueueEvening.Step {
    var step = step
    while case .read(let entry) = step {
        step =
            entry.path.hasPrefix("x")
            ? evening.unreadable(SkippedEntry(file: "pl/../" + entry.path, reason: "no such file"), now: now)
            : evening.read(title: entry.path.uppercased(), fallbackTitle: entry.path, now: now)
    }
    return step
}

/// What a step shows, in a word: `card A`, `skipped xb`, `end`, `play a`, `exit 0`.
private func shown(_ step: QueueEvening.Step) -> String {
    switch step {
    case .read(let entry): "read \(entry.path)"
    case .card(let card): "card \(card.title)"
    case .play(let entry): "play \(entry.path)"
    case .skipped(let card): "skipped \(card.skipped.file)"
    case .end: "end"
    case .exit(let status): "exit \(status)"
    }
}

@Suite("What a queue does next")
struct QueueEveningTests {
    @Test("the first step reads the first song, and a readable song's card follows")
    func firstCard() {
        var night = evening(["a", "b"])
        let step = reading(night.firstStep, in: &night)
        guard case .card(let card) = step else {
            Issue.record("expected a card, got \(step)")
            return
        }
        #expect(card.title == "A")
        #expect((card.number, card.count) == (1, 2))
    }

    @Test("n on the song before a missing last entry shows the end card naming it, not an exit")
    func missingLast() throws {
        var night = evening(["a", "b", "xc"])
        #expect(shown(reading(night.firstStep, in: &night)) == "card A")
        #expect(shown(reading(night.answer(QueueCard.Answer.next), in: &night)) == "card B")
        let end = reading(night.answer(QueueCard.Answer.next), in: &night)
        guard case .end(let card) = end else {
            Issue.record("expected the end card, got \(end)")
            return
        }
        #expect(card.skipped == [SkippedEntry(file: "xc", reason: "no such file")])
        #expect(card.skipped.first?.note == "skipped xc: no such file")
        #expect(card.canGoBack)
        #expect(card.sung.isEmpty)
        // N goes back to the last song that can be played; q then ends the evening with 0.
        #expect(shown(reading(night.answer(EndCard.Answer.back), in: &night)) == "card B")
        #expect(shown(reading(night.answer(QueueCard.Answer.next), in: &night)) == "end")
        #expect(shown(night.answer(EndCard.Answer.quit)) == "exit 0")
    }

    @Test("an unusable entry in the middle has its card, and the queue goes on after it")
    func unusableInTheMiddle() {
        var night = evening(["a", "xb", "c"])
        _ = reading(night.firstStep, in: &night)
        let step = reading(night.answer(QueueCard.Answer.next), in: &night, now: 50)
        guard case .skipped(let card) = step else {
            Issue.record("expected the skipped card, got \(step)")
            return
        }
        #expect(card.skipped.note == "skipped xb: no such file")
        #expect((card.number, card.count) == (2, 3))
        #expect(card.countdown.endsAt == 50 + SkippedCard.duration)
        // Its countdown (or space, Enter, n) goes on to the next song.
        #expect(shown(reading(night.answer(SkippedCard.Answer.goOn), in: &night)) == "card C")
        #expect(night.queue.position.number == 3)
    }

    @Test("N on a skipped entry's card goes back to the song before it; q ends the evening")
    func backFromSkipped() {
        var night = evening(["a", "xb", "c"])
        _ = reading(night.firstStep, in: &night)
        _ = reading(night.answer(QueueCard.Answer.next), in: &night)
        #expect(shown(reading(night.answer(SkippedCard.Answer.back), in: &night)) == "card A")
        // Met again, the entry is passed by without a second card.
        #expect(shown(reading(night.answer(QueueCard.Answer.next), in: &night)) == "card C")
        #expect(night.skipped.count == 1)
        var other = evening(["a", "xb", "c"])
        _ = reading(other.firstStep, in: &other)
        _ = reading(other.answer(QueueCard.Answer.next), in: &other)
        #expect(shown(other.answer(SkippedCard.Answer.quit)) == "exit 0")
    }

    @Test("an unusable first entry has its card before the first song's")
    func unusableFirst() {
        var night = evening(["xa", "b"])
        #expect(shown(reading(night.firstStep, in: &night)) == "skipped xa")
        // Nothing before it: N goes on as well.
        #expect(shown(reading(night.answer(SkippedCard.Answer.back), in: &night)) == "card B")
    }

    @Test("the last song ending by itself shows the end card with what was sung; N goes back to that song")
    func lastSongEnds() {
        var night = evening(["a", "b"])
        _ = reading(night.firstStep, in: &night)
        #expect(shown(night.answer(QueueCard.Answer.start)) == "play a")
        #expect(shown(reading(night.nextSong(), in: &night)) == "card B")
        #expect(shown(night.answer(QueueCard.Answer.start)) == "play b")
        let end = night.nextSong()
        guard case .end(let card) = end else {
            Issue.record("expected the end card, got \(end)")
            return
        }
        #expect(card.sung == ["A", "B"])
        #expect(card.skipped.isEmpty)
        #expect(shown(reading(night.answer(EndCard.Answer.back), in: &night)) == "card B")
    }

    @Test("n on the last song's card shows the end card too")
    func nOnTheLastCard() {
        var night = evening(["a"])
        _ = reading(night.firstStep, in: &night)
        #expect(shown(night.answer(QueueCard.Answer.next)) == "end")
    }

    @Test("a song sung twice is listed once, in the order first sung")
    func sungOnce() {
        var night = evening(["a", "b"])
        _ = reading(night.firstStep, in: &night)
        _ = night.answer(QueueCard.Answer.start)
        _ = reading(night.nextSong(), in: &night)
        _ = night.answer(QueueCard.Answer.start)
        _ = reading(night.previousSong(), in: &night)
        _ = night.answer(QueueCard.Answer.start)
        #expect(night.sung == ["A", "B"])
    }

    @Test("when no entry can be read the end card still shows what was skipped, offers no way back, and q exits 1")
    func nothingReadable() {
        var night = evening(["xa", "xb"])
        #expect(shown(reading(night.firstStep, in: &night)) == "skipped xa")
        let end = reading(night.answer(SkippedCard.Answer.goOn), in: &night)
        guard case .end(let card) = end else {
            Issue.record("expected the end card, got \(end)")
            return
        }
        #expect(card.skipped.map(\.note) == ["skipped xa: no such file", "skipped xb: no such file"])
        #expect(!card.canGoBack)
        #expect(shown(night.answer(EndCard.Answer.back)) == "end")
        #expect(shown(night.answer(EndCard.Answer.quit)) == "exit 1")
    }

    @Test("a looping queue goes round past its unusable entry, and ends only when nothing can be read")
    func looping() {
        var night = evening(["a", "xb"], loops: true)
        _ = reading(night.firstStep, in: &night)
        #expect(shown(reading(night.answer(QueueCard.Answer.next), in: &night)) == "skipped xb")
        #expect(shown(reading(night.answer(SkippedCard.Answer.goOn), in: &night)) == "card A")
        #expect(shown(reading(night.answer(QueueCard.Answer.next), in: &night)) == "card A")
        var broken = evening(["xa", "xb"], loops: true)
        _ = reading(broken.firstStep, in: &broken)
        #expect(shown(reading(broken.answer(SkippedCard.Answer.goOn), in: &broken)) == "end")
    }

    @Test(
        "q or a signal ends the evening with its status; q with nothing read exits 1",
        arguments: [(Int32(0), Int32(0)), (130, 130), (143, 143)])
    func quitting(status: Int32, exit: Int32) {
        var night = evening(["a"])
        _ = reading(night.firstStep, in: &night)
        #expect(night.quit(status: status) == .exit(exit))
        #expect(evening(["a"]).quit() == .exit(1))
        #expect(evening(["a"]).quit(status: 130) == .exit(130))
    }

    @Test("the queue's own notes go on the first card only, and --singer on songs whose entry names none")
    func notesAndSinger() {
        var night = QueueEvening(
            queue: SongQueue(entries: [QueueEntry(path: "a"), QueueEntry(path: "b", singer: "Bo")]),
            notes: ["night.m3u:3:1: warning: a URL"], singer: "Ana")
        guard case .card(let first) = reading(night.firstStep, in: &night),
            case .card(let second) = reading(night.answer(QueueCard.Answer.next), in: &night)
        else {
            Issue.record("expected two cards")
            return
        }
        #expect(first.notes == ["night.m3u:3:1: warning: a URL"])
        #expect(first.singer == "Ana")
        #expect(second.notes.isEmpty)
        #expect(second.singer == "Bo")
    }

    @Test("a playlist's title shows when the lyrics name no song, and the file's name when neither does")
    func titles() {
        var night = QueueEvening(
            queue: SongQueue(entries: [QueueEntry(path: "a.lrc", title: "Opening"), QueueEntry(path: "b.lrc")]))
        #expect(shown(night.read(title: nil, fallbackTitle: "a.lrc", now: 0)) == "card Opening")
        _ = night.nextSong()
        #expect(shown(night.read(title: nil, fallbackTitle: "b.lrc", now: 0)) == "card b.lrc")
        #expect(shown(night.read(title: "B — Band", fallbackTitle: "b.lrc", now: 0)) == "card B — Band")
    }

}
