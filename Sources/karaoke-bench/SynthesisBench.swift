import Foundation
import KaraokeDriver

/// A 4-minute General MIDI song for the synthesis row: at 120 bpm a melody (channel 1) in eighth notes, a bass
/// (channel 2) in quarters, three-note chords (channel 3) in halves and drums (channel 10) in eighths, as a
/// format-0 file.
func benchMidi(seconds: Int) -> [UInt8] {
    var events: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0x07, 0xA1, 0x20, 0x00, 0xC0, 73, 0x00, 0xC1, 33, 0x00, 0xC2, 48]
    let chords = [[60, 64, 67], [57, 60, 64], [53, 57, 60], [55, 59, 62]]
    // 240 ticks an eighth; each eighth: notes on, then 240 ticks later the same notes off.
    for eighth in 0..<(4 * seconds) {
        var on: [[UInt8]] = [[0x90, UInt8(67 + eighth % 8), 100], [0x99, eighth % 2 == 0 ? 36 : 42, 90]]
        if eighth % 2 == 0 { on.append([0x91, UInt8(36 + eighth / 2 % 4), 100]) }
        if eighth % 4 == 0 { on += chords[eighth / 8 % 4].map { [0x92, UInt8($0), 70] } }
        for message in on { events += [0x00] + message }
        for (index, message) in on.enumerated() {
            let isHeldChord = message[0] == 0x92 && eighth % 4 == 0
            // Chords last four eighths: their note-offs go with the fourth eighth's, written below.
            if isHeldChord { continue }
            events += (index == 0 ? [0x81, 0x70] : [0x00]) + [message[0] - 0x10, message[1], 0]
        }
        if eighth % 4 == 3 { for note in chords[eighth / 8 % 4] { events += [0x00, 0x82, UInt8(note), 0] } }
    }
    events += [0x00, 0xFF, 0x2F, 0x00]
    let size = (0..<4).reversed().map { UInt8(events.count >> (8 * $0) & 0xFF) }
    return Array("MThd".utf8) + [0, 0, 0, 6, 0, 0, 0, 1, 0x01, 0xE0] + Array("MTrk".utf8) + size + events
}

/// The synthesis rows: a 4-minute song rendered whole, and whole with its accompaniment (what `play` does
/// for a song with a melody channel), by FluidSynth and by libsonivox (the synthesiser when no SoundFont is
/// installed), each the median of `runs`, as a multiple of real time (DESIGN §18.1, §18.5).
func synthesisRows(data: String, runs: Int) -> [(String, String, String, String)] {
    var synthesisers: [MidiSynthesis.Synthesiser] = []
    var rows: [(String, String, String, String)] = []
    if case .success(let soundfont) = MidiSynthesis.soundfont(given: nil) {
        synthesisers.append(.fluidSynth(soundfont: soundfont))
    } else {
        rows.append(("synthesise a 4-minute MIDI (FluidSynth)", "not run", "no SoundFont (make deps)", "20× real time"))
    }
    // Asked with no SoundFont to find, so the answer is libsonivox whenever it loads.
    if case .success(let fallback) = MidiSynthesis.synthesiser(given: nil, candidates: []) {
        synthesisers.append(fallback)
    } else {
        rows.append(
            ("synthesise a 4-minute MIDI (libsonivox)", "not run", "no libsonivox3 (make deps)", "20× real time"))
    }
    let midi = benchMidi(seconds: 240)
    for synthesiser in synthesisers {
        for (name, channel) in [("whole song", nil), ("whole song and accompaniment", 0 as Int?)] {
            let label = "synthesise a 4-minute MIDI, \(name) (\(synthesiser.name))"
            var seconds: [Double] = []
            var audio = 0.0
            for _ in 0..<runs {
                let whole = open("\(data)/bench-synth.wav", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                let other = open("\(data)/bench-synth-accompaniment.wav", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
                let start = ContinuousClock.now
                let result = MidiSynthesis.render(
                    midi: midi, synthesiser: synthesiser, melodyChannel: channel, whole: whole, accompaniment: other
                ) { _ in true }
                let elapsed = ContinuousClock.now - start
                close(whole)
                close(other)
                guard case .success(let frames) = result else {
                    rows.append((label, "failed", "", "20× real time"))
                    break
                }
                audio = Double(frames) / Double(MidiSynthesis.sampleRate(of: synthesiser))
                seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
            guard seconds.count == runs else { continue }
            let taken = median(seconds)
            rows.append(
                (
                    label, "\(fixed(taken, 2)) s for \(fixed(audio)) s", "\(fixed(audio / taken))× real time",
                    "20× real time"
                ))
        }
    }
    return rows
}
