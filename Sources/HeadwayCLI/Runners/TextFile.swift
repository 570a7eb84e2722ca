import Foundation
import Headway

// Reads the text files the CLI is given (cookies, init scripts, snippets), with one-line errors.
enum TextFile {
    static func read(_ path: String, what: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw HeadwayError(.fileUnreadable, "\(what) not found: \(path)")
        }
        guard !isDirectory.boolValue else { throw HeadwayError(.fileUnreadable, "\(what) is a directory: \(path)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw HeadwayError(.fileUnreadable, "\(what) is not readable: \(path)")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw HeadwayError(.fileUnreadable, "\(what) is not UTF-8 text: \(path)")
        }
        return text
    }
}

extension Snippet {
    // Reads a snippet file (`load`'s script arguments) as UTF-8.
    static func load(path: String) throws -> Snippet {
        Snippet(file: path, source: try TextFile.read(path, what: "script file"))
    }
}
