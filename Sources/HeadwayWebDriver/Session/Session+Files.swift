import Foundation
import Headway

// A file input's new files for Element Send Keys (https://www.w3.org/TR/webdriver2/#element-send-keys):
// one local path a line, each of which must exist. A file is read whole; a directory, for an
// input that takes one (`webkitdirectory`), gives every file under it, as choosing that folder
// would (each with its path in the folder); for any other input it is one empty file of its name,
// as WebKitWebDriver gives it. Together at most `maxFileBytes` and `maxFiles`, read off the
// engine thread.
extension Session {
    // The most a file input's files may hold together: the HTTP body limit.
    nonisolated static let maxFileBytes = 64 << 20
    // The most files one folder may give.
    nonisolated static let maxFiles = 10_000

    static func files(_ text: String, multiple: Bool, directory: Bool) async throws -> [JSONValue] {
        let paths = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !paths.isEmpty else { throw WebDriverError(.invalidArgument, "no file path given for the file input") }
        guard multiple || paths.count == 1 else {
            throw WebDriverError(.invalidArgument, "the file input takes one file, not \(paths.count): add `multiple`")
        }
        return try await Task.detached {
            var reader = FileReader()
            for path in paths { try reader.add(path, folders: directory) }
            return reader.files
        }.value
    }
}

// Reads the chosen files into the atom's entries, within the limits.
private struct FileReader {
    var files: [JSONValue] = []
    var bytesLeft = Session.maxFileBytes

    mutating func add(_ path: String, folders: Bool) throws {
        // A symbolic link counts as what it points to; a FIFO or a device is no file to choose.
        let given = URL(fileURLWithPath: path)
        let url = given.resolvingSymlinksInPath()
        switch Self.type(of: url) {
        case .typeRegular?: try read(url, name: given.lastPathComponent, folderPath: nil)
        case .typeDirectory? where folders: try addFolder(url, named: given.lastPathComponent, given: path)
        case .typeDirectory?: files.append(Self.entry(given.lastPathComponent, Data(), url: url, folderPath: nil))
        case nil: throw WebDriverError(.invalidArgument, "no file or directory is at \(path)")
        default: throw WebDriverError(.invalidArgument, "\(path) is neither a regular file nor a directory")
        }
    }

    // The regular files under `folder` (not through symbolic links), in order of their paths.
    private mutating func addFolder(_ folder: URL, named name: String, given path: String) throws {
        guard let walk = FileManager.default.enumerator(atPath: folder.path) else {
            throw WebDriverError(.invalidArgument, "cannot read the directory \(path)")
        }
        var found: [String] = []
        for case let inside as String in walk {
            guard Self.type(of: folder.appendingPathComponent(inside)) == .typeRegular else { continue }
            found.append(inside)
            guard found.count <= Session.maxFiles else {
                throw WebDriverError(.invalidArgument, "the directory \(path) holds more than \(Session.maxFiles) "
                                     + "files")
            }
        }
        for inside in found.sorted() {
            let file = folder.appendingPathComponent(inside)
            try read(file, name: file.lastPathComponent, folderPath: name + "/" + inside)
        }
    }

    private static func type(of url: URL) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.type] as? FileAttributeType
    }

    private mutating func read(_ url: URL, name: String, folderPath: String?) throws {
        let path = url.path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw WebDriverError(.invalidArgument, "cannot read the file \(path)")
        }
        defer { try? handle.close() }
        let data = (try? handle.read(upToCount: bytesLeft + 1)) ?? Data()
        guard data.count <= bytesLeft else {
            throw WebDriverError(.invalidArgument, "the file \(path) is too large: the files for one input "
                                 + "may hold \(Session.maxFileBytes >> 20) MiB together")
        }
        bytesLeft -= data.count
        files.append(Self.entry(name, data, url: url, folderPath: folderPath))
    }

    private static func entry(_ name: String, _ data: Data, url: URL, folderPath: String?) -> JSONValue {
        let modified = (try? url.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
        return ["name": .string(name), "type": .string(MediaTypes.of(name)),
                "data": .string(data.base64EncodedString()),
                "lastModified": .number(((modified ?? Date()).timeIntervalSince1970 * 1000).rounded()),
                "path": folderPath.map(JSONValue.string) ?? .null]
    }
}
