import Foundation
import JSONBytes
import Testing

/// `StrictJSON`: exactly RFC 8259, with where and what for the first problem. Foundation on Linux reads some of
/// these (a trailing comma above all), which is why the checker exists.
@Suite struct StrictJSONTests {
    @Test(arguments: [
        "{}", "[]", "0", "-0.5e+10", "\"\\u00e9\\/\\uD83D\\uDE00\"", " \r\n\t{\"a\": [1, true, false, null]} ",
        "\u{FEFF}{\"a\": 1}", "{\"\\/\": \"x\"}", "\"caf\u{E9} \u{1F600}\"",
    ])
    func acceptsValidJSON(_ text: String) throws {
        try StrictJSON.validate(Array(text.utf8))
    }

    @Test(arguments: [
        ("{\"a\": 1,}", 1, 8, "trailing comma before '}': JSON allows no comma after the last member"),
        ("[1,\n 2,\n]", 2, 3, "trailing comma before ']': JSON allows no comma after the last element"),
        ("{\"a\": 1 \"b\": 2}", 1, 9, "expected ',' or '}' after a member, found '\"'"),
        ("{a: 1}", 1, 2, "expected a member name in double quotes, found 'a'"),
        ("['x']", 1, 2, "expected a JSON value, found '''"),
        ("{\"a\": 01}", 1, 7, "a number may not have a leading zero"),
        ("[NaN]", 1, 2, "expected a JSON value, found 'N'"),
        ("{\"a\": \"b\"} {}", 1, 12, "unexpected '{' after the end of the JSON value"),
        ("// c\n{}", 1, 1, "expected a JSON value, found '/'"),
        ("[\"a\tb\"]", 1, 4, "control character U+0009 inside a string (write it as an escape)"),
        ("[\"\\x\"]", 1, 3, "invalid escape \\x in a string"),
        ("[\"\\uD800\"]", 1, 9, "unpaired surrogate escape \\uD800"),
        ("[\"é\", tru]", 1, 7, "expected 'true'"),
        ("", 1, 1, "the document is empty: expected a JSON value"),
        ("{\"a\": [1, 2", 1, 12, "the document ends inside an array: expected ',' or ']'"),
    ])
    func refusesWithLineColumnAndWhat(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        #expect {
            try StrictJSON.validate(Array(text.utf8))
        } throws: { error in
            guard let error = error as? StrictJSONError else { return false }
            return error.line == line && error.column == column && error.message == message
        }
    }

    @Test func refusesMalformedUTF8AndNamesTheByte() {
        #expect(throws: StrictJSONError(message: "invalid UTF-8 byte 0xFF", line: 1, column: 3, offset: 2)) {
            try StrictJSON.validate([0x5B, 0x22, 0xFF, 0x22, 0x5D])
        }
    }

    @Test func deepNestingIsRefusedWithoutRecursion() {
        let deep = Array(repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: StrictJSONError.self) { try StrictJSON.validate(deep) }
        let fine = Array(repeating: UInt8(ascii: "["), count: 500) + Array(repeating: UInt8(ascii: "]"), count: 500)
        #expect(throws: Never.self) { try StrictJSON.validate(fine) }
    }

    @Test func descriptionSaysWhereAndWhat() {
        let error = StrictJSONError(message: "trailing comma before '}'", line: 17, column: 15, offset: 412)
        #expect(error.description == "line 17, column 15 (byte 412): trailing comma before '}'")
    }
}
