import Foundation
import Headway

// URLs given to `load`: parsed from the command line or read from a list file.
enum URLList {
    // A line of the list: a URL to load, or the reason it cannot be loaded.
    enum Item: Sendable {
        case url(URL)
        case invalid(String, HeadwayError)
    }

    // Opens a list for `--urls` (`-` for stdin); a missing or unreadable file throws.
    static func open(path: String) throws -> LineReader {
        if path == "-" { return LineReader(fd: 0) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
            throw HeadwayError(.fileUnreadable, "URL list not found: \(path)")
        }
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            throw HeadwayError(.fileUnreadable, "URL list is not readable: \(path) "
                + "(\(String(cString: strerror(errno))))")
        }
        return LineReader(fd: fd)
    }

    // The item for one line of a list, or nil for a blank line or a `#` comment.
    static func item(_ line: LineReader.Line) -> Item? {
        switch line {
        case .text(let raw):
            let text = raw.trimmingCharacters(in: .whitespaces)
            if text.isEmpty || text.hasPrefix("#") { return nil }
            do { return .url(try parse(text)) } catch let error as HeadwayError { return .invalid(text, error) }
            catch { return .invalid(text, HeadwayError(.invalidArgument, "\(error)")) }
        case .tooLong(let prefix):
            let error = HeadwayError(.invalidArgument, "a line of the URL list is longer than 1 MiB")
            return .invalid(prefix + "…", error)
        case .unreadable(let code):
            return .invalid("", HeadwayError(.fileUnreadable, "could not read the URL list: "
                + "\(String(cString: strerror(code)))"))
        }
    }

    static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' (give a full URL such as "
                + "http://127.0.0.1:8080/)")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' has no host")
            }
        case "file", "about", "data":
            break
        default:
            throw HeadwayError(.invalidArgument, "unsupported URL scheme '\(scheme)' in '\(text)' (use http, https or "
                + "file)")
        }
        return url
    }
}

// The URLs of one `load` run, handed out one at a time: the arguments first, then the list's
// lines as they are read. Only the engine thread takes from it.
@EngineActor
final class URLFeed {
    private var arguments: [URLList.Item]
    private let list: LineReader?
    // How many items there are, when that is known before the end (no list).
    let knownCount: Int?
    // The list's share this process takes: every `count`-th entry from `index` (0-based).
    private let shard: Shard?
    // The list's entries seen so far: its lines but blank ones and comments (a bad line is one).
    private var entries = 0
    // Callers waiting their turn: with `--jobs`, several take from the feed at once, and a line
    // must be numbered in the order it was read (a shard takes entries by number).
    private var reading = false
    private var turns: [CheckedContinuation<Void, Never>] = []

    nonisolated init(arguments: [URLList.Item], list: LineReader?, shard: Shard? = nil) {
        self.arguments = arguments
        self.list = list
        self.shard = shard
        knownCount = list == nil ? arguments.count : nil
    }

    // The next item, or nil when there are no more.
    func next() async -> URLList.Item? {
        if !arguments.isEmpty { return arguments.removeFirst() }
        guard let list else { return nil }
        if reading { await withCheckedContinuation { turns.append($0) } }
        reading = true
        defer {
            if turns.isEmpty { reading = false } else { turns.removeFirst().resume() }
        }
        while let line = await list.next() {
            guard let item = URLList.item(line) else { continue }
            // A read error is no entry of the list: every shard reports it.
            if case .unreadable = line { return item }
            defer { entries += 1 }
            if let shard, !shard.takes(entry: entries) { continue }
            return item
        }
        return nil
    }
}
