import Foundation
import Headway
import HeadwayTestSupport
import Testing

/// Printing to PDF through WebKit's print operation and GTK's "Print to File" printer.
@Suite("Print to PDF", .serialized)
@EngineActor
struct PDFTests {
    static let tall = """
        <!doctype html><title>Tall</title><body style="margin: 0">
        <div style="height: 3000px; background: linear-gradient(red, blue)">A tall page</div>
        """

    // The text of the PDF's page dictionaries, which cairo writes uncompressed.
    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    static func pageCount(_ data: Data) -> Int {
        text(data).matches(of: /\/Type\s*\/Page[^s]/).count
    }

    static func mediaBoxes(_ data: Data) -> [String] {
        text(data).matches(of: /\/MediaBox\s*\[\s*([0-9. ]+?)\s*\]/).map { String($0.output.1) }
    }

    @Test func aTallPagePrintsToSeveralPDFPages() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/tall.html", .html(Self.tall))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("tall.html"))
            let pdf = try await page.pdf()
            #expect(pdf.starts(with: Data("%PDF-".utf8)))
            #expect(Self.pageCount(pdf) > 1)
            // US Letter, 8.5 × 11 in: 612 × 792 points.
            #expect(Self.mediaBoxes(pdf).first == "0 0 612 792")
            let landscape = try await page.pdf(PDFOptions(orientation: .landscape))
            #expect(Self.mediaBoxes(landscape).first == "0 0 792 612")
            let first = try await page.pdf(PDFOptions(pageRanges: ["1"]))
            #expect(Self.pageCount(first) == 1)
            let rest = try await page.pdf(PDFOptions(pageRanges: ["2-"]))
            #expect(Self.pageCount(rest) == Self.pageCount(pdf) - 1)
            // A4 in cm, with its own margins: 595.28 × 841.89 points, as cairo rounds them.
            let a4 = try await page.pdf(PDFOptions(pageWidth: 21, pageHeight: 29.7, marginTop: 0, marginBottom: 0))
            #expect(Self.mediaBoxes(a4).first?.hasPrefix("0 0 595") == true)
        }
    }

    static let tenPages = "<!doctype html><style>div + div { page-break-before: always }</style>"
        + (1...10).map { "<div>Page \($0)</div>" }.joined()

    // The cases of WebDriver's own tests (wpt webdriver/tests/classic/print/printcmd.py), and more.
    @Test func pageRangesAreParsedAsWebDriverSays() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/ten.html", .html(Self.tenPages))
        try await Browser.withPage { page in
            try await page.load(server.url.appendingPathComponent("ten.html"))
            let cases: [([String], Int)] = [
                ([], 10), (["-"], 10), ([" - "], 10), (["2-4"], 3), (["2-4", "2-3"], 3), (["2-4", "3-5"], 4),
                (["9-"], 2), (["-2"], 2), (["7"], 1), (["-2", "9-", "7"], 5), (["-5", "2-"], 10),
                ([" 2 - 4 "], 3), (["0", "3"], 1), (["0-2"], 2), (["10-"], 1), (["1-99"], 10),
            ]
            for (ranges, count) in cases {
                #expect(Self.pageCount(try await page.pdf(PDFOptions(pageRanges: ranges))) == count, "\(ranges)")
            }
            // Beyond the last page: nothing to print.
            for ranges in [["11-"], ["99"], ["11-20"]] {
                let error = await #expect(throws: HeadwayError.self) {
                    try await page.pdf(PDFOptions(pageRanges: ranges))
                }
                #expect(error?.code == .invalidArgument)
            }
        }
    }

    @Test func optionsOutOfRangeAreRefused() async throws {
        try await Browser.withPage { page in
            let bad = [PDFOptions(scale: 0.05), PDFOptions(scale: 2.5), PDFOptions(pageWidth: 0),
                       PDFOptions(marginTop: -1), PDFOptions(marginLeft: 11, marginRight: 11),
                       PDFOptions(pageRanges: ["0"]), PDFOptions(pageRanges: ["3-1"]), PDFOptions(pageRanges: ["a"]),
                       PDFOptions(pageRanges: ["1-2-3"]), PDFOptions(pageRanges: ["1:2"]), PDFOptions(pageRanges: [""]),
                       PDFOptions(pageRanges: ["+1"]), PDFOptions(pageRanges: ["1.5"]), PDFOptions(pageRanges: ["-0"])]
            for options in bad {
                let error = await #expect(throws: HeadwayError.self) { try await page.pdf(options) }
                #expect(error?.code == .invalidArgument)
            }
        }
    }
}
