import Foundation

// Matches a request's method and path against the endpoint table. A path no template matches is
// "unknown command" (404); a path some template matches with another method is "unknown method"
// (405), as the spec's dispatch says.
package enum Router {
    package struct Match: Sendable, Equatable {
        package var command: Command
        // The template's variables, percent-decoded: sessionId, elementId, shadowId, name, propertyName.
        package var parameters: [String: String]
    }

    package static func match(method: String, path: String) throws(WebDriverError) -> Match {
        // Selenium and others may prefix every path with a base such as /wd/hub: ignored.
        let segments = Self.segments(of: path)
        var pathMatched = false
        for route in Routes.table {
            guard let parameters = Self.bind(template: route.template, to: segments) else { continue }
            pathMatched = true
            if route.method == method.uppercased() { return Match(command: route.command, parameters: parameters) }
        }
        if pathMatched {
            throw WebDriverError(.unknownMethod, "\(method) is not a method \(path) answers")
        }
        throw WebDriverError(.unknownCommand, "no WebDriver command is at \(method) \(path)")
    }

    private static func segments(of path: String) -> [Substring] {
        let withoutQuery = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var segments = withoutQuery.split(separator: "/", omittingEmptySubsequences: true)
        if segments.count >= 2, segments[0] == "wd", segments[1] == "hub" { segments.removeFirst(2) }
        return segments
    }

    private static func bind(template: String, to segments: [Substring]) -> [String: String]? {
        let parts = template.split(separator: "/")
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (part, segment) in zip(parts, segments) {
            if part.hasPrefix("{") {
                guard let value = String(segment).removingPercentEncoding, !value.isEmpty else { return nil }
                parameters[String(part.dropFirst().dropLast())] = value
            } else if part != segment {
                return nil
            }
        }
        return parameters
    }
}
