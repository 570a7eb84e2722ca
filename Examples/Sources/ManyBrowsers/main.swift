import Foundation
import Headway

// Headway from nonisolated async code: a task group with one browser per task, and a load that
// is cancelled. Browser and Page live on Headway's engine actor; `await` reaches them from anywhere.
nonisolated func titles(of urls: [URL]) async throws -> [String] {
    try await withThrowingTaskGroup(of: String.self) { group in
        for url in urls {
            group.addTask {
                try await Browser.withPage { page in try await page.load(url).title }
            }
        }
        return try await group.reduce(into: []) { $0.append($1) }.sorted()
    }
}

nonisolated func cancelledLoad(_ url: URL) async -> String {
    let task = Task { try await Browser.withPage { page in try await page.load(url, timeout: .seconds(30)).title } }
    task.cancel()
    do {
        return try await task.value
    } catch is CancellationError {
        return "cancelled"
    } catch {
        return "failed: \(error)"
    }
}

let site = FileManager.default.temporaryDirectory.appendingPathComponent("many-browsers-\(getpid())")
try FileManager.default.createDirectory(at: site, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: site) }
for name in ["one", "two", "three"] {
    try "<!doctype html><title>\(name)</title>".write(to: site.appendingPathComponent("\(name).html"), atomically: true, encoding: .utf8)
}
let server = try await HTTPServer(root: site)
let base = await server.url
print(try await titles(of: ["one", "two", "three"].map { base.appendingPathComponent("\($0).html") }))
print(await cancelledLoad(base.appendingPathComponent("one.html")))
await server.stop()
