import Foundation
import Headway
@testable import HeadwayWebDriver
import Testing

// BiDi's local values and serialization options are checked before a script runs, without a
// socket: a malformed one is `invalid argument`, a good one reaches the page as the page-side
// deserializer takes it.
@Suite("WebDriver BiDi: local values")
struct BiDiLocalValueTests {
    static func local(_ value: JSONValue) throws -> JSONValue {
        try BiDiRemoteValue.local(value, nodeKey: "NK")
    }

    static func refused(_ value: JSONValue) -> Bool {
        do {
            _ = try local(value)
            return false
        } catch let error as BiDiError {
            return error.code == .invalidArgument
        } catch {
            return false
        }
    }

    @Test func primitivesCollectionsAndReferencesPass() throws {
        for value: JSONValue in [
            ["type": "undefined"], ["type": "null"], ["type": "string", "value": "a"],
            ["type": "number", "value": 1.5], ["type": "number", "value": "-0"], ["type": "bigint", "value": "12"],
            ["type": "boolean", "value": true], ["type": "date", "value": "2024-01-01T00:00:00Z"],
            ["type": "regexp", "value": ["pattern": "a+", "flags": "g"]], ["type": "regexp", "value": ["pattern": "a"]],
        ] {
            #expect(try Self.local(value) == value)
        }
        let nested: JSONValue = ["type": "map", "value": [[["type": "number", "value": 1], ["sharedId": "x"]],
                                                          ["k", ["type": "array", "value": [["handle": "h"]]]]]]
        #expect(try Self.local(nested) == ["type": "map", "value": [
            [["type": "number", "value": 1], ["NK": [ScriptRuntime.nodeKey: "x"]]],
            ["k", ["type": "array", "value": [["handle": "h"]]]],
        ]])
    }

    @Test func malformedValuesAreInvalidArguments() {
        let bad: [JSONValue] = [
            42, false, "text", .null, [], [:], ["type": "nothing"], ["type": "string", "value": 1],
            ["type": "number", "value": "one"], ["type": "boolean"], ["type": "array", "value": [1]],
            ["type": "object", "value": [["k"]]], ["type": "object", "value": [[1, ["type": "null"]]]],
            ["type": "regexp", "value": ["flags": "g"]], ["sharedId": 1], ["handle": []],
            ["type": "set", "value": ["type": "null"]],
        ]
        for value in bad { #expect(Self.refused(value), "\(value)") }
    }

    @Test func aChannelCarriesItsOptionsWithTheirDefaults() throws {
        #expect(try Self.local(["type": "channel", "value": ["channel": "c"]])
            == ["type": "channel", "value": ["channel": "c", "depth": 64, "dom": 0, "shadow": "none", "root": false]])
        let given: JSONValue = ["type": "channel", "value": [
            "channel": "c", "ownership": "root",
            "serializationOptions": ["maxObjectDepth": 2, "maxDomDepth": .null, "includeShadowTree": "open"],
        ]]
        #expect(try Self.local(given)
            == ["type": "channel", "value": ["channel": "c", "depth": 2, "dom": .null, "shadow": "open", "root": true]])
        for value: JSONValue in [
            .null, "c", ["channel": 1], ["channel": "c", "ownership": "all"], ["channel": "c", "ownership": false],
            ["channel": "c", "serializationOptions": []], ["channel": "c", "serializationOptions": ["maxDomDepth": -1]],
            ["channel": "c", "serializationOptions": ["maxObjectDepth": 1.5]],
            ["channel": "c", "serializationOptions": ["includeShadowTree": "closed"]],
        ] {
            #expect(Self.refused(["type": "channel", "value": value]), "\(value)")
        }
    }

    @Test func serializationOptionsDefaultsAndBounds() throws {
        let plain = try SerializationOptions(nil)
        #expect(plain.depth == 64 && plain.dom == 0 && plain.shadow == "none")
        let unlimited = try SerializationOptions(["maxObjectDepth": .null, "maxDomDepth": .null])
        #expect(unlimited.depth == 64 && unlimited.dom == .null)
        for bad: JSONValue in ["x", ["maxObjectDepth": 65], ["maxObjectDepth": -1], ["maxDomDepth": "1"],
                               ["includeShadowTree": 1]] {
            #expect(throws: BiDiError.self, "\(bad)") { try SerializationOptions(bad) }
        }
    }
}
