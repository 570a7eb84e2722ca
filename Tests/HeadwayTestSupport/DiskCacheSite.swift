import Foundation

/// A small site for the disk cache tests (a page with a stylesheet, a script and two images,
/// linking one article), and helpers to look into a cache directory.
public enum DiskCacheSite {
    /// The page's own paths: the document and its four subresources.
    public static let pagePaths = ["/index.html", "/site.css", "/site.js", "/figure.svg", "/photo.bin"]

    /// Writes the site into a new temporary folder; `photoBytes` sizes the binary "photo".
    public static func make(photoBytes: Int = 50_000, images: Int = 0) throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "headway-disk-site-\(UUID().uuidString)"
        )
        func write(_ path: String, _ data: Data) throws {
            let file = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(),
                withIntermediateDirectories: true
            )
            try data.write(to: file)
        }
        let extra = (0..<images).map { "<img src=\"img\($0).bin\" width=10 height=10>" }.joined()
        try write("index.html", Data("""
            <!doctype html><meta charset=utf-8><title>Index</title><link rel="stylesheet" href="site.css">
            <script src="site.js"></script><h1>Index</h1><img src="figure.svg" width="40" height="40">
            <img src="photo.bin" width="10" height="10">\(extra)<a href="article.html">article</a>
            """.utf8))
        try write("article.html", Data("<!doctype html><meta charset=utf-8><title>Article</title><p>text</p>".utf8))
        try write(
            "site.css",
            Data(("body { font: 18px serif }\n" + String(repeating: "p { margin: 1em }\n", count: 50)).utf8)
        )
        try write("site.js", Data("window.siteScript = 1;\n".utf8))
        try write("figure.svg", Data(Fixtures.svg.utf8))
        try write("photo.bin", Data((0..<photoBytes).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        for index in 0..<images {
            try write("img\(index).bin", Data(repeating: UInt8(index & 0xFF), count: photoBytes))
        }
        return root
    }

    /// A new, not yet existing, cache directory path.
    public static func newCacheDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("headway-disk-cache-\(UUID().uuidString)")
    }

    /// Every file under `directory` (entries, temporaries, the tag), by path.
    public static func files(in directory: URL) -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }

    /// The entry files (`*.hwc`) under `directory`.
    public static func entries(in directory: URL) -> [URL] {
        files(in: directory).filter { $0.pathExtension == "hwc" }
    }

    /// nginx requests for `paths` among `requests`, from index `start` on.
    public static func count(_ requests: [NginxRequest], paths: [String], from start: Int = 0) -> Int {
        requests.dropFirst(start).filter { paths.contains($0.path) }.count
    }
}
