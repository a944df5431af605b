/// One line of a help box: the keys, and what they do.
public typealias HelpEntry = (keys: String, meaning: String)

/// What one frame shows besides the song and the screen: the moment, the pause, the help box, the notice,
/// the user offset, reduce motion, the singer's settings and the singers' progress (DESIGN §4, §17.1).
///
/// Every screen fills one in from its own state (`PlayerState`, `FollowLoop`, `SyncLoop`) and hands it to
/// `FrameComposer.frame(_:)`, so the composer needs to know nothing about which screen asks; the help box
/// lists the entries given, whoever's keys they are.
public struct FrameInput {
    /// Seconds of playback.
    public var time: Double
    /// The clock the title gradient drifts on (the loop's own); `time` when nil.
    public var titleTime: Double?
    /// Shown in the status bar; the view does not glide to a new line while paused.
    public var paused: Bool
    /// The help box's lines, drawn over the lyrics; nil while it is closed.
    public var help: [HelpEntry]?
    /// The page of the help box shown, from 0 (DESIGN §4.2).
    public var helpPage: Int
    /// A short message for the status bar, in place of the key hints.
    public var notice: String?
    /// The user's offset in milliseconds; positive shows lyrics earlier.
    public var userOffset: Int
    /// Whole units light instead of the sweep, and the title stands still.
    public var reduceMotion: Bool
    /// Whether the romanization rows are hidden for now (`t`, DESIGN §29.3).
    public var hidesRomanization = false
    /// The singer's key, tempo and vocals when changed (`key +2  tempo 0.85×`, DESIGN §14.1).
    public var singing: String?
    /// Each singer's progress while scoring: the lanes' hits and trail, the score in the status bar
    /// (DESIGN §15.3, §15.4).
    public var singers: [SingerProgress]
    /// The line marked as selected (`sync`'s, which the nudge keys move, DESIGN §13.1); nil for none.
    public var selectedLine: Int?
    /// The CD+G picture in cells, at the size `FrameComposer.pictureArea` gives, for `.graphics` content
    /// (DESIGN §19.7).
    public var picture: PictureCells?

    /// What a frame at `time` shows; by default running, without help, notice, offset or singers.
    public init(
        time: Double, titleTime: Double? = nil, paused: Bool = false, help: [HelpEntry]? = nil, helpPage: Int = 0,
        notice: String? = nil, userOffset: Int = 0, reduceMotion: Bool = false, singing: String? = nil,
        singers: [SingerProgress] = []
    ) {
        self.time = time
        self.titleTime = titleTime
        self.paused = paused
        self.help = help
        self.helpPage = helpPage
        self.notice = notice
        self.userOffset = userOffset
        self.reduceMotion = reduceMotion
        self.singing = singing
        self.singers = singers
    }

    /// What a frame at `time` shows under `overlay`: its help (listing `keys`) at its page, notice at monotonic `now`,
    /// user offset and reduce motion.
    public init(
        time: Double, titleTime: Double?, paused: Bool, overlay: Overlay, keys: [HelpEntry], at now: Double,
        singing: String? = nil, singers: [SingerProgress] = []
    ) {
        self.init(
            time: time, titleTime: titleTime, paused: paused, help: overlay.showsHelp ? keys : nil,
            helpPage: overlay.helpPage, notice: overlay.noticeText(at: now), userOffset: overlay.userOffset,
            reduceMotion: overlay.reduceMotion,
            singing: singing, singers: singers)
        hidesRomanization = overlay.hidesRomanization
    }
}
