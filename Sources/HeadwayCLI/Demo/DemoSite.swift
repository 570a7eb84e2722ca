import Foundation

// A bundled multi-page demo site: an index plus article pages that link each other.
enum DemoSite {
    // Number of article pages.
    static let articleCount = 10

    static let imagesPerArticle = 3
    static let imageWidth = 320
    static let imageHeight = 256
    static let articleTextBytes = 150_000
    static let cssBytes = 40_000
    static let jsBytes = 60_000

    // Writes the whole site into `directory` (created if missing). Returns the relative paths written, sorted.
    @discardableResult
    static func write(to directory: URL) throws -> [String] {
        var files: [String: [UInt8]] = [
            "index.html": Array(indexPage().utf8),
            "assets/site.css": Array(stylesheet().utf8),
            "assets/site.js": Array(script().utf8),
            "images/bg.bmp": backgroundImage(),
            "images/hero.bmp": heroImage(),
        ]
        for n in 1...articleCount {
            files[articlePath(n)] = Array(articlePage(n).utf8)
            for k in 1...imagesPerArticle {
                files[imagePath(n, k)] = articleImage(n, k)
            }
        }
        let fileManager = FileManager.default
        try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
        for path in files.keys.sorted() {
            let url = directory.appendingPathComponent(path)
            try fileManager.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(files[path]!).write(to: url, options: .atomic)
        }
        return files.keys.sorted()
    }

    // Relative path of article n (1-based), e.g. "articles/article-3.html".
    static func articlePath(_ n: Int) -> String {
        "articles/article-\(n).html"
    }

    static func imagePath(_ n: Int, _ k: Int) -> String {
        "images/article-\(n)-\(k).bmp"
    }

    // MARK: - Pages

    static func page(title: String, root: String, bodyClass: String, content: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title>
        <link rel="stylesheet" href="\(root)assets/site.css">
        <script src="\(root)assets/site.js" defer></script>
        </head>
        <body class="\(bodyClass)">
        \(content)
        <div id="data-table"></div>
        <footer class="site-footer"><p>Headway demo site. <a href="\(root)index.html">Back to index</a></p></footer>
        </body>
        </html>

        """
    }

    static func indexPage() -> String {
        var rng = SplitMix64(seed: 42)
        let items = (1...articleCount).map { n in
            "<li><a href=\"\(articlePath(n))\">Article \(n)</a> <span class=\"summary\">\(sentence(&rng))</span></li>"
        }.joined(separator: "\n")
        return page(title: "Headway demo", root: "", bodyClass: "index", content: """
            <header class="site-header"><a class="brand" href="index.html">Headway demo</a></header>
            <main>
            <h1>Headway demo</h1>
            <img class="hero" src="images/hero.bmp" width="480" height="160" alt="Colourful gradient banner">
            \(paragraph(&rng))<ol class="article-list">
            \(items)
            </ol>
            </main>
            """)
    }

    static func articlePage(_ n: Int) -> String {
        var rng = SplitMix64(seed: UInt64(n) &* 7_919)
        let prev = n == 1 ? articleCount : n - 1
        let next = n == articleCount ? 1 : n + 1
        var related: [Int] = []
        let wanted = 2 + rng.next(2)
        while related.count < wanted {
            let m = 1 + rng.next(articleCount)
            if ![n, prev, next].contains(m) && !related.contains(m) { related.append(m) }
        }
        let link = { (m: Int, rel: String) in "<a\(rel) href=\"article-\(m).html\">Article \(m)</a>" }
        return page(title: "Article \(n)", root: "../", bodyClass: "article", content: """
            <header class="site-header"><a class="brand" href="../index.html">Headway demo</a>
            <nav class="pager">Previous: \(link(prev, " rel=\"prev\"")) \
            Next: \(link(next, " rel=\"next\""))</nav></header>
            <main>
            <article>
            <h1>Article \(n)</h1>
            \(articleBody(n, &rng))</article>
            <aside class="related"><h2>Related articles</h2>
            <ul>\(related.map { "<li>\(link($0, ""))</li>" }.joined())</ul></aside>
            </main>
            """)
    }
}
