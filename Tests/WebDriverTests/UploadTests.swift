import Foundation
import Headway
import HeadwayWebDriver
import Testing
import ZIPFoundation

/// Selenium's remote upload (POST /session/{id}/se/file): one file out of a zip, into a folder of
/// the session's that goes with it; what is not one sane file is `invalid argument`.
@Suite("WebDriver uploads", .serialized)
@EngineActor
struct UploadTests {
    // A zip of `files` (entry path, contents), base64.
    static func zip(_ files: [(String, String)]) throws -> String {
        let archive = try Archive(accessMode: .create)
        for (path, text) in files {
            let data = Data(text.utf8)
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count),
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return try #require(archive.data).base64EncodedString()
    }

    @Test func oneFileLandsInTheSessionsFolderAndLeavesWithIt() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let session = try await driver.newSession()
        let path = try #require(try await driver.send(.uploadFile, session,
                                                      ["file": .string(try Self.zip([("../../notes.txt", "hi")]))])
            .stringValue)
        #expect(path.hasSuffix("/notes.txt") && !path.contains(".."), "\(path)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "hi")
        _ = try await driver.send(.deleteSession, session)
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    @Test func whatIsNotOneFileIsRefused() async throws {
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let session = try await driver.newSession()
        for file in [Data("not a zip".utf8).base64EncodedString(), try Self.zip([("a.txt", "a"), ("b.txt", "b")]),
                     try Self.zip([]), "%%%"] {
            let error = await #expect(throws: WebDriverError.self) {
                try await driver.send(.uploadFile, session, ["file": .string(file)])
            }
            #expect(error?.code == .invalidArgument, "\(String(describing: error))")
        }
    }
}
