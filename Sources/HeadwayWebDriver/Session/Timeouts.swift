import Foundation
import Headway

// A session's timeouts (https://www.w3.org/TR/webdriver2/#timeouts), in milliseconds. A null
// script timeout means "never", which Headway bounds at a day so no wait is endless.
package struct Timeouts: Sendable, Equatable {
    package var script: Int? = 30_000
    package var pageLoad = 300_000
    package var implicit = 0

    // The spec's largest allowed value.
    static let maximum = 9_007_199_254_740_991
    static let unbounded = Limits.longestWait

    package init() {}

    // Parses a timeouts object: only the three keys, each an integer 0...2^53-1 (script may be null).
    package init(parsing object: [String: JSONValue], over base: Timeouts = Timeouts()) throws(WebDriverError) {
        self = base
        for (key, value) in object {
            switch key {
            case "script":
                if value == .null { script = nil; continue }
                script = try Self.milliseconds(key, value)
            case "pageLoad": pageLoad = try Self.milliseconds(key, value)
            case "implicit": implicit = try Self.milliseconds(key, value)
            default:
                throw WebDriverError(.invalidArgument, "\"\(key)\" is not a timeout: use script, pageLoad or implicit")
            }
        }
    }

    private static func milliseconds(_ key: String, _ value: JSONValue) throws(WebDriverError) -> Int {
        guard let ms = value.integer(in: 0...maximum) else {
            throw WebDriverError(.invalidArgument, "the \(key) timeout must be an integer of milliseconds, 0 or more")
        }
        return ms
    }

    package var json: JSONValue {
        ["script": script.map { .number(Double($0)) } ?? .null, "pageLoad": .number(Double(pageLoad)),
         "implicit": .number(Double(implicit))]
    }

    package var scriptDuration: Duration { script.map(Self.duration) ?? Self.unbounded }
    package var pageLoadDuration: Duration { Self.duration(pageLoad) }
    package var implicitDuration: Duration { Self.duration(implicit) }

    private static func duration(_ ms: Int) -> Duration { min(.milliseconds(ms), unbounded) }
}
