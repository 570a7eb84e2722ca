// A frame's red, green and blue histograms (256 counts each), without near-white pixels (all
// three channels at 250 or more), as `visualmetrics` makes them: a page's white background is no
// progress.
struct ColorHistogram: Sendable, Equatable {
    var counts: [Int]  // red 0..<256, green 256..<512, blue 512..<768

    // The histogram of a cairo ARGB32/RGB24 image (native-endian 0xAARRGGBB words).
    init(pixels: UnsafeRawPointer, width: Int, height: Int, rowBytes: Int) {
        var counts = [Int](repeating: 0, count: 768)
        counts.withUnsafeMutableBufferPointer { bins in
            for y in 0..<height {
                let row = pixels + y * rowBytes
                for x in 0..<width {
                    let pixel = row.loadUnaligned(fromByteOffset: x * 4, as: UInt32.self)
                    let red = Int(pixel >> 16 & 0xff), green = Int(pixel >> 8 & 0xff), blue = Int(pixel & 0xff)
                    guard red < 250 || green < 250 || blue < 250 else { continue }
                    bins[red] += 1
                    bins[256 + green] += 1
                    bins[512 + blue] += 1
                }
            }
        }
        self.counts = counts
    }

    init(counts: [Int]) { self.counts = counts }

    // How far this histogram has come from `first` towards `last`, in whole percent:
    // Σ min(|h − f|, |l − f|) / Σ |l − f| over every bin, 100 when first and last are alike.
    func progress(from first: ColorHistogram, to last: ColorHistogram) -> Int {
        var matched = 0, total = 0
        for bin in 0..<768 {
            let target = abs(last.counts[bin] - first.counts[bin])
            matched += min(abs(counts[bin] - first.counts[bin]), target)
            total += target
        }
        guard total > 0 else { return 100 }
        return Int((Double(matched) / Double(total) * 100).rounded(.down))
    }
}
