import Foundation

// Deterministic images and text for the demo site.
extension DemoSite {
    // MARK: - Deterministic randomness

    // SplitMix64: tiny, seeded, identical on every platform.
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

    // Encodes an uncompressed 24-bit bottom-up BMP; `pixel(x, y)` returns RGB with y = 0 at the top.
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

    // Gradients, diagonal stripes and a ring; parameters differ per article and image.
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

    // Sections of headings, paragraphs and lists, with the article's figures after sections 1, 3 and 5.
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
}
