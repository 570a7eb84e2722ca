import Foundation

/// Collects what the process writes to its standard error (GLib's warnings and criticals go
/// there) while `body` runs, by pointing descriptor 2 at a temporary file. Run it in a
/// serialized suite: other tests' output meanwhile would be collected too.
public func capturingStandardError<T>(isolation: isolated (any Actor)? = #isolation,
                                      _ body: () async throws -> T) async throws -> (T, String) {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("headway-stderr-\(UUID().uuidString)")
    let fd = open(file.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw CapturingError("cannot open \(file.path): errno \(errno)") }
    defer { try? FileManager.default.removeItem(at: file) }
    fflush(nil)
    let saved = dup(2)
    dup2(fd, 2)
    close(fd)
    let restore = {
        fflush(nil)
        dup2(saved, 2)
        close(saved)
    }
    let value: T
    do {
        value = try await body()
    } catch {
        restore()
        throw error
    }
    restore()
    let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
    // Shown again, so that a failing run still has its messages.
    FileHandle.standardError.write(Data(text.utf8))
    return (value, text)
}

/// A capture that could not start.
public struct CapturingError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
