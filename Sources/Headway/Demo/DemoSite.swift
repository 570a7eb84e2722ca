public import Foundation

/// A bundled multi-page demo site: an index plus article pages that link each other.
public enum DemoSite {
    /// Number of article pages.
    public static let articleCount = 10

    static let imagesPerArticle = 3
    static let imageWidth = 320
    static let imageHeight = 256
    static let articleTextBytes = 150_000
    static let cssBytes = 40_000
    static let jsBytes = 60_000

    /// Writes the whole site into `directory` (created if missing). Returns the relative paths written, sorted.
    @discardableResult
    public static func write(to directory: URL) throws -> [String] {
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

    /// Relative path of article n (1-based), e.g. "articles/article-3.html".
    public static func articlePath(_ n: Int) -> String {
        "articles/article-\(n).html"
    }

    static func imagePath(_ n: Int, _ k: Int) -> String {
        "images/article-\(n)-\(k).bmp"
    }

    // MARK: - Deterministic randomness

    /// SplitMix64: tiny, seeded, identical on every platform.
    struct SplitMix64 {
        var state: UInt64

        init(seed: UInt64) { state = seed }

        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }

        mutating func next(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    // MARK: - BMP images

    /// Encodes an uncompressed 24-bit bottom-up BMP; `pixel(x, y)` returns RGB with y = 0 at the top.
    static func bmp(width: Int, height: Int, pixel: (Int, Int) -> (Int, Int, Int)) -> [UInt8] {
        let rowSize = (width * 3 + 3) & ~3
        let pixelBytes = rowSize * height
        var out: [UInt8] = []
        out.reserveCapacity(54 + pixelBytes)
        func u16(_ v: Int) { for shift in [0, 8] { out.append(UInt8(truncatingIfNeeded: v >> shift)) } }
        func u32(_ v: Int) { for shift in [0, 8, 16, 24] { out.append(UInt8(truncatingIfNeeded: v >> shift)) } }
        out.append(0x42); out.append(0x4D)           // "BM"
        u32(54 + pixelBytes); u32(0); u32(54)        // file size, reserved, pixel offset
        u32(40); u32(width); u32(height)             // BITMAPINFOHEADER size, width, height (bottom-up)
        u16(1); u16(24); u32(0); u32(pixelBytes)     // planes, bpp, BI_RGB, image size
        u32(2835); u32(2835); u32(0); u32(0)         // 72 dpi, palette sizes
        for row in 0..<height {
            let y = height - 1 - row
            for x in 0..<width {
                let (r, g, b) = pixel(x, y)
                out.append(UInt8(truncatingIfNeeded: b))
                out.append(UInt8(truncatingIfNeeded: g))
                out.append(UInt8(truncatingIfNeeded: r))
            }
            for _ in 0..<(rowSize - width * 3) { out.append(0) }
        }
        return out
    }

    /// Gradients, diagonal stripes and a ring; parameters differ per article and image.
    static func articleImage(_ n: Int, _ k: Int) -> [UInt8] {
        var rng = SplitMix64(seed: UInt64(n * 1_000 + k))
        let fx = 1 + rng.next(3), fy = 1 + rng.next(3), stripe = 10 + rng.next(30)
        let hue = rng.next(256), slope = 1 + rng.next(3)
        let cx = 80 + rng.next(160), cy = 64 + rng.next(128), radius = 40 + rng.next(50)
        return bmp(width: imageWidth, height: imageHeight) { x, y in
            let r = (x * fx + hue) & 255, g = (y * fy + hue * 3) & 255, b = ((x + y) + n * 25) & 255
            let dx = x - cx, dy = y - cy, d2 = dx * dx + dy * dy
            if abs(d2 - radius * radius) < radius * 12 { return (255, 255 - g, 40) }
            return ((x + y * slope) / stripe) % 2 == 0 ? (r, g, b) : (255 - g, b, r)
        }
    }

    static func backgroundImage() -> [UInt8] {
        bmp(width: 64, height: 64) { x, y in
            ((x / 8 + y / 8) % 2 == 0) ? (236, 240, 248) : (224, 230, 242)
        }
    }

    static func heroImage() -> [UInt8] {
        bmp(width: 480, height: 160) { x, y in
            (x * 255 / 479, 90 + y / 2, 255 - x * 200 / 479 + ((x / 24) % 2) * 20 - 10)
        }
    }

    // MARK: - Text

    static let words = """
        lorem ipsum dolor sit amet consectetur adipiscing elit sed do eiusmod tempor incididunt \
        ut labore et dolore magna aliqua enim ad minim veniam quis nostrud exercitation ullamco \
        laboris nisi aliquip ex ea commodo consequat duis aute irure in reprehenderit voluptate \
        velit esse cillum fugiat nulla pariatur excepteur sint occaecat cupidatat non proident \
        sunt culpa qui officia deserunt mollit anim id est laborum headway render capture layout \
        viewport pixel frame scroll paint network budget cache
        """.split(separator: " ").map(String.init)

    static func capitalized(_ s: String) -> String { s.prefix(1).uppercased() + s.dropFirst() }

    static func phrase(_ rng: inout SplitMix64, _ count: Int) -> String {
        (0..<count).map { _ in words[rng.next(words.count)] }.joined(separator: " ")
    }

    static func sentence(_ rng: inout SplitMix64) -> String {
        capitalized(phrase(&rng, 8 + rng.next(10))) + "."
    }

    static func paragraph(_ rng: inout SplitMix64) -> String {
        "<p>" + (0..<(4 + rng.next(5))).map { _ in sentence(&rng) }.joined(separator: " ") + "</p>\n"
    }

    /// Sections of headings, paragraphs and lists, with the article's figures after sections 1, 3 and 5.
    static func articleBody(_ n: Int, _ rng: inout SplitMix64) -> String {
        var body = "", section = 0
        while body.utf8.count < articleTextBytes {
            section += 1
            body += "<section id=\"s\(section)\">\n<h2>\(section). \(capitalized(phrase(&rng, 3)))</h2>\n"
            for p in 0..<(4 + rng.next(4)) {
                if p == 2 { body += "<h3>\(capitalized(phrase(&rng, 4)))</h3>\n" }
                body += paragraph(&rng)
            }
            if section % 4 == 0 {
                body += "<ul>\n" + (0..<4).map { _ in "<li>\(sentence(&rng))</li>\n" }.joined() + "</ul>\n"
            }
            let k = (section + 1) / 2
            if section % 2 == 1 && k <= imagesPerArticle {
                body += """
                    <figure><img src="../\(imagePath(n, k))" width="\(imageWidth)" height="\(imageHeight)" \
                    alt="Figure \(k) of article \(n)"><figcaption>Figure \(k). \(sentence(&rng))</figcaption></figure>

                    """
            }
            body += "</section>\n"
        }
        return body
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
            <nav class="pager">Previous: \(link(prev, " rel=\"prev\"")) Next: \(link(next, " rel=\"next\""))</nav></header>
            <main>
            <article>
            <h1>Article \(n)</h1>
            \(articleBody(n, &rng))</article>
            <aside class="related"><h2>Related articles</h2>
            <ul>\(related.map { "<li>\(link($0, ""))</li>" }.joined())</ul></aside>
            </main>
            """)
    }

    // MARK: - Assets

    static func stylesheet() -> String {
        var css = """
            :root { --accent: #3a6ea5; --text: #1f2933; --muted: #52606d; --radius: 6px; }
            * { box-sizing: border-box; }
            html { font-size: 16px; -webkit-text-size-adjust: 100%; }
            body { margin: 0; font-family: Georgia, "Times New Roman", serif; line-height: 1.6; color: var(--text);
              background-color: #eef1f7; background-image: url(../images/bg.bmp); background-repeat: repeat; }
            .site-header { display: flex; justify-content: space-between; align-items: center; padding: 12px 24px;
              background: #ffffff; border-bottom: 3px solid var(--accent); position: sticky; top: 0; }
            .brand { font-weight: bold; font-size: 1.25rem; color: var(--accent); text-decoration: none; }
            .pager a { margin: 0 6px; color: var(--accent); }
            main { max-width: 860px; margin: 24px auto; padding: 24px 32px; background: #ffffff; border-radius: var(--radius);
              box-shadow: 0 2px 12px rgba(31, 41, 51, 0.12); }
            h1 { font-size: 2.4rem; margin: 0 0 16px; }
            h2 { font-size: 1.6rem; margin: 32px 0 12px; border-bottom: 1px solid #d9e2ec; }
            h3 { font-size: 1.2rem; margin: 24px 0 8px; color: var(--muted); }
            p { margin: 0 0 14px; text-align: justify; }
            figure { margin: 24px 0; text-align: center; }
            figure img, .hero { max-width: 100%; height: auto; border-radius: var(--radius); }
            figcaption { font-size: 0.9rem; color: var(--muted); margin-top: 6px; }
            .related { margin-top: 40px; padding: 16px; background: #f5f7fa; border-left: 4px solid var(--accent); }
            .article-list li { margin: 8px 0; }
            .summary { display: block; color: var(--muted); font-size: 0.95rem; }
            table.data { border-collapse: collapse; margin: 24px auto; font-family: monospace; }
            table.data th, table.data td { border: 1px solid #bcccdc; padding: 4px 10px; text-align: right; }
            table.data th { background: #d9e2ec; }
            .site-footer { text-align: center; padding: 24px; color: var(--muted); font-size: 0.9rem; }
            @media (max-width: 640px) { main { padding: 16px; margin: 0; border-radius: 0; } h1 { font-size: 1.8rem; } }

            """
        var rng = SplitMix64(seed: 0xC55)
        let props = ["margin", "padding", "border-radius", "gap", "font-size", "letter-spacing"]
        let components = ["card", "badge", "button", "panel", "tag", "alert", "chip", "tile"]
        var i = 0
        while css.utf8.count < cssBytes {
            let hex = String(rng.next(0x100_0000), radix: 16)
            let color = "#" + String(repeating: "0", count: 6 - hex.count) + hex
            let prop = props[i % props.count]
            css += ".\(components[i % components.count])-\(i) { \(prop): \(2 + rng.next(30))px; "
                + "color: \(color); border: 1px solid rgba(\(rng.next(256)), \(rng.next(256)), \(rng.next(256)), 0.4); }\n"
            i += 1
        }
        return css
    }

    static func script() -> String {
        var js = """
            "use strict";
            (function () {
              var transforms = [];
              function formatNumber(value) { return (Math.round(value * 100) / 100).toFixed(2); }
              function buildTable(rows, columns) {
                var table = document.createElement("table");
                table.className = "data";
                var head = table.createTHead().insertRow();
                head.appendChild(document.createElement("th")).textContent = "#";
                for (var c = 0; c < columns; c++) {
                  head.appendChild(document.createElement("th")).textContent = "f" + c;
                }
                var body = table.createTBody();
                for (var r = 0; r < rows; r++) {
                  var row = body.insertRow();
                  row.insertCell().textContent = String(r + 1);
                  for (var k = 0; k < columns; k++) {
                    row.insertCell().textContent = formatNumber(transforms[(r * columns + k) % transforms.length](r + k));
                  }
                }
                return table;
              }
              function ready() {
                var host = document.getElementById("data-table");
                if (host) { host.appendChild(buildTable(6, 5)); }
                document.body.dataset.ready = "1";
              }

            """
        var rng = SplitMix64(seed: 0x15)
        var i = 0
        while js.utf8.count < jsBytes - 200 {
            let a = 1 + rng.next(97), b = rng.next(1_000), m = 7 + rng.next(500)
            js += """
                  /** Deterministic filler transform \(i). */
                  function transform\(i)(value) {
                    var acc = value * \(a) + \(b);
                    for (var step = 0; step < 3; step++) { acc = (acc * 31 + step) % \(m); }
                    return acc / \(m) * 100;
                  }
                  transforms.push(transform\(i));

                """
            i += 1
        }
        js += """
              if (document.readyState === "loading") {
                document.addEventListener("DOMContentLoaded", ready);
              } else {
                ready();
              }
            })();

            """
        return js
    }
}
