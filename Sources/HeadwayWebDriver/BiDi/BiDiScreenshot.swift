import Foundation
import Headway

// browsingContext.captureScreenshot: the viewport or the whole document of a top-level context,
// cut to a `clip` (a box in the origin's coordinates, or an element's border box) as the spec
// says: the origin's rectangle and the clip's overlap, `unable to capture screen` when they do
// not. PNG only.
@EngineActor
enum BiDiScreenshot {
    static let handlers: [String: BiDiHandler] = [
        "browsingContext.captureScreenshot": { call in
            let (handle, page) = try call.context(frameError: .unsupportedOperation)
            let origin = try call.parameters.optionalString("origin") ?? "viewport"
            guard origin == "viewport" || origin == "document" else {
                throw BiDiError(.invalidArgument, "\"origin\" must be \"viewport\" or \"document\"")
            }
            if case .object(let format)? = call.parameters.body["format"], let type = format["type"]?.stringValue,
               type != "image/png" {
                throw BiDiError(.unsupportedOperation, "headway captures image/png only, not \(type)")
            }
            let box = try await page.callAsyncFunction("""
                const d = document.documentElement;
                return [scrollX, scrollY, innerWidth, innerHeight, d.scrollWidth, d.scrollHeight]
                """, in: .isolated)
            let n = (0..<6).map { box[$0]?.doubleValue ?? 0 }
            // In document coordinates.
            let area = origin == "viewport"
                ? ScreenshotClip(x: n[0], y: n[1], width: n[2], height: n[3])
                : ScreenshotClip(x: 0, y: 0, width: max(1, n[4]), height: max(1, n[5]))
            var rect = area
            if let clip = call.parameters.body["clip"], clip != .null {
                let cut = try await Self.clip(clip, area: area, scroll: (n[0], n[1]), handle: handle, call)
                guard let overlap = intersection(area, cut) else {
                    throw BiDiError(.unableToCaptureScreen, "the clip lies outside the \(origin)")
                }
                rect = overlap
            }
            let png = try await call.session.inContext(handle) { try await call.session.capture(rect) }
            return ["data": .string(png.base64EncodedString())]
        },
    ]

    // The clip in document coordinates: a box is in the origin's (from its top left), an
    // element's border box is where it is now (it is not scrolled into view).
    private static func clip(_ clip: JSONValue, area: ScreenshotClip, scroll: (Double, Double), handle: String,
                             _ call: BiDiCall) async throws -> ScreenshotClip {
        switch clip["type"]?.stringValue {
        case "box":
            guard let x = clip["x"]?.doubleValue, let y = clip["y"]?.doubleValue,
                  let width = clip["width"]?.doubleValue, let height = clip["height"]?.doubleValue,
                  [x, y, width, height].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
                throw BiDiError(.invalidArgument, "a box clip needs numbers \"x\", \"y\", \"width\" and \"height\"")
            }
            // A negative size extends the box the other way, as DOMRect does.
            return ScreenshotClip(x: area.x + min(x, x + width), y: area.y + min(y, y + height),
                                  width: abs(width), height: abs(height))
        case "element":
            guard let id = clip["element"]?["sharedId"]?.stringValue else {
                throw BiDiError(.invalidArgument, "an element clip needs \"element\": {\"sharedId\": ...}")
            }
            let box: JSONValue
            do {
                box = try await call.session.inContext(handle) {
                    try await call.session.callAtom("""
                        function(el) {
                          const r = el.getBoundingClientRect();
                          return [r.left + scrollX, r.top + scrollY, r.width, r.height];
                        }
                        """, [[ScriptRuntime.elementKey: .string(id)]])
                }
            } catch let error as WebDriverError
                        where error.code == .staleElementReference || error.code == .noSuchElement {
                throw BiDiError(.noSuchNode, error.message)
            }
            let n = (0..<4).map { box[$0]?.doubleValue ?? 0 }
            return ScreenshotClip(x: n[0], y: n[1], width: n[2], height: n[3])
        default:
            throw BiDiError(.invalidArgument,
                            "\"clip\" must be {\"type\": \"box\", ...} or {\"type\": \"element\", ...}")
        }
    }

    // Where `a` and `b` overlap; nil when they do not (or only along an edge).
    private static func intersection(_ a: ScreenshotClip, _ b: ScreenshotClip) -> ScreenshotClip? {
        let left = max(a.x, b.x), top = max(a.y, b.y)
        let right = min(a.x + a.width, b.x + b.width), bottom = min(a.y + a.height, b.y + b.height)
        guard right > left, bottom > top else { return nil }
        return ScreenshotClip(x: left, y: top, width: right - left, height: bottom - top)
    }
}
