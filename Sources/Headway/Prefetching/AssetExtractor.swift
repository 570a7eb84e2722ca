import CHeadwayShims
import Foundation

// What a fetched HTML document or stylesheet refers to, resolved to absolute URLs, deduplicated,
// in document order.
struct PageAssets: Sendable, Equatable {
    var anchors: [URL] = []
    // Images and scripts (stage 2 of the prefetch), including srcset candidates, icons,
    // preloads and CSS images from inline styles.
    var media: [URL] = []
    var stylesheets: [URL] = []
}

// Finds subresources with real parsers: libxml2's HTML parser for documents and a CSS
// tokenizer for `url()` and `@import`. Pure functions; safe to call from any thread.
enum AssetExtractor {
    private static let initialised: Void = hw_html_init()

    static func html(_ data: Data, url: URL, charset: String?) -> PageAssets {
        _ = initialised
        final class Collector {
            var refs: [(String, String)] = []
        }
        let collector = Collector()
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress?.assumingMemoryBound(to: CChar.self) else { return }
            // libxml2 takes an int: a document past 2 GiB is read as far as that goes.
            hw_html_extract(base, Int32(clamping: raw.count), charset, { kind, value, context in
                let collector = Unmanaged<Collector>.fromOpaque(context!).takeUnretainedValue()
                collector.refs.append((String(cString: kind), String(cString: value)))
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        var baseURL = url
        if let href = collector.refs.first(where: { $0.0 == "base" })?.1, let resolved = resolve(href, against: url) {
            baseURL = resolved
        }
        var assets = PageAssets()
        var seen = Set<URL>()
        func add(_ text: String, to list: WritableKeyPath<PageAssets, [URL]>, base: URL = baseURL) {
            guard let resolved = resolve(text, against: base), seen.insert(resolved).inserted else { return }
            assets[keyPath: list].append(resolved)
        }
        for (kind, value) in collector.refs {
            switch kind {
            case "anchor": add(value, to: \.anchors)
            case "image", "script", "preload", "icon": add(value, to: \.media)
            case "srcset": for candidate in srcset(value) { add(candidate, to: \.media) }
            case "stylesheet": add(value, to: \.stylesheets)
            case "style":
                let css = self.css(value, url: baseURL)
                for image in css.images { add(image.absoluteString, to: \.media) }
                for sheet in css.imports { add(sheet.absoluteString, to: \.stylesheets) }
            default: break
            }
        }
        return assets
    }

    // The URLs in a `srcset` attribute (descriptors dropped).
    static func srcset(_ text: String) -> [String] {
        text.split(separator: ",").compactMap { candidate in
            candidate.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).first.map(String.init)
        }
    }

    // `url()` references and `@import`s in a stylesheet, resolved against `url`.
    static func css(_ text: String, url: URL) -> (images: [URL], imports: [URL]) {
        var images: [URL] = [], imports: [URL] = []
        let scalars = Array(text.unicodeScalars)
        var i = 0
        func skipSpace() { while i < scalars.count, scalars[i].properties.isWhitespace { i += 1 } }
        func readString(_ quote: Unicode.Scalar) -> String {
            var out = ""
            i += 1
            while i < scalars.count, scalars[i] != quote {
                if scalars[i] == "\\", i + 1 < scalars.count { i += 1 }
                out.unicodeScalars.append(scalars[i])
                i += 1
            }
            i += 1
            return out
        }
        func readURL() -> String {
            skipSpace()
            if i < scalars.count, scalars[i] == "\"" || scalars[i] == "'" {
                let value = readString(scalars[i])
                while i < scalars.count, scalars[i] != ")" { i += 1 }
                i += 1
                return value
            }
            var out = ""
            while i < scalars.count, scalars[i] != ")" { out.unicodeScalars.append(scalars[i]); i += 1 }
            i += 1
            return out.trimmingCharacters(in: .whitespaces)
        }
        func matches(_ word: String) -> Bool {
            let w = Array(word.unicodeScalars)
            guard i + w.count <= scalars.count else { return false }
            for k in 0..<w.count where String(scalars[i + k]).lowercased() != String(w[k]) { return false }
            return true
        }
        var importNext = false
        while i < scalars.count {
            let c = scalars[i]
            if c == "/", i + 1 < scalars.count, scalars[i + 1] == "*" {
                i += 2
                while i + 1 < scalars.count, !(scalars[i] == "*" && scalars[i + 1] == "/") { i += 1 }
                i += 2
            } else if c == "\"" || c == "'" {
                let value = readString(c)
                if importNext, let u = resolve(value, against: url) { imports.append(u) }
                importNext = false
            } else if matches("url(") {
                i += 4
                let value = readURL()
                if let u = resolve(value, against: url) {
                    if importNext { imports.append(u) } else { images.append(u) }
                }
                importNext = false
            } else if matches("@import") {
                i += 7
                importNext = true
            } else {
                if c == ";" { importNext = false }
                i += 1
            }
        }
        return (images, imports)
    }

    // The charset parameter of a Content-Type value.
    static func charset(fromContentType value: String?) -> String? {
        guard let value else { return nil }
        for part in value.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if pair.count == 2, pair[0].lowercased() == "charset" {
                return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    // Resolves a reference; only http(s) results count, fragments are dropped.
    static func resolve(_ text: String, against base: URL) -> URL? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, !trimmed.hasPrefix("data:"), !trimmed.hasPrefix("#"),
              let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        components.fragment = nil
        return components.url
    }
}
