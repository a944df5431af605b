/// How a CD+G picture is drawn as pixels, when the terminal draws them (DESIGN §19.9).
public enum PixelProtocol: String, Sendable, Equatable {
    /// DEC sixel graphics.
    case sixel
    /// The kitty graphics protocol.
    case kitty

    /// The protocol `choice` and the terminal's `answer` call for; nil draws the picture in cells.
    ///
    /// Without a cell size nothing can be placed over cells, so nothing is drawn in pixels. `auto` takes
    /// what the terminal said it draws, sixel first: a change sends only the cells over it again in sixel,
    /// the whole picture in kitty (DESIGN §19.9); `sixel` and `kitty` take that one, trusting the person who
    /// asked for it over a terminal that did not say.
    public static func chosen(by choice: GraphicsChoice, answer: TerminalGraphicsAnswer) -> PixelProtocol? {
        guard answer.cellSize != nil else { return nil }
        switch choice {
        case .cells: return nil
        case .sixel: return .sixel
        case .kitty: return .kitty
        case .auto: return answer.sixel ? .sixel : answer.kitty ? .kitty : nil
        }
    }
}
