import Foundation

// What the web-process extension asks of each request before it is sent (extension.c,
// `filter_blocks`): one line of tab-separated fields, `METHOD URL PAGE PAGE-ID [NAME VALUE]...`,
// where '%', tab, CR and LF inside a field are written %XX.
struct ExtensionQuestion: Sendable {
    var method: String
    // Mirror schemes made http(s) again.
    var url: URL
    var page: URL?
    // WebKit's id of the page that sends it (`webkit_web_view_get_page_id`).
    var pageID: UInt64
    var headers: [ResourceEntry.Header]

    init?(_ line: String) {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map {
            String($0).removingPercentEncoding ?? String($0)
        }
        guard fields.count >= 4, let url = URL(string: fields[1]), let pageID = UInt64(fields[3]) else { return nil }
        method = fields[0]
        self.url = url
        page = fields[2].isEmpty ? nil : URL(string: fields[2])
        self.pageID = pageID
        headers = stride(from: 4, to: fields.count - 1, by: 2).map {
            ResourceEntry.Header(name: fields[$0], value: fields[$0 + 1])
        }
    }
}

// The server's answer: send it, block it, wait (it is held), or send it changed.
enum ExtensionAnswer: Sendable, Equatable {
    case allow, block, wait
    // To `url` when set, with exactly `headers` when set.
    case change(url: URL?, headers: [ResourceEntry.Header]?)

    var line: String {
        switch self {
        case .allow: return "A\n"
        case .block: return "B\n"
        case .wait: return "W\n"
        case .change(let url, let headers):
            var fields = ["C", Self.escape(url?.absoluteString ?? "")]
            if let headers {
                fields.append("=")
                for header in headers { fields += [Self.escape(header.name), Self.escape(header.value)] }
            }
            return fields.joined(separator: "\t") + "\n"
        }
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "%": out += "%25"
            case "\t": out += "%09"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            case "\0": out += "%00"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
