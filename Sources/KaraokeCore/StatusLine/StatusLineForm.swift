/// How `--print` writes the current line for a status bar or a script (DESIGN §28).
public enum StatusLineForm: String, Sendable, Equatable, CaseIterable {
    /// The current line's text alone, one output line each time it changes; an empty line when nothing is sung.
    case lines
    /// One JSON object a change in waybar's custom-module format: `{"text":…,"tooltip":…,"class":…}`.
    case waybar
    /// JSON lines: `follow`'s the player's state (`FollowMessage.jsonLine`), `play`'s the line with its time.
    case json
}
