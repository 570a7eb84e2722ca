import Foundation
import Headway
import ZIPFoundation

// Selenium Grid's file upload (POST /session/{id}/se/file, {"file": base64 zip of one file}),
// which Selenium's remote clients send before Element Send Keys to a file input and whose answer,
// a path on the server, they type instead. WebKitWebDriver and chromedriver lack it, so a remote
// client's file input fails there; Headway keeps the file in a folder of the session's, removed
// with the session.
extension Handlers {
    static let uploads: [Command: Handler] = [
        .uploadFile: { session, request in
            let text = try request.string("file")
            let folder = try session.uploadFolder()
            // Decoded and written off the engine thread: it may be tens of megabytes.
            return .string(try await Task.detached {
                guard let zip = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
                    throw WebDriverError(.invalidArgument, "\"file\" must be a base64 zip file")
                }
                return try Upload.extract(zip, into: folder)
            }.value.path)
        },
    ]
}

enum Upload {
    // The one file of `zip`, written into a new folder under `folder`; its name is the entry's
    // last path component (an entry cannot reach outside), its size at most `maxFileBytes`.
    static func extract(_ zip: Data, into folder: URL) throws -> URL {
        let archive: Archive
        do {
            archive = try Archive(data: zip, accessMode: .read)
        } catch {
            throw WebDriverError(.invalidArgument, "\"file\" is not a zip file: \(error)")
        }
        let files = archive.filter { $0.type == .file }
        guard files.count == 1, let entry = files.first else {
            throw WebDriverError(.invalidArgument, "the zip file holds \(files.count) files, not one")
        }
        let name = (entry.path as NSString).lastPathComponent
        guard !name.isEmpty, name != ".", name != "..", entry.uncompressedSize <= UInt64(Session.maxFileBytes) else {
            throw WebDriverError(.invalidArgument, "the zip file's entry \(entry.path.debugDescription) is not a "
                                 + "file name or is larger than \(Session.maxFileBytes >> 20) MiB")
        }
        let target = folder.appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: true)
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        var data = Data()
        do {
            _ = try archive.extract(entry, skipCRC32: false) { chunk in
                guard data.count + chunk.count <= Session.maxFileBytes else {
                    throw WebDriverError(.invalidArgument, "the uploaded file is larger than its zip entry says")
                }
                data.append(chunk)
            }
        } catch let error as WebDriverError {
            throw error
        } catch {
            throw WebDriverError(.invalidArgument, "the zip file could not be read: \(error)")
        }
        let file = target.appendingPathComponent(name)
        try data.write(to: file)
        return file
    }
}
