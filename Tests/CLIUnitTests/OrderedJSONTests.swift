import Foundation
@testable import HeadwayCLI
import Testing

/// The CLI's JSON writer: keys in order, numbers as people read them, strings escaped, and a
/// parser that reads back what it wrote and refuses the rest with where.
@Suite("OrderedJSON")
struct OrderedJSONTests {
    @Test func valuesAndKeyOrder() {
        let json = OrderedJSON.object([("z", .number(1)), ("a", .array([.null, .bool(true), .bool(false)])),
                                       ("m", .object([])), ("e", .array([]))])
        #expect(json.text == #"{"z":1,"a":[null,true,false],"m":{},"e":[]}"#)
        #expect(OrderedJSON.optional(nil).text == "null")
        // Integers are exact up to 2^53, as JSON readers keep them.
        #expect(OrderedJSON.optional(9_007_199_254_740_992).text == "9007199254740992")
        #expect(OrderedJSON.optional(-9_007_199_254_740_992).text == "-9007199254740992")
    }

    @Test(arguments: [(0.0, "0"), (-0.0, "0"), (42, "42"), (-7, "-7"), (0.5, "0.5"), (52.00000000000001, "52"),
                      (1.23456, "1.235"), (100.5, "100.5"), (999_999_999_999_999, "999999999999999"),
                      (1e15, "1000000000000000"), (1e16 + 0.5, "10000000000000000"), (0.0001, "0"),
                      (.infinity, "null"), (-.infinity, "null"), (.nan, "null")])
    func numbers(value: Double, text: String) {
        #expect(OrderedJSON.number(value).text == text)
    }

    @Test func theLargestDoubleIsWrittenAsDigits() throws {
        let text = OrderedJSON.number(.greatestFiniteMagnitude).text
        #expect(text.count == 309)
        #expect(text.allSatisfy { $0.isNumber })
        #expect(try OrderedJSON(parsing: text).text == text)
    }

    @Test func stringsAreEscaped() {
        #expect(OrderedJSON.string("a\"b\\c\nd\re\tf").text == #""a\"b\\c\nd\re\tf""#)
        #expect(OrderedJSON.string("\u{0}\u{1}\u{1B}\u{1F}").text == #""\u0000\u0001\u001b\u001f""#)
        // Everything from space up is written as it is: DEL, non-ASCII, astral, U+2028.
        #expect(OrderedJSON.string("\u{7F}é✓𝄞\u{2028}/").text == "\"\u{7F}é✓𝄞\u{2028}/\"")
        #expect(OrderedJSON.object([("k\"\n", .string(""))]).text == #"{"k\"\n":""}"#)
    }

    @Test func whatItWritesParsesBackUnchanged() throws {
        let texts = [#"{"b":[1,2.5,-3,"x",null,true,false,{"c":{}}],"a":"é\n\u0001"}"#, "[]", "{}", "0", #""""#,
                     "null", #"[[[[["deep"]]]]]"#, #"{"dup":1,"dup":2}"#]
        for text in texts {
            let json = try OrderedJSON(parsing: text)
            #expect(json.text == text)
            #expect(try OrderedJSON(parsing: json.text).text == text)
        }
    }

    @Test func parsingAcceptsRFC8259() throws {
        let text = " \t\r\n{ \"a\" : [ 1e2 , -0.5E-1, 0 ] ,\"b\":\"\\/\\b\\f\\u00e9\\ud834\\udd1e\" } \n"
        let json = try OrderedJSON(parsing: text)
        #expect(json["a"]?.text == "[100,-0.05,0]")
        #expect(json["b"]?.stringValue == "/\u{8}\u{C}é𝄞")
        #expect(json.keys == ["a", "b"])
        #expect(json["missing"] == nil)
        #expect(OrderedJSON.number(1)["a"] == nil)
        // A lone surrogate becomes U+FFFD rather than failing or trapping.
        #expect(try OrderedJSON(parsing: #""\ud800x\udc00""#).stringValue == "\u{FFFD}x\u{FFFD}")
        #expect(try OrderedJSON(parsing: #""\ud800\u0041""#).stringValue == "\u{FFFD}A")
    }

    @Test func malformedTextIsAnErrorSayingWhatAndWhere() {
        let bad: [(String, String)] = [
            ("", "the text ends where a value should be at column 1"),
            ("   ", "the text ends where a value should be at column 4"),
            ("{", "expected a member name, found the end of the text at column 2"),
            ("[1,]", "unexpected ']' at column 4"),
            ("[1 2]", "expected ',' or ']', found '2' at column 4"),
            ("01", "text after the value at column 2"),
            ("1.", "a malformed number at column 3"),
            ("-", "a malformed number at column 2"),
            ("+1", "unexpected '+' at column 1"),
            ("tru", "unexpected 't' at column 1"),
            ("\"a\nb\"", "a control character in a string at column 3"),
            ("\"abc", "the text ends inside a string at column 5"),
            (#""\x""#, #"an unknown escape \'x' at column 3"#),
            (#""\u12""#, "\\u needs four hex digits at column 4"),
            ("{} {}", "text after the value at column 4"),
            ("\u{FEFF}{}", "unexpected byte 0xEF at column 1"),
            ("NaN", "unexpected 'N' at column 1"),
        ]
        for (text, message) in bad {
            #expect(throws: (any Error).self, "\(text.debugDescription)") { try OrderedJSON(parsing: text) }
            do {
                _ = try OrderedJSON(parsing: text)
            } catch {
                #expect(error.description == message, "\(text.debugDescription)")
            }
        }
    }

    @Test func nestingIsBoundedAndDeepInputNeverOverflowsTheStack() throws {
        let deepest = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try OrderedJSON(parsing: deepest).text == deepest)
        let tooDeep = String(repeating: "[", count: 513) + String(repeating: "]", count: 513)
        #expect(throws: (any Error).self) { try OrderedJSON(parsing: tooDeep) }
        let hostile = String(repeating: "{\"a\":", count: 1_000_000)
        #expect(throws: (any Error).self) { try OrderedJSON(parsing: hostile) }
    }

    @Test func hugeNumbersParseWithoutTrapping() throws {
        #expect(try OrderedJSON(parsing: "1e400").text == "null")
        #expect(try OrderedJSON(parsing: "-1e400").text == "null")
        #expect(try OrderedJSON(parsing: "1e-400").text == "0")
        #expect(try OrderedJSON(parsing: "123456789012345678901234567890").text == "123456789012345677877719597056")
    }
}
