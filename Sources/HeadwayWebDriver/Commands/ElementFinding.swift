import Foundation
import Headway

// Find Element(s) (https://www.w3.org/TR/webdriver2/#element-retrieval): checks the location
// strategy and selector, then runs the find atom until it finds something or the session's
// implicit wait timeout passes, sleeping 50 ms between tries so the page keeps running.
extension Session {
    enum FindStart {
        case document
        case element(String)
        case shadowRoot(String)
    }

    static let locationStrategies: Set<String> = ["css selector", "link text", "partial link text", "tag name", "xpath"]

    func find(_ request: CommandRequest, from start: FindStart, all: Bool) async throws -> JSONValue {
        let using = try request.string("using")
        guard Self.locationStrategies.contains(using) else {
            throw WebDriverError(.invalidArgument, "\"\(using)\" is not a location strategy: use "
                + Self.locationStrategies.sorted().map { "\"\($0)\"" }.joined(separator: ", "))
        }
        let value = try request.string("value")
        let startArgument: JSONValue =
            switch start {
            case .document: .null
            case .element(let id): Self.elementReference(id)
            case .shadowRoot(let id): [ScriptRuntime.shadowKey: .string(id)]
            }
        let deadline = ContinuousClock.now + timeouts.implicitDuration
        while true {
            let found = try await callAtom(ElementAtoms.find, [.string(using), .string(value), startArgument])
            guard case .array(let elements) = found else {
                throw WebDriverError(.unknownError, "the find atom returned \(found) instead of a list")
            }
            if !elements.isEmpty || ContinuousClock.now >= deadline {
                if all { return found }
                guard let first = elements.first else {
                    throw WebDriverError(.noSuchElement, "no element matches the \(using) \"\(value)\"")
                }
                return first
            }
            try await Task.sleep(for: min(.milliseconds(50), deadline - ContinuousClock.now))
        }
    }
}
