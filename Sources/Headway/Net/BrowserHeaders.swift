import CWebKit
import Foundation

// The request headers a browser's pages send that Headway decides: the languages asked for,
// and the configuration's extra headers. WebKit's network stack adds them to http(s) requests;
// the booster's handler and prefetcher add the same values to theirs, so servers see what a
// browser sends and `Vary` on them matches by construction.
struct BrowserHeaders: Sendable {
    // The languages the pages prefer, most preferred first.
    let languages: [String]
    // Headers every request carries, replacing any of the same name.
    let extra: HeaderList

    init(locale: String? = nil, extra: [(name: String, value: String)] = []) {
        if let locale {
            let tag = locale.replacingOccurrences(of: "_", with: "-")
            let base = String(tag.prefix { $0 != "-" })
            languages = base == tag ? [tag] : [tag, base]
        } else {
            languages = ["en-US", "en"]
        }
        self.extra = extra.map { ($0.name, $0.value) }
    }

    // Sets `languages` as the context's preferred languages (`Accept-Language` and
    // `navigator.language`).
    func apply(to context: UnsafeMutablePointer<WebKitWebContext>) {
        let copies = languages.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        var pointers = copies.map { UnsafePointer($0) } + [nil]
        pointers.withUnsafeMutableBufferPointer { webkit_web_context_set_preferred_languages(context, $0.baseAddress) }
    }

    // `Accept-Language` as WebKit's network stack formats `languages`: each after the first gets
    // a quality 0.10 lower, with two decimals ("en-US,en;q=0.90").
    var acceptLanguage: String {
        languages.enumerated().map { index, language in
            index == 0 ? language : language + String(format: ";q=%.2f", max(0.01, 1 - Double(index) / 10))
        }.joined(separator: ",")
    }

    // `headers` with the extra headers in place of any of the same name, and `Accept-Language`
    // where WebKit did not send it.
    func completing(_ headers: HeaderList) -> HeaderList {
        let replaced = Set(extra.map { $0.0.lowercased() })
        var result = headers.filter { !replaced.contains($0.0.lowercased()) } + extra
        if headerValue(result, "Accept-Language") == nil { result.append(("Accept-Language", acceptLanguage)) }
        return result
    }

    // Checks a locale as `Browser.Configuration.locale` takes it: a BCP 47 language tag such as
    // "fr", "fr-FR" or "pt_BR".
    static func isLocale(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let first = parts.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy {
            (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }
}
