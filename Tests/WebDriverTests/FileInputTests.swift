import Foundation
import Headway
import HeadwayTestSupport
import HeadwayWebDriver
import Testing

// Element Send Keys on file inputs: local files, directories (a folder's files for
// `webkitdirectory`, else one empty file as WebKitWebDriver gives), links, and what is refused.
@Suite("WebDriver file inputs", .serialized)
@EngineActor
struct FileInputTests {
    typealias F = InteractionFixtures

    static let page = F.recorder + """
        <input id=one type=file><input id=many type=file multiple><input id=folder type=file webkitdirectory>
        """
    static let read = """
        return Promise.all(Array.from(document.getElementById(arguments[0]).files, async (f) =>
          [f.name, f.webkitRelativePath, await f.text(), f.lastModified]))
        """

    // A folder "tree" with a.txt, sub/b.txt and a link to a.txt, in a fresh temporary directory.
    static func folder() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-files-\(UUID())")
        let tree = root.appendingPathComponent("tree")
        try FileManager.default.createDirectory(at: tree.appendingPathComponent("sub"),
                                                withIntermediateDirectories: true)
        try Data("A".utf8).write(to: tree.appendingPathComponent("a.txt"))
        try Data("B".utf8).write(to: tree.appendingPathComponent("sub/b.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("link.txt"),
                                                   withDestinationURL: tree.appendingPathComponent("a.txt"))
        return root
    }

    func files(_ driver: WebDriverDriver, _ id: String, _ input: String, _ text: String) async throws -> JSONValue {
        let element = try await F.element(driver, id, "#" + input)
        _ = try await driver.send(.elementSendKeys, id, ["text": .string(text)],
                                  parameters: ["elementId": F.elementID(element)])
        return try await driver.send(.executeScript, id, ["script": .string(Self.read), "args": [.string(input)]])
    }

    @Test func aDirectoryGivesAFoldersFilesOrOneEmptyFile() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/files.html", .html(Self.page))
        let root = try Self.folder()
        defer { try? FileManager.default.removeItem(at: root) }
        let tree = root.appendingPathComponent("tree")
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "files.html")
        let chosen = try await files(driver, id, "folder", tree.path)
        let modified = try #require(try FileManager.default.attributesOfItem(atPath: tree.appendingPathComponent(
            "a.txt").path)[.modificationDate] as? Date)
        #expect(chosen == [["a.txt", "tree/a.txt", "A", .number((modified.timeIntervalSince1970 * 1000).rounded())],
                           ["b.txt", "tree/sub/b.txt", "B", chosen[1]?[3] ?? .null]])
        // Any other input: the directory as one empty file, as WebKitWebDriver gives it.
        let one = try await files(driver, id, "one", tree.path)
        #expect(one[0]?[0] == "tree" && one[0]?[2] == "")
        // A link counts as its file; several paths for an input that takes several.
        let many = try await files(driver, id, "many", root.appendingPathComponent("link.txt").path + "\n" + tree.path)
        #expect(many[0]?[0] == "link.txt" && many[1]?[0] == "tree" && many[2] == nil)
        #expect(try await F.events(driver, id, matching: ["change"]).count == 3)
    }

    @Test func whatIsNoFileIsRefused() async throws {
        let server = try HTTPServer()
        defer { server.stop() }
        server.route("/files.html", .html(Self.page))
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("headway-fifo-\(UUID())")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let driver = WebDriverDriver()
        defer { driver.service.shutdown() }
        let id = try await driver.newSession()
        _ = try await driver.navigate(id, server, "files.html")
        let input = F.elementID(try await F.element(driver, id, "#many"))
        // A FIFO would block a read; a device is no file a user chooses.
        for path in [fifo.path, "/dev/zero", "/nonexistent/a.txt", ""] {
            await #expect { try await driver.send(.elementSendKeys, id, ["text": .string(path)],
                                                  parameters: ["elementId": input]) }
                throws: { code($0) == .invalidArgument }
        }
    }
}
