@testable import Headway
import Testing

// The metrics' arithmetic, against the cases browsertime's own tests and code give.
@Suite("Visual metrics")
struct VisualMetricsTests {
    // A histogram whose only non-white colour is `count` pixels of one grey.
    static func grey(_ count: Int) -> ColorHistogram {
        var counts = Array(repeating: 0, count: 768)
        for channel in 0..<3 { counts[channel * 256 + 100] = count }
        return ColorHistogram(counts: counts)
    }

    @Test func speedIndexIsTheAreaAboveTheProgressCurve() {
        // test_visualmetrics.py: [(0, 0), (1000, 50), (2000, 100)] gives 1500.
        let progress = [(0, 0), (1000, 50), (2000, 100)].map { VisualMetrics.Progress(time: $0, percent: $1) }
        #expect(VisualMetrics.speedIndex(progress) == 1500)
    }

    @Test func progressMovesFromTheFirstFrameTowardsTheLast() {
        let metrics = VisualMetrics(times: [0, 100, 300, 700], histograms: [Self.grey(0), Self.grey(50), Self.grey(90),
                                                                            Self.grey(100)], ending: .stable)
        #expect(metrics.progress.map(\.percent) == [0, 50, 90, 100])
        #expect(metrics.firstVisualChange == 100 && metrics.lastVisualChange == 700)
        // 100 ms at 0%, 200 ms at 50%, 400 ms at 90%.
        #expect(metrics.speedIndex == 100 + 100 + 40)
        #expect(metrics.visualComplete85 == 300 && metrics.visualComplete95 == 700 && metrics.visualComplete99 == 700)
    }

    @Test func visuallyCompleteResetsWhenProgressFallsBack() {
        // browsertime's extraMetrics: 85% reached at 100, lost at 200, reached again at 300.
        let progress = [(0, 0), (100, 90), (200, 40), (300, 88), (400, 100)]
            .map { VisualMetrics.Progress(time: $0, percent: $1) }
        #expect(VisualMetrics.visuallyComplete(progress, at: 85) == 300)
        #expect(VisualMetrics.visuallyComplete(progress, at: 99) == 400)
    }

    @Test func oneFrameOrAlikeFramesAreComplete() {
        let one = VisualMetrics(times: [0], histograms: [Self.grey(10)], ending: .bound)
        #expect(one.firstVisualChange == 0 && one.speedIndex == 0 && one.progress.map(\.percent) == [100])
        // First and last alike: visualmetrics calls every frame complete.
        let alike = VisualMetrics(times: [0, 50], histograms: [Self.grey(10), Self.grey(10)], ending: .stable)
        #expect(alike.progress.map(\.percent) == [100, 100])
    }

    @Test func nearWhitePixelsAreNoProgress() {
        // Three pixels: white, near-white (250, 251, 252) and one of colour.
        var pixels: [UInt32] = [0xffff_ffff, 0xfffa_fbfc, 0xff10_2030]
        let histogram = pixels.withUnsafeMutableBytes {
            ColorHistogram(pixels: $0.baseAddress!, width: 3, height: 1, rowBytes: 12)
        }
        #expect(histogram.counts.reduce(0, +) == 3)
        #expect(histogram.counts[0x10] == 1 && histogram.counts[256 + 0x20] == 1 && histogram.counts[512 + 0x30] == 1)
    }
}
