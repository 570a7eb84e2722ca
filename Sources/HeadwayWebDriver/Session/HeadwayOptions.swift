import Foundation
import Headway

// The vendor capability "headway:options": what only Headway has. Unknown keys are
// "invalid argument", so a typo never passes silently.
//
//   {"viewport": {"width": 1280, "height": 1024}, "userAgent": "...", "headers": {"X-A": "1"},
//    "block": ["*.png"], "initScripts": ["window.x = 1"], "locale": "de-DE",
//    "network": {"bytesPerSecond": 625000, "latencyMs": 50},
//    "booster": {"prefetch": true, "prerender": 1, "cacheDirectory": "/path"},
//    "har": true,  (records every request, for GET /session/{id}/headway/har)
//    "compositing": false,  (pages drawn in one software pass: Browser.Configuration.acceleratedCompositing)
//    "filmstrip": {"framesPerSecond": 10}}  (Navigate To and browsingContext.navigate record frames:
//                                            GET /session/{id}/headway/filmstrip)
package struct HeadwayOptions: Sendable {
    package var raw: [String: JSONValue] = [:]
    package var configuration = HeadwayOptions.sessionDefault

    // What every session's browser starts from: local files' frames can be entered, as the
    // browsers of WebKitWebDriver, chromedriver and geckodriver enter them; and requests can be
    // held for BiDi's network intercepts.
    package static var sessionDefault: Browser.Configuration {
        var configuration = Browser.Configuration()
        configuration.allowsFileAccessFromFileURLs = true
        configuration.allowsRequestInterception = true
        return configuration
    }
    package var proxy: [String: JSONValue] = [:]
    // "filmstrip": Navigate To and browsingContext.navigate record frames and visual metrics.
    package var filmstrip: FilmstripOptions?

    package init() {}

    mutating func apply(_ object: [String: JSONValue]) throws(WebDriverError) {
        raw = object
        for (key, value) in object {
            switch key {
            case "viewport":
                let width = value["width"]?.integer(in: Limits.viewportSide)
                let height = value["height"]?.integer(in: Limits.viewportSide)
                guard let width, let height else {
                    let sides = "\(Limits.viewportSide.lowerBound)-\(Limits.viewportSide.upperBound)"
                    throw Self.invalid("viewport", "{\"width\": \(sides), \"height\": \(sides)}")
                }
                configuration.viewportWidth = width
                configuration.viewportHeight = height
            case "userAgent":
                guard let agent = value.stringValue else { throw Self.invalid(key, "a string") }
                configuration.userAgent = agent
            case "locale":
                guard let locale = value.stringValue else { throw Self.invalid(key, "a string") }
                configuration.locale = locale
            case "headers":
                guard case .object(let headers) = value else { throw Self.invalid(key, "an object of strings") }
                let sorted = headers.sorted { $0.key < $1.key }
                configuration.extraHeaders = try sorted.map { name, value throws(WebDriverError) in
                    guard let value = value.stringValue else { throw Self.invalid(key, "an object of strings") }
                    return (name, value)
                }
            case "block":
                configuration.blockedURLPatterns = try Self.strings(key, value)
            case "initScripts":
                configuration.initScripts = try Self.strings(key, value)
            case "network":
                let rate = value["bytesPerSecond"]
                let latency = value["latencyMs"]?.integer(in: 0...86_400_000) ?? 0
                let rateValid = rate == nil || rate?.doubleValue.map({ $0 > 0 && $0.isFinite }) == true
                guard case .object = value, rateValid else {
                    throw Self.invalid(key, "{\"bytesPerSecond\": a number > 0, \"latencyMs\": 0-86400000}")
                }
                configuration.networkConditions = NetworkConditions(
                    bytesPerSecond: rate?.doubleValue, latency: .milliseconds(latency))
            case "booster":
                configuration.booster = try Self.booster(value)
            case "har":
                guard let on = value.boolValue else { throw Self.invalid(key, "a boolean") }
                configuration.recordsResources = on
            case "compositing":
                guard let on = value.boolValue else { throw Self.invalid(key, "a boolean") }
                configuration.acceleratedCompositing = on
            case "filmstrip":
                guard case .object(let film) = value, film.keys.allSatisfy({ $0 == "framesPerSecond" }),
                      let rate = (film["framesPerSecond"] ?? .number(10)).integer(in: Limits.framesPerSecond) else {
                    throw Self.invalid(key, "{\"framesPerSecond\": \(Limits.framesPerSecond.lowerBound)-"
                                       + "\(Limits.framesPerSecond.upperBound)}")
                }
                filmstrip = FilmstripOptions(framesPerSecond: rate)
            default:
                throw WebDriverError(.invalidArgument, "\"headway:options\" has no \"\(key)\": use viewport, "
                    + "userAgent, locale, headers, block, initScripts, network, booster, har, compositing or filmstrip")
            }
        }
        do { try Browser.validate(configuration) } catch {
            throw WebDriverError(.invalidArgument, "headway:options: \(error.message)")
        }
    }

    private static func booster(_ value: JSONValue) throws(WebDriverError) -> BoosterConfiguration? {
        guard case .object(let object) = value else { throw invalid("booster", "an object") }
        var booster = BoosterConfiguration()
        var prefetch = true
        for (key, value) in object {
            switch key {
            case "prefetch":
                guard let on = value.boolValue else { throw invalid("booster.prefetch", "a boolean") }
                prefetch = on
            case "prerender":
                guard let count = value.integer(in: Limits.prerenderedPages) else {
                    throw invalid("booster.prerender", "an integer 0-\(Limits.prerenderedPages.upperBound)")
                }
                booster.prerender = count
            case "cacheDirectory":
                guard let path = value.stringValue, path.hasPrefix("/") else {
                    throw invalid("booster.cacheDirectory", "an absolute path")
                }
                booster.cacheDirectory = URL(fileURLWithPath: path)
            default:
                throw WebDriverError(.invalidArgument,
                                     "\"booster\" has no \"\(key)\": use prefetch, prerender or cacheDirectory")
            }
        }
        if !prefetch { booster.maxPagesPerPage = 0 }
        return booster
    }

    // The proxy capability, checked as https://www.w3.org/TR/webdriver2/#proxy says; of its types,
    // direct, system and manual (httpProxy) can be honoured.
    mutating func apply(proxy object: [String: JSONValue]) throws(WebDriverError) {
        proxy = object
        func invalid(_ what: String) -> WebDriverError { WebDriverError(.invalidArgument, "proxy: " + what) }
        // ftpProxy, socksUsername and socksPassword are not the spec's, but Selenium's clients send them.
        let strings = ["proxyAutoconfigUrl", "httpProxy", "sslProxy", "socksProxy", "ftpProxy", "socksUsername",
                       "socksPassword"]
        for (key, value) in object {
            switch key {
            case "proxyType": continue
            case "noProxy":
                // An array of hosts, or (as Selenium's clients pass it on) one comma-separated string.
                if value.stringValue != nil { continue }
                guard case .array(let hosts) = value, hosts.allSatisfy({ $0.stringValue != nil }) else {
                    throw invalid("\"noProxy\" must be an array of strings")
                }
            case "socksVersion":
                guard value.integer(in: 0...255) != nil else { throw invalid("\"socksVersion\" must be 0 to 255") }
            default:
                guard strings.contains(key) else { throw invalid("\"\(key)\" is not a proxy field") }
                guard value.stringValue != nil else { throw invalid("\"\(key)\" must be a string") }
            }
        }
        guard let type = object["proxyType"]?.stringValue,
              ["pac", "direct", "autodetect", "system", "manual"].contains(type) else {
            throw invalid("\"proxyType\" must be pac, direct, autodetect, system or manual")
        }
        switch type {
        case "direct", "system": break
        case "manual":
            guard let host = object["httpProxy"]?.stringValue, let url = URL(string: "http://\(host)"),
                  url.host != nil else {
                throw WebDriverError(.invalidArgument, "a manual proxy needs \"httpProxy\" as host:port")
            }
            configuration.proxy = url
        default:
            throw WebDriverError(.sessionNotCreated, "only direct, system and manual (httpProxy) proxies are supported")
        }
    }

    var json: JSONValue { .object(raw) }
    var proxyJSON: JSONValue { .object(proxy) }

    private static func strings(_ key: String, _ value: JSONValue) throws(WebDriverError) -> [String] {
        guard case .array(let items) = value else { throw invalid(key, "an array of strings") }
        return try items.map { item throws(WebDriverError) in
            guard let string = item.stringValue else { throw invalid(key, "an array of strings") }
            return string
        }
    }

    private static func invalid(_ key: String, _ shape: String) -> WebDriverError {
        WebDriverError(.invalidArgument, "headway:options \"\(key)\" must be \(shape)")
    }
}
