import Foundation

/// How `Page.pdf(_:timeout:)` prints a page, as WebDriver's Print command defines it: lengths in
/// centimetres, a US Letter page with 1 cm margins by default.
public struct PDFOptions: Sendable, Equatable {
    /// Which way the page is turned.
    public enum Orientation: String, Sendable, Codable {
        /// The paper's width across, its height down.
        case portrait
        /// The paper turned: its height across, its width down.
        case landscape
    }

    /// Portrait (the default) or landscape.
    public var orientation: Orientation
    /// How much the content is scaled: 0.1 to 2, 1 by default.
    public var scale: Double
    /// Whether backgrounds (colours, images) are printed; false by default, as in WebDriver.
    public var background: Bool
    /// The paper's width in cm (portrait), at least 2.54/72 (one point); 21.59 by default.
    public var pageWidth: Double
    /// The paper's height in cm (portrait), at least 2.54/72 (one point); 27.94 by default.
    public var pageHeight: Double
    /// The top margin in cm, 0 or more; 1 by default.
    public var marginTop: Double
    /// The bottom margin in cm, 0 or more; 1 by default.
    public var marginBottom: Double
    /// The left margin in cm, 0 or more; 1 by default.
    public var marginLeft: Double
    /// The right margin in cm, 0 or more; 1 by default.
    public var marginRight: Double
    /// Whether content wider than the page is shrunk to fit it. WebKit always lays a page out
    /// to the paper's width, so both values print the same.
    public var shrinkToFit: Bool
    /// The pages to print, as WebDriver's Print command gives them: each "N", "N-M", "-M" (1 to
    /// M), "N-" (N to the end) or "-" (every page), counting from 1, with whitespace allowed
    /// around the numbers; page 0 is no page. Each page selected prints once, in the document's
    /// order. Empty (the default) prints every page. Ranges that select no page of the document
    /// (all beyond its end) are refused with `.invalidArgument`.
    public var pageRanges: [String]

    /// Options with WebDriver's defaults unless given.
    public init(orientation: Orientation = .portrait, scale: Double = 1, background: Bool = false,
                pageWidth: Double = 21.59, pageHeight: Double = 27.94,
                marginTop: Double = 1, marginBottom: Double = 1, marginLeft: Double = 1, marginRight: Double = 1,
                shrinkToFit: Bool = true, pageRanges: [String] = []) {
        self.orientation = orientation
        self.scale = scale
        self.background = background
        self.pageWidth = pageWidth
        self.pageHeight = pageHeight
        self.marginTop = marginTop
        self.marginBottom = marginBottom
        self.marginLeft = marginLeft
        self.marginRight = marginRight
        self.shrinkToFit = shrinkToFit
        self.pageRanges = pageRanges
    }

    // The smallest page side WebDriver allows, in cm: one point.
    static let smallestSide = 2.54 / 72

    // Throws `.invalidArgument` naming the first option out of range.
    func validate() throws {
        func refuse(_ message: String) -> HeadwayError { HeadwayError(.invalidArgument, message) }
        guard scale.isFinite, (0.1...2).contains(scale) else {
            throw refuse("the PDF scale must be 0.1 to 2, not \(scale)")
        }
        let sides = [("width", pageWidth), ("height", pageHeight)]
        for (name, side) in sides where !(side.isFinite && side >= Self.smallestSide) {
            throw refuse("the PDF page \(name) must be at least \(Self.smallestSide) cm, not \(side)")
        }
        let margins = [("top", marginTop), ("bottom", marginBottom), ("left", marginLeft), ("right", marginRight)]
        for (name, margin) in margins where !(margin.isFinite && margin >= 0) {
            throw refuse("the PDF \(name) margin must be 0 cm or more, not \(margin)")
        }
        guard marginLeft + marginRight < pageWidth, marginTop + marginBottom < pageHeight else {
            throw refuse("the PDF margins leave no room on a \(pageWidth) × \(pageHeight) cm page")
        }
        _ = try ranges()
    }

    // The page ranges as 0-based inclusive bounds, sorted and merged so that each page prints
    // once (`Int32.max - 1` for "to the end"), parsed as WebDriver's "parse a page range" says
    // (https://www.w3.org/TR/webdriver2/#dfn-parse-a-page-range) but for the document's page
    // count, which is known only once printed: GTK then refuses a range beyond the last page.
    // Empty when every page prints.
    func ranges() throws -> [(start: Int32, end: Int32)] {
        var bounds: [(first: Int, last: Int)] = []
        for text in pageRanges {
            let refused = HeadwayError(.invalidArgument, "\"\(text)\" is no page range: give N, N-M, -M, N- or -, "
                                       + "with whole page numbers from 1")
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw refused }
            let blank = { (part: Substring) in part.allSatisfy(Self.isWhitespace) }
            guard parts.count == 2 else {
                let page = try Self.pageNumber(parts[0], or: refused)
                bounds.append((page, page))
                continue
            }
            let first = blank(parts[0]) ? 1 : try Self.pageNumber(parts[0], or: refused)
            let last = blank(parts[1]) ? Self.lastPage : try Self.pageNumber(parts[1], or: refused)
            guard first <= last else { throw refused }
            bounds.append((first, last))
        }
        // Page 0 is no page; the rest, in order, each once.
        var merged: [(first: Int, last: Int)] = []
        for bound in bounds.map({ (max($0.first, 1), $0.last) }).filter({ $0.0 <= $0.1 }).sorted(by: { $0.0 < $1.0 }) {
            if let previous = merged.last, bound.0 <= previous.last + 1 {
                merged[merged.count - 1].last = max(previous.last, bound.1)
            } else {
                merged.append((bound.0, bound.1))
            }
        }
        if merged.isEmpty, !pageRanges.isEmpty {
            throw HeadwayError(.invalidArgument, "the page ranges \(pageRanges) select no page (pages count from 1)")
        }
        return merged.map { (Int32($0.first - 1), Int32($0.last - 1)) }
    }

    // The highest page number a range can name, 1-based: "to the end".
    static let lastPage = Int(Int32.max)

    // WebDriver's "parse as an integer": ASCII digits only, whitespace around them; numbers
    // beyond `lastPage` are `lastPage` (no document has that many pages).
    static func pageNumber(_ part: Substring, or refused: HeadwayError) throws -> Int {
        let digits = part.drop(while: isWhitespace).reversed().drop(while: isWhitespace).reversed()
        guard !digits.isEmpty, digits.allSatisfy({ ("0"..."9").contains($0) }) else { throw refused }
        return Int(String(digits)).map { min($0, lastPage) } ?? lastPage
    }

    // ASCII whitespace, as the spec's strings know it.
    static func isWhitespace(_ character: Character) -> Bool { [" ", "\t", "\n", "\r", "\u{0C}"].contains(character) }
}
