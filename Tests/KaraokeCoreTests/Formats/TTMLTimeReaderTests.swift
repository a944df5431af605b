import Testing

@testable import KaraokeCore

@Suite("Reading TTML times")
struct TTMLTimeReaderTests {
    /// Clock times in every shape the shortcut takes and many it refuses, written out digit by digit.
    static let values: [String] = {
        var values = [
            "00:00:02.600", "00:01:02.5", "1:02.05", "62.5", "7", "00:00:00.000", "99:59:59.999", "100:00:00.001",
            "5:70", "1:2:3", "123456789:00", "1234567890", "2.", ".5", "1.2345", "00:00:02,600", " 00:00:01.000",
            "00:00:01.000 ", "1:2:3:4", "1::2", ":1", "1:", "12f", "1.5s", "150ms", "2m", "1h", "10t", "", "+1", "-1",
            "1:2.3.4", "00:00:0a.000", "٣", "1.5 s",
        ]
        for hours in [0, 1, 12] {
            for minutes in [0, 7, 59, 61] {
                for fraction in ["", ".0", ".05", ".123", ".1234"] {
                    values.append("\(hours):\(minutes):\(minutes % 13)\(fraction)")
                    values.append("\(minutes):0\(hours)\(fraction)")
                }
            }
        }
        return values
    }()

    @Test("the shortcut for plain clock times gives what the full reading gives", arguments: values)
    func shortcutAgreesWithFullReading(_ value: String) {
        let reader = TTMLTimeReader()
        var text = value
        text.withUTF8 { bytes in
            #expect(reader.milliseconds(bytes) == reader.fullMilliseconds(bytes))
            if let shortcut = TTMLTimeReader.plainClockMilliseconds(bytes) {
                #expect(shortcut == reader.fullMilliseconds(bytes))
            }
        }
    }

    @Test("the shortcut takes the plain shapes and leaves the rest to the full reading")
    func shortcutTakesPlainShapes() {
        func shortcut(_ value: String) -> Int? {
            var text = value
            return text.withUTF8 { TTMLTimeReader.plainClockMilliseconds($0) }
        }
        #expect(shortcut("00:00:02.600") == 2600)
        #expect(shortcut("01:02:03.4") == 3_723_400)
        #expect(shortcut("62.05") == 62_050)
        #expect(shortcut("1.5s") == nil)
        #expect(shortcut("00:00:01:12") == nil)
        #expect(shortcut("1.2345") == nil)
        #expect(shortcut(" 1.5") == nil)
    }
}
