import Testing

@testable import KaraokeCore

/// A song in the folder `/music`.
private func song(_ path: String, _ title: String?, _ artist: String?, _ duration: Double? = nil) -> PartySongs.Song {
    PartySongs.Song(folder: "/music", path: path, title: title, artist: artist, duration: duration)
}

/// A small evening's songs.
private let evening = PartySongs([
    song("Queen/Bohemian Rhapsody.lrc", "Bohemian Rhapsody", "Queen", 354),
    song("Beyonce - Halo.lrc", "Halo", "Beyoncé"),
    song("Sigur Ros/Hoppipolla.lrc", "Hoppípolla", "Sigur Rós"),
    song("abba/dancing queen.kar", "Dancing Queen", "ABBA"),
    song("untagged/Mystery Song.cdg", nil, nil),
    song("vn/Tiếng.lrc", "Tiếng Việt", "Ca sĩ"),
])

@Suite("The party's songs")
struct PartySongsTests {
    @Test(
        "text is folded for search: case and accents do not count",
        arguments: [
            ("Beyoncé", "beyonce"),
            ("e\u{301}te\u{301}", "ete"), // decomposed accents are dropped
            ("ÅNGSTRÖM", "angstrom"),
            ("Łódź", "lodz"),
            ("Tiếng Việt", "tieng viet"), // two marks on one letter
            ("Straße", "strasse"),
            ("Æon Œuvre", "aeon oeuvre"),
            ("ΚΑΛΗ", "καλη"), // Greek is lower-cased
            ("歌", "歌"),
        ])
    func folding(text: String, expected: String) {
        #expect(SearchFolding.folded(text) == expected)
    }

    @Test(
        "a search matches every word in title, artist or file name",
        arguments: [
            ("beyonce", ["Halo"]),
            ("HOPPIPOLLA ros", ["Hoppípolla"]),
            ("queen", ["Dancing Queen", "Bohemian Rhapsody"]), // artist order: ABBA before Queen
            ("mystery", ["Mystery Song"]), // no tags: the title is the file's base name
            ("cdg", ["Mystery Song"]), // the file name is searched
            ("viet", ["Tiếng Việt"]),
            ("queen rhapsody", ["Bohemian Rhapsody"]),
            ("nothing like this", []),
        ])
    func search(query: String, titles: [String]) {
        #expect(evening.search(query).map(\.title) == titles)
    }

    @Test("matches on title and artist come before matches on the file name alone")
    func ranking() {
        let songs = PartySongs([
            song("a/Zed - Other.lrc", "Other", "Zed"), // "zed" only in artist
            song("a/Alpha - zed.lrc", "Alpha", "Ann"), // "zed" only in the file name
        ])
        #expect(songs.search("zed").map(\.title) == ["Other", "Alpha"])
        #expect(songs.search("alpha").map(\.title) == ["Alpha"])
    }

    @Test("an empty query gives the songs in their stable order, the limit bounded")
    func limit() {
        #expect(evening.search("").map(\.artist) == ["", "ABBA", "Beyoncé", "Ca sĩ", "Queen", "Sigur Rós"])
        #expect(evening.search("", limit: 2).count == 2)
        #expect(evening.search("", limit: 0).count == 1) // at least one
        let many = PartySongs((0..<150).map { song("s\($0).lrc", "Song \($0)", "Band") })
        #expect(many.search("song", limit: 500).count == PartySongs.maximumLimit)
        #expect(many.search("song").count == PartySongs.defaultLimit)
    }

    @Test("ids are opaque, URL-safe and the same for the same folder and path")
    func ids() throws {
        let first = song("Queen/Bohemian Rhapsody.lrc", "Bohemian Rhapsody", "Queen")
        let again = song("Queen/Bohemian Rhapsody.lrc", "Another title", nil)
        let elsewhere = PartySongs.Song(
            folder: "/other", path: "Queen/Bohemian Rhapsody.lrc", title: nil, artist: nil, duration: nil)
        #expect(first.id == again.id)
        #expect(first.id != elsewhere.id)
        #expect(first.id.count == 16)
        #expect(first.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        #expect(!first.id.includes("Queen"))
        #expect(evening[first.id]?.duration == 354)
        #expect(evening["../etc/passwd"] == nil)
    }

    @Test("control and bidi characters are removed from the song's text")
    func cleaned() {
        let dirty = song("x/a\u{1B}[31m.lrc", "Ti\u{202E}tle\u{7}", " Art\u{200F}ist ")
        #expect(dirty.title == "Title")
        #expect(dirty.artist == "Artist")
        #expect(dirty.fileName == "a[31m.lrc")
    }

    @Test("the same file listed twice is one song")
    func duplicates() {
        let songs = PartySongs([song("a.lrc", "A", nil), song("a.lrc", "A", nil)])
        #expect(songs.songs.count == 1)
    }
}
