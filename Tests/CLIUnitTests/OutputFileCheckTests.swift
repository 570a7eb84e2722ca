import Foundation
import Headway
@testable import HeadwayCLI
import Testing

/// `OutputFile.check` on an existing regular file: the write renames a temporary file over it,
/// so the folder must be writable too. The tests run as root, for whom access() grants
/// everything, so the permission answers are given to the check here.
@Suite("output file checks")
struct OutputFileCheckTests {
    static func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("headway-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func aWritableFileInAReadOnlyFolderIsRefused() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.har")
        try Data("old".utf8).write(to: file)
        // The file is writable; its folder is not (as a 0555 folder is to anyone but root).
        let readOnlyFolder: (String, Int32) -> Int32 = { path, _ in path == folder.path ? EACCES : 0 }
        let error = #expect(throws: HeadwayError.self) {
            try OutputFile.check(file.path, what: "the HAR file", access: readOnlyFolder)
        }
        #expect(error?.code == .fileUnwritable)
        #expect(error?.description.contains(file.path) == true, "\(String(describing: error))")
        #expect(error?.description.contains("Permission denied") == true, "\(String(describing: error))")
    }

    @Test func aWritableFileInAWritableFolderPasses() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("out.har")
        try Data("old".utf8).write(to: file)
        try OutputFile.check(file.path, what: "the HAR file", access: { _, _ in 0 })
    }

    // Written through, not replaced: the folder of a device does not matter.
    @Test func aDeviceInAReadOnlyFolderPasses() throws {
        try OutputFile.check("/dev/null", what: "the HAR file", access: { path, _ in path == "/dev" ? EACCES : 0 })
    }
}
