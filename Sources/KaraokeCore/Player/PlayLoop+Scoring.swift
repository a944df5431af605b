extension ScoringSession {
    /// The status bar's words when singer `singer`'s microphone stops: the others are still scored.
    public static func lostNotice(singer: Int, of session: ScoringSession?, reason: String) -> String {
        let who: String
        if let session, session.keepers.count > 1, session.keepers.indices.contains(singer),
            case .part(let n) = session.keepers[singer].progress.part
        {
            who = "P\(n + 1)'s microphone"
        } else {
            who = "the microphone"
        }
        return "\(who) stopped: \(reason); no more scoring from it"
    }
}
