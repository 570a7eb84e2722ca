import CWebKit
import Foundation

/// Request headers that WebKit's own network stack adds to http(s) requests but not to requests
/// on the mirror schemes. The scheme handler adds them, and the prefetcher sends the same values,
/// so servers see what a browser sends and `Vary` on them matches by construction.
enum BrowserHeaders {
    /// The languages every web context prefers, so the value is known rather than derived from
    /// the process locale in two places.
    static let languages = ["en-US", "en"]

    static func setLanguages(of context: UnsafeMutablePointer<WebKitWebContext>) {
        let copies = languages.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        pointers.withUnsafeMutableBufferPointer { webkit_web_context_set_preferred_languages(context, $0.baseAddress) }
    }
}

extension BrowserHeaders {
    /// `Accept-Language` as WebKit's network stack formats `languages`: each after the first gets
    /// a quality 0.10 lower, with two decimals ("en-US,en;q=0.90").
    static let acceptLanguage: String = languages.enumerated().map { index, language in
        index == 0 ? language : language + String(format: ";q=%.2f", max(0.01, 1 - Double(index) / 10))
    }.joined(separator: ",")

    /// `headers` with the browser's headers added where WebKit did not send them.
    static func completing(_ headers: HeaderList) -> HeaderList {
        guard headerValue(headers, "Accept-Language") == nil else { return headers }
        return headers + [("Accept-Language", acceptLanguage)]
    }
}
