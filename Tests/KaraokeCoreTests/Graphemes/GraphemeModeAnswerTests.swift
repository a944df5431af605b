import Testing

@testable import KaraokeCore

@Suite("Reading the terminal's answer about grapheme-cluster mode")
struct GraphemeModeAnswerTests {
    /// What one answer should say.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let answer: String
        let state: GraphemeModeAnswer.State?
        let complete: Bool
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        // Nothing came back before the deadline.
        Case(label: "silence", answer: "", state: nil, complete: false),
        // Each Ps DECRPM defines, then the device attributes.
        Case(label: "unrecognised", answer: "^[[?2027;0$y^[[?62c", state: .unrecognised, complete: true),
        Case(label: "set", answer: "^[[?2027;1$y^[[?62c", state: .set, complete: true),
        Case(label: "reset, settable", answer: "^[[?2027;2$y^[[?62c", state: .reset, complete: true),
        Case(label: "permanently set", answer: "^[[?2027;3$y^[[?62;4c", state: .permanentlySet, complete: true),
        Case(label: "permanently reset", answer: "^[[?2027;4$y^[[?1;2c", state: .permanentlyReset, complete: true),
        // A Ps the standard does not define is as good as not knowing the mode.
        Case(label: "undefined Ps", answer: "^[[?2027;9$y^[[?62c", state: .unrecognised, complete: true),
        // A terminal without DECRQM (tmux 3.3a, the Linux console) answers only the attributes.
        Case(label: "attributes only", answer: "^[[?1;2c", state: nil, complete: true),
        // The report of another mode is not ours.
        Case(label: "another mode", answer: "^[[?2026;2$y^[[?62c", state: nil, complete: true),
        // An ANSI-mode report (no `?`) is not ours either.
        Case(label: "ANSI mode report", answer: "^[[2027;2$y^[[?62c", state: nil, complete: true),
        // A report without its `$` is not DECRPM.
        Case(label: "no dollar", answer: "^[[?2027;2y^[[?62c", state: nil, complete: true),
        // Other answers and keys around it: the kitty answer, the cell size, typed letters.
        Case(
            label: "among other answers", answer: "x^[_Gi=31;OK^[\\^[[6;16;8tq^[[?2027;2$yz^[[?62;4c",
            state: .reset, complete: true),
        // Garbage, a lone ESC and a broken sequence before the report.
        Case(
            label: "after garbage", answer: "\u{7}^[^[[?;;$y^[[?2027;3$y^[[?62c", state: .permanentlySet, complete: true
        ),
        // A report after the attributes comes too late: the wait is over.
        Case(label: "too late", answer: "^[[?62c^[[?2027;1$y", state: nil, complete: true),
        // Cut off inside the attributes: the report is read, more bytes are awaited.
        Case(label: "cut in the attributes", answer: "^[[?2027;1$y^[[?6", state: .set, complete: false),
        // Numbers absurdly long are no answer.
        Case(label: "absurd number", answer: "^[[?2027;10000000$y^[[?62c", state: nil, complete: true),
    ]

    @Test("each answer says what the terminal reported", arguments: cases)
    func reads(_ item: Case) {
        let answer = GraphemeModeAnswer(bytes: bytes(item.answer))
        #expect(answer.state == item.state)
        #expect(answer.isComplete == item.complete)
    }

    @Test("an answer cut anywhere waits for the rest and then reads the same")
    func splitReads() {
        let whole = bytes("^[_Gi=31;OK^[\\^[[?2027;2$y^[[6;16;8t^[[?62;4c")
        for cut in 0..<whole.count {
            let part = GraphemeModeAnswer(bytes: Array(whole[..<cut]))
            #expect(!part.isComplete, "cut at \(cut)")
            #expect(part.state == nil || part.state == .reset, "cut at \(cut)")
        }
        #expect(GraphemeModeAnswer(bytes: whole) == GraphemeModeAnswer(bytes: whole + bytes("^[[?2027;1$y")))
        #expect(GraphemeModeAnswer(bytes: whole).state == .reset)
        #expect(GraphemeModeAnswer(bytes: whole).isComplete)
    }

    @Test("random bytes never crash the reader")
    func randomBytes() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = bytes("^[[?2027;0123456789$ycp_\\G")
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<40, using: &generator)
            let random = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            _ = GraphemeModeAnswer(bytes: random)
        }
    }

    @Test("the question is DECRQM 2027 followed by the device attributes")
    func question() {
        #expect(String(decoding: GraphemeModeAnswer.query, as: UTF8.self) == "\u{1B}[?2027$p\u{1B}[c")
        #expect(GraphemeModeAnswer.setMode == "\u{1B}[?2027h")
        #expect(GraphemeModeAnswer.resetMode == "\u{1B}[?2027l")
        // Batched with the pixels' questions, the attributes are asked once, last.
        let batched = String(decoding: TerminalGraphicsAnswer.questions + GraphemeModeAnswer.query, as: UTF8.self)
        #expect(batched.components(separatedBy: "\u{1B}[c").count == 2)
        #expect(batched.hasSuffix("\u{1B}[?2027$p\u{1B}[c"))
    }

    /// A choice, an answer, and how emoji sequences are then painted.
    struct Choosing: CustomTestStringConvertible, Sendable {
        let label: String
        let choice: GraphemesChoice
        let state: GraphemeModeAnswer.State?
        let paintsCells: Bool
        let form: GraphemeForm
        let setsMode: Bool
        var testDescription: String { label }
    }

    static let choosing: [Choosing] = [
        // auto follows the answer.
        Choosing(label: "auto, set", choice: .auto, state: .set, paintsCells: true, form: .whole, setsMode: false),
        Choosing(
            label: "auto, permanently set", choice: .auto, state: .permanentlySet, paintsCells: true, form: .whole,
            setsMode: false),
        // Settable: karaoke turns it on (and off again at the end).
        Choosing(
            label: "auto, settable", choice: .auto, state: .reset, paintsCells: true, form: .whole, setsMode: true),
        Choosing(
            label: "auto, unrecognised", choice: .auto, state: .unrecognised, paintsCells: true, form: .reduced,
            setsMode: false),
        Choosing(
            label: "auto, permanently reset", choice: .auto, state: .permanentlyReset, paintsCells: true,
            form: .reduced, setsMode: false),
        Choosing(
            label: "auto, no answer", choice: .auto, state: nil, paintsCells: true, form: .reduced, setsMode: false),
        // whole and reduced decide without the answer, and never set the mode.
        Choosing(
            label: "whole, no answer", choice: .whole, state: nil, paintsCells: true, form: .whole, setsMode: false),
        Choosing(
            label: "whole, settable", choice: .whole, state: .reset, paintsCells: true, form: .whole, setsMode: false),
        Choosing(
            label: "reduced, set", choice: .reduced, state: .set, paintsCells: true, form: .reduced, setsMode: false),
        Choosing(
            label: "reduced, settable", choice: .reduced, state: .reset, paintsCells: true, form: .reduced,
            setsMode: false),
        // A terminal painted through ncurses holds one spacing character a cell: always reduced.
        Choosing(
            label: "auto, settable, ncurses paints", choice: .auto, state: .reset, paintsCells: false, form: .reduced,
            setsMode: false),
        Choosing(
            label: "whole, ncurses paints", choice: .whole, state: nil, paintsCells: false, form: .reduced,
            setsMode: false),
    ]

    @Test("the choice and the answer decide the painted form and whether the mode is set", arguments: choosing)
    func chooses(_ item: Choosing) {
        var answer = GraphemeModeAnswer()
        answer.state = item.state
        let chosen = answer.form(for: item.choice, paintsCells: item.paintsCells)
        #expect(chosen.form == item.form)
        #expect(chosen.setsMode == item.setsMode)
    }
}
