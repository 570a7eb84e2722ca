import Foundation

extension Session {
    // The folder of the files clients uploaded (POST /session/{id}/se/file), made when the first
    // comes; removed with the session.
    func uploadFolder() throws(WebDriverError) -> URL {
        if let uploads { return uploads }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("headway-uploads-\(id)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WebDriverError(.unknownError, "could not make a folder for uploads in \(folder.path): \(error)")
        }
        uploads = folder
        return folder
    }
}
