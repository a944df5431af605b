import Testing
@testable import KaraokeCore

/// Every kind of screen event, for the mapping tests.
private let screenEvents: [ScreenEvent] = [
    .tick, .key(.character("q")), .signal(.hangup), .signal(.resumed), .resize(columns: 80, rows: 24),
]

/// Every kind of screen effect, for the mapping tests.
private let screenEffects: [ScreenEffect] = [
    .paint(Frame(time: 0, columns: 1, rows: [.blank])), .wait(until: 3), .wait(until: nil), .suspend, .exit(130),
]

@Suite("The screen's events and effects, carried the same way by every program")
struct ProgramEventTests {
    @Test("a screen event becomes each loop's .screen case", arguments: screenEvents)
    func screenEventMapsToScreenCase(event: ScreenEvent) {
        #expect(PlayLoop.event(event) == .screen(event))
        #expect(SyncLoop.event(event) == .screen(event))
        #expect(FollowLoop.event(event) == .screen(event))
        #expect(CardProgram<ScoreCard>.event(event) == event)
    }

    @Test("the spellings .tick, .key, .signal and .resize are the screen's events")
    func conveniencesAreScreenEvents() {
        #expect(PlayLoop.Event.tick == .screen(.tick))
        #expect(SyncLoop.Event.key(.escape) == .screen(.key(.escape)))
        #expect(FollowLoop.Event.signal(.suspend) == .screen(.signal(.suspend)))
        #expect(PlayLoop.Event.resize(columns: 3, rows: 4) == .screen(.resize(columns: 3, rows: 4)))
    }

    @Test("a screen effect comes back out of each loop's effect as it went in", arguments: screenEffects)
    func screenEffectRoundTrips(effect: ScreenEffect) {
        #expect(PlayLoop.screenEffect(.screen(effect)) == effect)
        #expect(SyncLoop.screenEffect(.screen(effect)) == effect)
        #expect(FollowLoop.screenEffect(.screen(effect)) == effect)
        #expect(CardProgram<ScoreCard>.screenEffect(.screen(effect)) == effect)
    }

    @Test("a program's own effects are not the screen's")
    func ownEffectsAreNotTheScreens() {
        #expect(PlayLoop.screenEffect(.send(.setPaused(true))) == nil)
        #expect(PlayLoop.screenEffect(.nextSong) == nil)
        #expect(SyncLoop.screenEffect(.discardAutosave) == nil)
        #expect(FollowLoop.screenEffect(.log("frame")) == nil)
    }

    @Test("paint and wait read back their frame and deadline")
    func paintAndWaitReadBack() {
        let frame = Frame(time: 0, columns: 1, rows: [.blank])
        #expect(PlayLoop.Effect.paint(frame).paintedFrame == frame)
        #expect(PlayLoop.Effect.wait(until: 2).waitDeadline == .some(2))
        #expect(PlayLoop.Effect.wait(until: nil).waitDeadline == .some(nil))
        #expect(PlayLoop.Effect.exit(0).waitDeadline == nil)
    }
}
