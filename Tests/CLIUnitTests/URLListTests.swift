import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `URLList`: what a line of a URL list (or a URL argument) becomes.
@Suite("URL lists")
struct URLListTests {
    /// "url:…", "invalid:<text>|<code>|<message>" or "skip".
    static func describe(_ item: URLList.Item?) -> String {
        switch item {
        case nil: "skip"
        case .url(let url): "url:" + url.absoluteString
        case .invalid(let text, let error): "invalid:\(text)|\(error.code)|\(error.message)"
        }
    }

    static func item(_ text: String) -> String { describe(URLList.item(.text(text))) }

    @Test(arguments: ["", " ", "\t", "  \t ", "#", "# a comment", "   # indented comment", "#http://a/"])
    func blankLinesAndCommentsAreSkipped(line: String) {
        #expect(Self.item(line) == "skip")
    }

    @Test func urlsAreTrimmedAndKept() {
        #expect(Self.item("http://127.0.0.1:8080/") == "url:http://127.0.0.1:8080/")
        #expect(Self.item("  https://example.com/a?b=c#d\t") == "url:https://example.com/a?b=c#d")
        #expect(Self.item("HTTP://EXAMPLE.COM/") == "url:HTTP://EXAMPLE.COM/")
        #expect(Self.item("http://[::1]:8080/x") == "url:http://[::1]:8080/x")
        #expect(Self.item("file:///tmp/a.html") == "url:file:///tmp/a.html")
        #expect(Self.item("about:blank") == "url:about:blank")
        #expect(Self.item("data:text/html,hi") == "url:data:text/html,hi")
    }

    @Test func linesThatAreNoURLToLoad() {
        #expect(Self.item("example.com") == "invalid:example.com|invalidArgument|not a valid URL: 'example.com' "
                + "(give a full URL such as http://127.0.0.1:8080/)")
        #expect(Self.item("http://") == "invalid:http://|invalidArgument|not a valid URL: 'http://' has no host")
        #expect(Self.item("https:///path") == "invalid:https:///path|invalidArgument|not a valid URL: "
                + "'https:///path' has no host")
        #expect(Self.item("ftp://host/") == "invalid:ftp://host/|invalidArgument|unsupported URL scheme 'ftp' in "
                + "'ftp://host/' (use http, https or file)")
        #expect(Self.item("javascript:alert(1)") == "invalid:javascript:alert(1)|invalidArgument|unsupported URL "
                + "scheme 'javascript' in 'javascript:alert(1)' (use http, https or file)")
    }

    @Test func hostileLinesGiveAnErrorOrAURLAndNeverTrap() {
        let hostile = ["http://a:99999999999999999999999/", "http://a:-1/", "http://\u{0}/", "http://a/\u{1B}[2J",
                       "http://é.example/", String(repeating: "http://a/", count: 10_000), "\u{FEFF}http://a/",
                       "http://a/\r", "h\u{300}ttp://a/", "::::", "%", "http://%zz/"]
        for line in hostile {
            let described = Self.item(line)
            #expect(described.hasPrefix("url:") || described.hasPrefix("invalid:"), "\(line.prefix(40))")
        }
    }

    @Test func aTooLongLineAndAReadErrorAreEntriesWithErrors() {
        #expect(Self.describe(URLList.item(.tooLong(prefix: "http://a/xxx")))
                == "invalid:http://a/xxx…|invalidArgument|a line of the URL list is longer than 1 MiB")
        #expect(Self.describe(URLList.item(.unreadable(errno: EIO)))
                == "invalid:|fileUnreadable|could not read the URL list: \(String(cString: strerror(EIO)))")
    }

    @Test func aListThatIsMissingOrADirectoryIsUnreadableInput() {
        #expect(throws: HeadwayError(.fileUnreadable, "URL list not found: /no/such/list.txt")) {
            try URLList.open(path: "/no/such/list.txt")
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: HeadwayError(.fileUnreadable, "URL list not found: \(directory)")) {
            try URLList.open(path: directory)
        }
    }

    @Test func aListFileIsReadLineByLine() async throws {
        let path = try TextFileTests.file("list.txt", Data("# urls\r\nhttp://a/\r\n\r\nnot a url\nhttp://b/".utf8))
        let reader = try URLList.open(path: path)
        var items: [String] = []
        while let line = await reader.next() {
            if let item = URLList.item(line) { items.append(Self.describe(item)) }
        }
        #expect(items.count == 3)
        #expect(items.first == "url:http://a/")
        #expect(items.dropFirst().first?.hasPrefix("invalid:not a url|invalidArgument|") == true)
        #expect(items.last == "url:http://b/")
    }
}
