import Testing

@testable import KaraokeCore

@Suite("Reading the terminal's answers about pixels")
struct TerminalGraphicsAnswerTests {
    /// What one case of answers should say.
    struct Case: CustomTestStringConvertible, Sendable {
        let label: String
        let answer: String
        let kitty: Bool
        let sixel: Bool
        let cell: (width: Int, height: Int)?
        let complete: Bool
        var testDescription: String { label }
    }

    static let cases: [Case] = [
        // Nothing came back before the deadline (tmux without passthrough, a plain pipe).
        Case(label: "none", answer: "", kitty: false, sixel: false, cell: nil, complete: false),
        // xterm -ti vt340: sixel in the attributes, a cell size.
        Case(
            label: "xterm with sixel", answer: "^[[6;16;8t^[[?63;1;2;4;6;9;15;22c", kitty: false, sixel: true,
            cell: (8, 16), complete: true),
        // kitty answers the query, then the attributes without 4.
        Case(
            label: "kitty", answer: "^[_Gi=31;OK^[\\^[[6;20;10t^[[?62;c", kitty: true, sixel: false, cell: (10, 20),
            complete: true),
        // The test's pretend terminal.
        Case(
            label: "vt220 with sixel", answer: "^[[6;16;8t^[[?62;4c", kitty: false, sixel: true, cell: (8, 16),
            complete: true),
        // A terminal that refuses the kitty query with an error.
        Case(
            label: "kitty error", answer: "^[_Gi=31;ENOTSUPPORTED:no^[\\^[[?62c", kitty: false, sixel: false,
            cell: nil, complete: true),
        // An OK for another image id is not ours.
        Case(label: "other id", answer: "^[_Gi=7;OK^[\\^[[?62c", kitty: false, sixel: false, cell: nil, complete: true),
        // An OK that comes after the attributes is not an answer: the wait is over.
        Case(
            label: "kitty too late", answer: "^[[?62c^[_Gi=31;OK^[\\", kitty: false, sixel: false, cell: nil,
            complete: true),
        // 14 and 41 are not 4.
        Case(label: "not four", answer: "^[[?1;14;41;44c", kitty: false, sixel: false, cell: nil, complete: true),
        // Sixel as the first parameter.
        Case(label: "four first", answer: "^[[?4;6c", kitty: false, sixel: true, cell: nil, complete: true),
        // Cut off in the middle of the attributes: more bytes are awaited.
        Case(
            label: "partial attributes", answer: "^[[6;16;8t^[[?62;", kitty: false, sixel: false, cell: (8, 16),
            complete: false),
        // Cut off in the kitty answer.
        Case(label: "partial kitty", answer: "^[_Gi=31;O", kitty: false, sixel: false, cell: nil, complete: false),
        // Keys typed while waiting (a letter, an arrow) are skipped.
        Case(
            label: "keys between", answer: "q^[[A^[[6;16;8tx^[[?62;4c", kitty: false, sixel: true, cell: (8, 16),
            complete: true),
        // Garbage: stray ESCs, high bytes, a lone ESC before the answer.
        Case(
            label: "garbage", answer: "\u{FF}^[^[O^[[6;0;8t^[[?62;4c", kitty: false, sixel: true, cell: nil,
            complete: true),
        // A window size report (CSI 8 t) is not a cell size.
        Case(label: "window size", answer: "^[[8;24;80t^[[?62c", kitty: false, sixel: false, cell: nil, complete: true),
        // A cell size with a missing part is no size.
        Case(label: "empty part", answer: "^[[6;;8t^[[?62c", kitty: false, sixel: false, cell: nil, complete: true),
        // Attributes without `?` are a secondary answer's shape, not the primary one.
        Case(label: "no question mark", answer: "^[[>1;10;0c", kitty: false, sixel: false, cell: nil, complete: false),
        // Absurdly long numbers are refused, not overflowed.
        Case(
            label: "huge number", answer: "^[[6;99999999999999999999;8t^[[?62;4c", kitty: false, sixel: true, cell: nil,
            complete: true),
    ]

    @Test("says what the terminal answered", arguments: cases)
    func answer(_ item: Case) {
        let answer = TerminalGraphicsAnswer(bytes: bytes(item.answer))
        #expect(answer.kitty == item.kitty)
        #expect(answer.sixel == item.sixel)
        #expect(answer.cellSize?.width == item.cell?.width)
        #expect(answer.cellSize?.height == item.cell?.height)
        #expect(answer.isComplete == item.complete)
    }

    @Test("reads the same answer whatever the read boundaries, and finishes only with the whole of it")
    func everyPrefix() {
        let whole = bytes("^[_Gi=31;OK^[\\^[[6;16;8t^[[?62;4c")
        for cut in 0..<whole.count {
            #expect(!TerminalGraphicsAnswer(bytes: Array(whole[..<cut])).isComplete, "cut at \(cut)")
        }
        let answer = TerminalGraphicsAnswer(bytes: whole)
        #expect(answer.kitty && answer.sixel && answer.isComplete)
        #expect(answer.cellSize == .init(width: 8, height: 16))
    }

    @Test("never traps on random bytes")
    func randomBytes() {
        var generator = SeededGenerator(state: 21)
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<64, using: &generator)
            // Mostly the bytes answers are made of, so sequences start and nearly finish.
            let alphabet = bytes("^[[_G?;=c t\\0123456789iOK")
            let random = (0..<count).map { _ in
                Bool.random(using: &generator)
                    ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
            }
            _ = TerminalGraphicsAnswer(bytes: random)
        }
    }

    @Test("the query asks kitty, the cell size, then the attributes last")
    func query() {
        let text = String(decoding: TerminalGraphicsAnswer.query, as: UTF8.self)
        #expect(text == "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\\u{1B}[16t\u{1B}[c")
    }
}

@Suite("Choosing how a picture is drawn")
struct PixelProtocolTests {
    static let sixelTerminal = TerminalGraphicsAnswer(bytes: bytes("^[[6;16;8t^[[?62;4c"))
    static let kittyTerminal = TerminalGraphicsAnswer(bytes: bytes("^[_Gi=31;OK^[\\^[[6;16;8t^[[?62;4c"))
    static let noSize = TerminalGraphicsAnswer(bytes: bytes("^[_Gi=31;OK^[\\^[[?62;4c"))
    static let silent = TerminalGraphicsAnswer()

    @Test("auto takes what the terminal said, sixel first; cells never; none without a cell size")
    func choices() {
        #expect(PixelProtocol.chosen(by: .auto, answer: Self.sixelTerminal) == .sixel)
        // This terminal answers both: sixel, whose changes cost only the cells over them.
        #expect(PixelProtocol.chosen(by: .auto, answer: Self.kittyTerminal) == .sixel)
        let kittyOnly = TerminalGraphicsAnswer(bytes: bytes("^[_Gi=31;OK^[\\^[[6;16;8t^[[?62c"))
        #expect(PixelProtocol.chosen(by: .auto, answer: kittyOnly) == .kitty)
        #expect(PixelProtocol.chosen(by: .auto, answer: Self.noSize) == nil)
        #expect(PixelProtocol.chosen(by: .auto, answer: Self.silent) == nil)
        #expect(PixelProtocol.chosen(by: .cells, answer: Self.kittyTerminal) == nil)
        #expect(PixelProtocol.chosen(by: .sixel, answer: Self.kittyTerminal) == .sixel)
        #expect(PixelProtocol.chosen(by: .kitty, answer: Self.sixelTerminal) == .kitty)
        #expect(PixelProtocol.chosen(by: .sixel, answer: Self.noSize) == nil)
    }
}
