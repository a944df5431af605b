/// What the host's screens show of the party at one moment (DESIGN §22.2): the waiting requests in singing
/// order, how guests join, whether requests are open, and the scoreboard.
///
/// The edge makes a new one after every change to the rotation and hands it to the screen that is up; the
/// screens never look at the rotation themselves.
public struct PartyView: Sendable, Equatable {
    /// The waiting requests in singing order.
    public var upNext: [PartyCard.Entry]
    /// The id of each of `upNext`, for the host's keys.
    public var requestIDs: [Int]
    /// The guests' address.
    public var address: String
    /// The room code.
    public var code: String
    /// The QR code of `address`, when it could be made.
    public var qr: QRModules?
    /// Whether requests are closed.
    public var paused: Bool
    /// The evening's best singers, best first (empty without `--score`).
    public var best: [PartyScoreboard.Entry]

    /// A view of these parts.
    public init(
        upNext: [PartyCard.Entry], requestIDs: [Int], address: String, code: String, qr: QRModules?,
        paused: Bool = false, best: [PartyScoreboard.Entry] = []
    ) {
        self.upNext = upNext
        self.requestIDs = requestIDs
        self.address = address
        self.code = code
        self.qr = qr
        self.paused = paused
        self.best = best
    }

    /// The view of `rotation`, its songs named from `songs`.
    public init(
        rotation: PartyRotation, songs: PartySongs, address: String, code: String, qr: QRModules?,
        best: [PartyScoreboard.Entry] = []
    ) {
        let order = rotation.order
        self.init(
            upNext: order.map { PartyCard.Entry(singer: $0.singer.shown, song: songs.shownName(of: $0.song)) },
            requestIDs: order.map(\.id), address: address, code: code, qr: qr, paused: rotation.isPaused, best: best)
    }

    /// The card of this view with `status` in its status row and `selected` marked.
    public func card(selected: Int?, status: String) -> PartyCard {
        PartyCard(
            upNext: upNext, address: address, code: code, qr: qr, paused: paused, selected: selected, status: status,
            best: best)
    }
}

extension PartySongs {
    /// How the card names the song with `id`: its title, and its artist after a dash when known.
    public func shownName(of id: String) -> String {
        guard let song = self[id] else { return "(a song no longer here)" }
        return song.artist.isEmpty ? song.title : song.title + " · " + song.artist
    }
}
