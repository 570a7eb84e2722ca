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
    /// The pages to print, each "N", "N-M", "-M" (1 to M) or "N-" (N to the end), counting from
    /// 1; empty (the default) prints every page.
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

    // The page ranges as 0-based inclusive bounds (`Int32.max - 1` for "to the end").
    func ranges() throws -> [(start: Int32, end: Int32)] {
        try pageRanges.map { text in
            let refused = HeadwayError(.invalidArgument, "\"\(text)\" is no page range: give N, N-M, -M or N-, from 1")
            let parts = text.trimmingCharacters(in: .whitespaces)
                .split(separator: "-", omittingEmptySubsequences: false)
            func number(_ part: Substring, empty: Int) throws -> Int {
                let trimmed = part.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { return empty }
                guard trimmed.allSatisfy(\.isASCII), let value = Int(trimmed), value >= 1, value < Int(Int32.max)
                else { throw refused }
                return value
            }
            switch parts.count {
            case 1:
                let page = try number(parts[0], empty: 0)
                guard page >= 1 else { throw refused }
                return (Int32(page - 1), Int32(page - 1))
            case 2:
                let first = try number(parts[0], empty: 1), last = try number(parts[1], empty: Int(Int32.max))
                guard first <= last, !(parts[0].isEmpty && parts[1].isEmpty) else { throw refused }
                return (Int32(first - 1), Int32(last - 1))
            default: throw refused
            }
        }
    }
}
