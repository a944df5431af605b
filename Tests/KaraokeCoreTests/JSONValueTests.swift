import Testing
@testable import KaraokeCore

/// Reads `text` as JSON.
private func parse(_ text: String) throws(JSONValue.Malformed) -> JSONValue {
    try JSONValue.parse(Array(text.utf8))
}

@Suite("Reading JSON")
struct JSONValueTests {
    @Test(
        "each kind of value is read",
        arguments: [
            ("null", JSONValue.null),
            ("true", .bool(true)),
            ("false", .bool(false)),
            ("0", .number(0)),
            ("-12.5", .number(-12.5)),
            ("1e3", .number(1000)),
            ("2.5E-1", .number(0.25)),
            ("12.345", .number(12.345)), // as mpv sends a position
            (#""la""#, .string("la")),
            ("[]", .array([])),
            ("[1, \"a\", [null]]", .array([.number(1), .string("a"), .array([.null])])),
            ("{}", .object([:])),
            (#"{"a": 1, "b": {"c": true}}"#, .object(["a": .number(1), "b": .object(["c": .bool(true)])])),
            (#"{"a": 1, "a": 2}"#, .object(["a": .number(2)])), // of a name given twice the last counts
            (" \t\r\n 7 \n", .number(7)), // white space around the value
        ])
    func values(text: String, expected: JSONValue) throws {
        #expect(try parse(text) == expected)
    }

    @Test(
        "escapes in strings are decoded",
        arguments: [
            (#""a\"b""#, "a\"b"),
            (#""a\\b""#, "a\\b"),
            (#""a\/b""#, "a/b"),
            (#""\b\f\n\r\t""#, "\u{08}\u{0C}\n\r\t"),
            (#""\u0041\u00e9""#, "Aé"), // BMP escapes, either case of hex digits
            (#""\u6B4C""#, "歌"),
            (#""\uD83C\uDFA4 mic""#, "🎤 mic"), // a surrogate pair is one scalar
            (#""\u0000""#, "\u{0}"), // NUL may be escaped
            (#""歌 raw UTF-8""#, "歌 raw UTF-8"), // unescaped UTF-8 passes through
        ])
    func escapes(text: String, expected: String) throws {
        #expect(try parse(text) == .string(expected))
    }

    @Test("bytes that are not UTF-8 in a string become U+FFFD instead of failing")
    func invalidUTF8() throws {
        #expect(try JSONValue.parse([0x22, 0x61, 0xFF, 0x62, 0x22]) == .string("a\u{FFFD}b"))
    }

    @Test(
        "malformed input fails with the reason and where",
        arguments: [
            ("", 0, "expected a value, found the end"),
            ("   ", 3, "expected a value, found the end"),
            ("nul", 0, "expected 'null'"),
            ("True", 0, "expected a value"),
            ("01", 1, "text after the value"), // no leading zeros
            ("-", 1, "expected a digit"),
            ("1.", 2, "expected a digit"),
            ("1e", 2, "expected a digit"),
            (".5", 0, "expected a value"),
            ("+1", 0, "expected a value"),
            ("1e999", 0, "number out of range"),
            ("[1,]", 3, "expected a value"), // no trailing comma
            ("[1 2]", 3, "expected ',' or ']'"),
            ("[1", 2, "expected ',' or ']', found the end"),
            (#"{"a" 1}"#, 5, "expected ':'"),
            (#"{a: 1}"#, 1, "expected a member name"),
            (#"{"a": 1,}"#, 8, "expected a member name"),
            (#"{"a": 1"#, 7, "expected ',' or '}', found the end"),
            (#""abc"#, 4, "unterminated string"),
            ("\"a\nb\"", 2, "control character in a string"),
            (#""\x""#, 2, "unknown escape '\\x'"),
            (#""\u12""#, 3, "expected four hexadecimal digits"),
            (#""\uD83C""#, 7, "high surrogate without its low half"),
            (#""\uD83C\u0041""#, 13, "high surrogate without its low half"),
            (#""\uDFA4""#, 7, "lone low surrogate"),
            ("1 2", 2, "text after the value"),
            ("// comment\n1", 0, "expected a value"),
        ])
    func malformed(text: String, offset: Int, reason: String) {
        #expect(throws: JSONValue.Malformed(offset: offset, reason: reason)) { try parse(text) }
    }

    @Test(
        "nesting is read up to the limit and refused beyond it",
        arguments: [
            (1, true), (JSONValue.maximumDepth, true), (JSONValue.maximumDepth + 1, false), (100_000, false),
        ])
    func nesting(depth: Int, readable: Bool) throws {
        for (open, close) in [("[", "]"), (#"{"a":"#, "}")] {
            let text = String(repeating: open, count: depth) + "0" + String(repeating: close, count: depth)
            if readable {
                #expect(throws: Never.self) { try parse(text) }
            } else {
                #expect(throws: JSONValue.Malformed.self) { try parse(text) }
            }
        }
    }

    @Test(
        "members are looked up by name, numbers read as whole numbers only when whole",
        arguments: [
            (#"{"id": 3}"#, 3 as Int?), (#"{"id": 3.0}"#, 3), (#"{"id": 3.5}"#, nil), (#"{"id": "3"}"#, nil),
            (#"{"id": 1e300}"#, nil), (#"{"other": 3}"#, nil), ("[3]", nil),
        ])
    func memberLookup(text: String, id: Int?) throws {
        #expect(try parse(text)["id"]?.integer == id)
    }
}
