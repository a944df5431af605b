import Testing
@testable import KaraokeCore

/// Names compared with case, spacing and punctuation ignored (DESIGN §10.3).
@Suite("Finding: names matched whatever their case, spacing and punctuation")
struct NameMatchingTests {
    @Test(
        "names that differ only in case, spacing and punctuation have one key",
        arguments: [
            ("AC/DC - Thunderstruck", "ac dc-thunderstruck"), // slash, dash, spaces, case
            ("ACDC_Thunderstruck", "AC.DC  Thunderstruck!"), // underscore, dots, double space
            ("Guns N' Roses - Don't Cry", "guns n roses dont cry"), // apostrophes
            ("  Sigur Rós – Hoppípolla  ", "sigur rós hoppípolla"), // en dash, accents kept, outer spaces
            ("坂本龍一 - 戦場のメリークリスマス", "坂本龍一戦場のメリークリスマス"), // CJK letters are letters
            ("Blink-182 (Live)", "blink 182 live"), // digits and parentheses
        ])
    func sameKey(a: String, b: String) {
        #expect(NameMatching.key(a) == NameMatching.key(b))
        #expect(!NameMatching.key(a).isEmpty)
    }

    @Test(
        "names with other letters, digits or order have other keys",
        arguments: [
            ("Thunderstruck", "Thunderstruk"), // a letter missing
            ("Song 2", "Song 3"), // a digit
            ("Bjork", "Björk"), // an accent is a different letter
            ("Artist - Title", "Title - Artist"), // the order
        ])
    func otherKey(a: String, b: String) {
        #expect(NameMatching.key(a) != NameMatching.key(b))
    }

    @Test(
        "a name of punctuation alone has an empty key, and no artist-title key", arguments: ["", " - ", "!!!", "..."])
    func emptyKey(name: String) {
        #expect(NameMatching.key(name) == "")
        #expect(NameMatching.key(artist: name, title: "Title") == nil)
        #expect(NameMatching.key(artist: "Artist", title: name) == nil)
    }

    @Test("the artist-title key is the artist's letters then the title's")
    func artistTitleKey() {
        #expect(NameMatching.key(artist: "AC/DC", title: "Thunderstruck") == "acdcthunderstruck")
        #expect(NameMatching.key(artist: "AC/DC", title: "Thunderstruck") == NameMatching.key("AC-DC - Thunderstruck"))
    }

    @Test(
        "a file name read as Artist - Title: the last component, extension dropped, split at the first ' - '",
        arguments: [
            ("Queen - Bohemian Rhapsody.mp3", "Queen", "Bohemian Rhapsody"),
            ("/music/Queen/Queen - Bohemian Rhapsody.flac", "Queen", "Bohemian Rhapsody"), // folders dropped
            ("Artist - Title - Live.ogg", "Artist", "Title - Live"), // the first separator splits
            ("Jay-Z - 99 Problems.mp3", "Jay-Z", "99 Problems"), // a hyphen without spaces is part of a name
            ("a  -  b.mp3", "a", "b"), // extra spaces around the dash
        ])
    func artistAndTitle(path: String, artist: String, title: String) throws {
        let named = try #require(NameMatching.artistAndTitle(fromFileName: path))
        #expect(named.artist == artist)
        #expect(named.title == title)
    }

    @Test(
        "a file name that does not read as Artist - Title gives none",
        arguments: ["song.mp3", "Jay-Z.mp3", " - Title.mp3", "Artist - .mp3", "/a - b/song.mp3"])
    func noArtistAndTitle(path: String) {
        #expect(NameMatching.artistAndTitle(fromFileName: path) == nil)
    }
}
