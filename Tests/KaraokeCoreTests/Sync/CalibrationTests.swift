import Testing
@testable import KaraokeCore

@Suite("Calibrating the latency")
struct CalibrationTests {
    @Test(
        "the median lateness of the taps near the clicks is the suggested latency",
        arguments: [
            // steady taps 80 ms late
            (Calibration.clickTimes.map { $0 + 80 }, 80, 16),
            // early taps suggest no latency, never a negative one
            (Calibration.clickTimes.map { $0 - 40 }, 0, 16),
            // a stray tap between clicks is left out; the median is of the rest
            (Calibration.clickTimes.prefix(9).map { $0 + 120 } + [Calibration.firstClick + 375], 120, 9),
        ])
    func medianLateness(taps: [Int], latency: Int, counted: Int) throws {
        let result = try #require(Calibration.result(taps: taps))
        #expect(result.suggestedLatency == latency)
        #expect(result.taps == counted)
    }

    @Test("fewer than half the clicks tapped gives no result")
    func tooFewTaps() {
        #expect(Calibration.result(taps: Calibration.clickTimes.prefix(7).map { $0 + 50 }) == nil)
    }

    @Test("the clicks are a mono 16-bit WAV as long as the calibration, silent between clicks")
    func clickTrack() {
        let wav = Calibration.wav()
        #expect(Array(wav.prefix(4)) == Array("RIFF".utf8))
        #expect(Array(wav[8..<16]) == Array("WAVEfmt ".utf8))
        let samples = (wav.count - 44) / 2
        #expect(samples == Calibration.length * 8)
        func sample(at milliseconds: Int) -> Int16 {
            let index = 44 + milliseconds * 8 * 2
            return Int16(bitPattern: UInt16(wav[index]) | UInt16(wav[index + 1]) << 8)
        }
        #expect(sample(at: Calibration.firstClick) != 0)
        #expect(sample(at: Calibration.firstClick + Calibration.interval / 2) == 0)
    }

    @Test("calibrating, the loop ends once every click is tapped, and never autosaves")
    func loopEndsWhenEveryClickIsTapped() {
        let t0 = 100.0
        var loop = SyncLoop(
            session: SyncSession(script: Calibration.script, wordMode: false, now: t0), fallbackTitle: "calibration",
            outputName: "", options: FrameOptions(), columns: 60, rows: 16, framesPerSecond: 30, calibrates: true,
            now: t0)
        _ = loop.start(at: t0)
        var effects: [SyncLoop.Effect] = []
        for (index, click) in Calibration.clickTimes.enumerated() {
            effects = loop.handle(.key(.character(" ")), at: t0 + Double(click) / 1000)
            if index < Calibration.clickCount - 1 { #expect(effects.last != .exit(0)) }
            #expect(!effects.contains { if case .autosave = $0 { true } else { false } })
        }
        #expect(effects.last == .exit(0))
        #expect(Calibration.result(taps: loop.session.stamps.map(\.time))?.suggestedLatency == 0)
    }
}
