import Headway

// Print Page's parameters (https://www.w3.org/TR/webdriver2/#print-page) as the library's
// PDFOptions: lengths in centimetres, a wrong type or a value out of range "invalid argument".
extension PDFOptions {
    init(webDriver body: [String: JSONValue]) throws(WebDriverError) {
        self.init()
        func invalid(_ key: String, _ shape: String) -> WebDriverError {
            WebDriverError(.invalidArgument, "\"\(key)\" must be \(shape)")
        }
        func number(_ object: [String: JSONValue], _ key: String, _ name: String, minimum: Double,
                    maximum: Double = .infinity, default value: Double) throws(WebDriverError) -> Double {
            guard let given = object[key] else { return value }
            guard let number = given.doubleValue, number.isFinite, number >= minimum, number <= maximum else {
                throw invalid(name, maximum.isFinite ? "a number from \(minimum) to \(maximum)"
                                                     : "a number, \(minimum) or more")
            }
            return number
        }
        func object(_ key: String) throws(WebDriverError) -> [String: JSONValue] {
            guard let value = body[key] else { return [:] }
            guard case .object(let object) = value else { throw invalid(key, "an object") }
            return object
        }
        func bool(_ key: String, default value: Bool) throws(WebDriverError) -> Bool {
            guard let given = body[key] else { return value }
            guard let bool = given.boolValue else { throw invalid(key, "a boolean") }
            return bool
        }
        if let given = body["orientation"] {
            guard let orientation = given.stringValue.flatMap(Orientation.init(rawValue:)) else {
                throw invalid("orientation", "\"portrait\" or \"landscape\"")
            }
            self.orientation = orientation
        }
        scale = try number(body, "scale", "scale", minimum: 0.1, maximum: 2, default: 1)
        background = try bool("background", default: false)
        shrinkToFit = try bool("shrinkToFit", default: true)
        let page = try object("page")
        pageWidth = try number(page, "width", "page.width", minimum: 2.54 / 72, default: 21.59)
        pageHeight = try number(page, "height", "page.height", minimum: 2.54 / 72, default: 27.94)
        let margin = try object("margin")
        marginTop = try number(margin, "top", "margin.top", minimum: 0, default: 1)
        marginBottom = try number(margin, "bottom", "margin.bottom", minimum: 0, default: 1)
        marginLeft = try number(margin, "left", "margin.left", minimum: 0, default: 1)
        marginRight = try number(margin, "right", "margin.right", minimum: 0, default: 1)
        if let given = body["pageRanges"] {
            guard case .array(let ranges) = given else { throw invalid("pageRanges", "an array") }
            // Numbers become the library's strings; the library parses both (PDFOptions.ranges).
            pageRanges = try ranges.map { range throws(WebDriverError) in
                if let text = range.stringValue { return text }
                guard let page = range.doubleValue, page.isFinite, page >= 0, page == page.rounded() else {
                    throw invalid("pageRanges", "an array of whole page numbers (0 or more) and ranges such as \"2-4\"")
                }
                return String(Int(min(page, Double(Int32.max))))
            }
        }
    }
}
