import Foundation
import Headway

/// URLs given to `load`: parsed from the command line or read from a list file.
enum URLList {
    /// A line of the list: a URL to load, or the reason it cannot be loaded.
    enum Item: Sendable {
        case url(URL)
        case invalid(String, HeadwayError)
    }

    /// Reads one URL per line from `path` (`-` for stdin), skipping blank lines and `#` comments.
    /// Lines that are not valid URLs stay in the list as `.invalid`, so the batch reports them.
    static func read(path: String) throws -> [Item] {
        let data: Data?
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw HeadwayError(.fileUnreadable, "URL list not found: \(path)")
            }
            data = FileManager.default.contents(atPath: path)
        }
        guard let data, let text = String(data: data, encoding: .utf8) else {
            throw HeadwayError(.fileUnreadable, "URL list is not readable UTF-8 text: \(path)")
        }
        return text.split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
            .map { line in
                do { return .url(try parse(line)) } catch let error as HeadwayError { return .invalid(line, error) }
                catch { return .invalid(line, HeadwayError(.invalidArgument, "\(error)")) }
            }
    }

    static func parse(_ text: String) throws -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased() else {
            throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' (give a full URL such as http://127.0.0.1:8080/)")
        }
        switch scheme {
        case "http", "https":
            guard let host = url.host, !host.isEmpty else {
                throw HeadwayError(.invalidArgument, "not a valid URL: '\(text)' has no host")
            }
        case "file", "about", "data":
            break
        default:
            throw HeadwayError(.invalidArgument, "unsupported URL scheme '\(scheme)' in '\(text)' (use http, https or file)")
        }
        return url
    }
}
