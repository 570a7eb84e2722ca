import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `OrderedJSONEncoder`: any `Encodable` as `OrderedJSON`, keys in the order the type encodes them.
@Suite("OrderedJSONEncoder")
struct OrderedJSONEncoderTests {
    struct Sample: Encodable {
        var zeta = 1
        var alpha: String? = nil
        var url = URL(string: "http://127.0.0.1:8080/a?b=c")!
        var list: [Double] = [0.5, .nan]
        var nested = ["only": true]
        var small: UInt8 = 255
        var big = Int64(1) << 53

        enum CodingKeys: String, CodingKey { case zeta, alpha, url, list, nested, small, big }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(zeta, forKey: .zeta)
            try container.encodeIfPresent(alpha, forKey: .alpha)
            try container.encodeNil(forKey: .alpha)
            try container.encode(url, forKey: .url)
            try container.encode(list, forKey: .list)
            try container.encode(nested, forKey: .nested)
            try container.encode(small, forKey: .small)
            try container.encode(big, forKey: .big)
        }
    }

    @Test func keysInTheOrderEncodedAndURLsAsStrings() throws {
        let json = try OrderedJSONEncoder.encode(Sample())
        #expect(json.keys == ["zeta", "alpha", "url", "list", "nested", "small", "big"])
        #expect(json.text == #"{"zeta":1,"alpha":null,"url":"http://127.0.0.1:8080/a?b=c","list":[0.5,null],"#
                + #""nested":{"only":true},"small":255,"big":9007199254740992}"#)
    }

    @Test func theLibrarysResultTypesEncodeAsTheirCodableSays() throws {
        let error = HeadwayError(.timeout, "the load did not finish within 30 s")
        let json = try OrderedJSONEncoder.encode(error)
        #expect(json["code"]?.stringValue == "timeout")
        #expect(json["message"]?.stringValue == "the load did not finish within 30 s")
        let value = try JSONValue(json: #"{"b":[1,"x",null],"a":{"c":false}}"#)
        #expect(try OrderedJSONEncoder.encode(value).text == value.jsonText)
    }

    @Test func topLevelScalarsAndEmptyContainers() throws {
        #expect(try OrderedJSONEncoder.encode("a\"b").text == #""a\"b""#)
        #expect(try OrderedJSONEncoder.encode(3).text == "3")
        #expect(try OrderedJSONEncoder.encode([Int]()).text == "[]")
        #expect(try OrderedJSONEncoder.encode([String: Int]()).text == "{}")
        #expect(try OrderedJSONEncoder.encode([[1], [2, 3]]).text == "[[1],[2,3]]")
        #expect(try OrderedJSONEncoder.encode(Optional<Int>.none).text == "null")
    }
}
