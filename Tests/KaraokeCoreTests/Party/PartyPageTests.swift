import Testing

@testable import KaraokeCore

@Suite("The guests' page")
struct PartyPageTests {
    /// The page's text, lower-cased, for the searches below.
    static let lowered = PartyPage.html.lowercased()

    @Test(
        "the page refers to nothing outside itself and never writes markup from text",
        arguments: [
            // A URL to another site, with or without its scheme.
            "http:", "https:", "//",
            // A style sheet, script, picture or font fetched from anywhere.
            "<link", "src=", "@import", "url(",
            // Text written as markup instead of through textContent.
            "innerhtml", "outerhtml", "insertadjacenthtml", "document.write",
        ])
    func selfContained(forbidden: String) {
        #expect(!Self.lowered.contains(forbidden))
    }

    @Test(
        "the page says it is UTF-8 and fits a phone's width",
        arguments: [
            #"<meta charset="utf-8">"#, #"<meta name="viewport" content="width=device-width, initial-scale=1">"#,
        ])
    func head(tag: String) {
        #expect(Self.lowered.contains(tag))
    }

    @Test("the page is one small file: under 12 KB")
    func size() {
        #expect(PartyPage.html.utf8.count < 12 * 1024)
    }

    @Test(
        "the page has the elements its browser test finds it by",
        arguments: [
            #"id="name""#, #"id="code""#, #"id="search""#, #"id="results""#, #"id="queue""#, #"id="message""#,
            #"id="place""#, #"id="paused""#, #"id="now""#, #"id="change""#,
        ])
    func elements(attribute: String) {
        #expect(PartyPage.html.contains(attribute))
    }

    @Test("the API serves the page at / as UTF-8 HTML, byte for byte")
    func served() {
        var api = PartyAPI(songs: PartySongs([]), code: "1234", page: Array(PartyPage.html.utf8))
        let reply = api.respond(to: HTTPRequest(method: "GET", path: "/", client: "192.0.2.1"), at: 0)
        #expect(reply.status == 200)
        #expect(reply.contentType == "text/html; charset=utf-8")
        #expect(reply.body == Array(PartyPage.html.utf8))
    }
}
