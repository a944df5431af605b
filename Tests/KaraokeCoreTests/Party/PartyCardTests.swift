import Testing

@testable import KaraokeCore

/// A 29-module symbol (version 3) of a fixed pattern: enough to lay out, not a code to scan.
private let modules = QRModules(width: 29, dark: (0..<(29 * 29)).map { ($0 * 7 + $0 / 29) % 3 == 0 })

private let address = "http://192.168.1.23:8737/"

private func card(_ count: Int, qr: QRModules? = modules, selected: Int? = nil, paused: Bool = false) -> PartyCard {
    PartyCard(
        upNext: (0..<count).map { PartyCard.Entry(singer: "Singer \($0 + 1)", song: "Song \($0 + 1)") },
        address: address, code: "4821", qr: qr, paused: paused, selected: selected,
        status: "space start  ↑↓ select  q quit")
}

@Suite("The party's up-next card")
struct PartyCardTests {
    @Test("at 80×24 the QR code sits on the left, the address, the code and five singers beside it, the keys below")
    func beside() {
        let frame = card(7).frame(columns: 80, rows: 24)
        #expect(frame.rows.count == 24)
        let code = frame.rows.filter { $0.kind == .code }
        #expect(code.count == 19) // 29 modules and two quiet zones of 4: 37 modules, 19 rows of two
        #expect(code.allSatisfy { row in row.cells.filter { $0.role == .code }.count == 37 })
        let text = frame.textRendering()
        #expect(text.contains(address) && text.contains("room code 4821"))
        for k in 1...5 { #expect(text.contains("\(k). Singer \(k) — Song \(k)")) }
        #expect(!text.contains("Singer 6") && text.contains("and 2 more"))
        #expect(frame.rows.last?.text == "space start  ↑↓ select  q quit")
        // The text starts right of the code, on rows the code also takes.
        let addressRow = frame.rows.first { $0.text.contains(address) }
        let addressColumn = addressRow?.cells.first { $0.role == .title }?.column ?? 0
        let codeEnd = code.first?.cells.filter { $0.role == .code }.map { $0.column + 1 }.max() ?? 0
        #expect(addressColumn >= codeEnd + 3)
        #expect(addressRow?.cells.contains { $0.role == .code } == true)
    }

    @Test("on a narrow, tall screen the code goes above the text; with no room for it, the address stays in text")
    func narrow() {
        let above = card(2).frame(columns: 40, rows: 34)
        let codeRows = above.rows.indices.filter { above.rows[$0].kind == .code }
        let addressRow = above.rows.firstIndex { $0.text.contains(address) } ?? -1
        #expect(codeRows.count == 19 && addressRow > (codeRows.max() ?? 0))
        let small = card(2).frame(columns: 40, rows: 14)
        #expect(!small.rows.contains { $0.kind == .code })
        let text = small.textRendering()
        #expect(text.contains(address) && text.contains("the QR code needs a larger terminal"))
        // Without a QR code at all (libqrencode missing) nothing says a larger terminal would help.
        #expect(!card(2, qr: nil).frame(columns: 80, rows: 24).textRendering().contains("larger terminal"))
    }

    @Test("the selected request is marked, an empty queue says so, and paused requests are said")
    func marks() {
        let selected = card(3, selected: 1).frame(columns: 80, rows: 24).textRendering()
        #expect(selected.contains("▸ 2. Singer 2 — Song 2") && selected.contains("  1. Singer 1"))
        let empty = card(0, paused: true).frame(columns: 80, rows: 24).textRendering()
        #expect(empty.contains("Nothing queued yet") && empty.contains("requests are paused"))
    }

    @Test("a guest's name with escape sequences and bidi controls reaches the card without them")
    func hostileNames() {
        var hostile = card(0)
        hostile.upNext = [PartyCard.Entry(singer: "Eve\u{1B}[2J\u{202E}", song: "Song\u{7}")]
        let frame = hostile.frame(columns: 80, rows: 24)
        let scalars = frame.rows.flatMap { $0.cells.flatMap { $0.glyph.unicodeScalars } }
        #expect(!scalars.contains { $0.value == 0x1B || $0.value == 0x202E || $0.value == 0x07 })
        #expect(frame.textRendering().contains("1. Eve[2J — Song"))
    }

    @Test(
        "every size from 1×1 to 120×40 gives a frame of that size, the status row last",
        arguments: [1, 7, 20, 40, 80, 120])
    func everySize(columns: Int) {
        for rows in [1, 2, 5, 12, 24, 40] {
            let frame = card(9, selected: 4).frame(columns: columns, rows: rows)
            #expect(frame.rows.count == rows && frame.columns == columns)
            #expect(
                frame.rows.allSatisfy { row in
                    row.cells.allSatisfy { $0.column >= 0 && $0.column + $0.width <= columns }
                })
        }
    }
}
