import Foundation
import Headway
import Testing

/// Coordinates and wheel deltas that are not numbers, or absurdly large, are refused with
/// `.invalidArgument` before any event is made (a C `(int)` of them would be undefined).
@Suite("Input: hostile numbers", .serialized)
@EngineActor
struct InputHostileNumberTests {
    private static let bad: [(Double, String)] = [(.nan, "nan"), (.infinity, "inf"), (-.infinity, "-inf"),
                                                  (1e300, "1e+300"), (-3e9, "-3000000000.0")]

    private func coordinate(_ name: String, _ text: String) -> HeadwayError {
        let limit = Int(Limits.coordinate)
        return HeadwayError(.invalidArgument,
                            "\(name) must be a finite number of CSS pixels between -\(limit) and \(limit), not \(text)")
    }

    @Test func coordinatesThatAreNotSaneNumbersAreRefused() async throws {
        try await InputRecorder.withPage { page in
            for (value, text) in Self.bad {
                #expect(throws: coordinate("x", text)) { try page.click(x: value, y: 10) }
                #expect(throws: coordinate("y", text)) { try page.click(x: 10, y: value) }
                await #expect(throws: coordinate("x", text)) { try await page.mouseMove(x: value, y: 10) }
                await #expect(throws: coordinate("y", text)) { try await page.mouseMove(x: 10, y: value) }
                await #expect(throws: coordinate("x", text)) {
                    try await page.click(x: value, y: 10, button: .left, clickCount: 1)
                }
                await #expect(throws: coordinate("y", text)) {
                    try await page.wheel(x: 10, y: value, deltaX: 0, deltaY: 10)
                }
            }
            // Nothing reached the page, and the pointer stayed put.
            #expect(page.pointerPosition == (0, 0))
            try await page.click(x: 50, y: 50, button: .left, clickCount: 1)
            let seen = try await InputRecorder.seen(page, ["click"])
            #expect(seen.count == 1 && seen.first?["x"] == 50, "\(seen)")
        }
    }

    @Test func wheelDeltasThatAreNotSaneNumbersAreRefused() async throws {
        try await InputRecorder.withPage { page in
            let cases: [(Double, String)] = [(.nan, "nan"), (.infinity, "inf"), (1e300, "1e+300"), (-2e6, "-2000000.0")]
            for (value, text) in cases {
                for name in ["deltaX", "deltaY"] {
                    let error = HeadwayError(.invalidArgument,
                        "\(name) must be a finite number of CSS pixels between -1000000 and 1000000, not \(text)")
                    await #expect(throws: error) {
                        try await page.wheel(x: 50, y: 50, deltaX: name == "deltaX" ? value : 0,
                                             deltaY: name == "deltaY" ? value : 0)
                    }
                }
            }
            try await page.wheel(x: 50, y: 50, deltaX: 0, deltaY: 101)
            let wheels = try await InputRecorder.seen(page, ["wheel"])
            #expect(wheels.count == 1, "\(wheels)")
        }
    }
}
