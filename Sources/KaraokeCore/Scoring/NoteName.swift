/// A MIDI note number's name in scientific pitch notation, for the microphone's readouts (DESIGN §15.1).
public enum NoteName {
    /// The twelve names of an octave from C, sharps for the black keys.
    static let names = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]

    /// The nearest note's name with its octave (`A4` for 69, `C4` for 60) and how far `midi` is from it in
    /// cents (−50…50).
    public static func of(midi: Double) -> (name: String, cents: Int) {
        let nearest = Int(midi.rounded())
        let octave = Int((Double(nearest) / 12).rounded(.down)) - 1
        let index = ((nearest % 12) + 12) % 12
        return (names[index] + String(octave), Int(((midi - Double(nearest)) * 100).rounded()))
    }
}
