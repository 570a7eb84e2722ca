import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// Text files the CLI is given (snippets, init scripts, cookies): read as UTF-8, with one-line errors.
@Suite("text files and snippet files")
struct TextFileTests {
    static func file(_ name: String, _ contents: Data) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("headway-cli-unit-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try contents.write(to: url)
        return url.path
    }

    @Test func aSnippetFileIsReadWithItsPathAsName() throws {
        let path = try Self.file("ok.js", Data("1 + 1\r\n// é ✓ 𝄞".utf8))
        #expect(try Snippet.load(path: path) == Snippet(file: path, source: "1 + 1\r\n// é ✓ 𝄞"))
        let empty = try Self.file("empty.js", Data())
        #expect(try Snippet.load(path: empty).source == "")
    }

    @Test func unreadableSnippetFilesAreClearErrors() throws {
        #expect(throws: HeadwayError(.fileUnreadable, "script file not found: /no/such.js")) {
            try Snippet.load(path: "/no/such.js")
        }
        let directory = FileManager.default.temporaryDirectory.path
        #expect(throws: HeadwayError(.fileUnreadable, "script file is a directory: \(directory)")) {
            try Snippet.load(path: directory)
        }
        let binary = try Self.file("binary.js", Data([0x31, 0xFF, 0xFE, 0x00]))
        #expect(throws: HeadwayError(.fileUnreadable, "script file is not UTF-8 text: \(binary)")) {
            try Snippet.load(path: binary)
        }
        #expect(throws: HeadwayError(.fileUnreadable, "init script not found: ")) {
            try TextFile.read("", what: "init script")
        }
    }
}
