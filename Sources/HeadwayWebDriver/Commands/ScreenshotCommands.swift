import Foundation
import Headway

// Take Screenshot, Take Element Screenshot (https://www.w3.org/TR/webdriver2/#screen-capture) and
// Print Page (https://www.w3.org/TR/webdriver2/#print-page): base64 PNG and PDF.
extension Handlers {
    static let screenshots: [Command: Handler] = [
        .takeScreenshot: { session, _ in
            // The top-level viewport, wherever the current frame is.
            let page = try session.currentPage()
            let scroll = try await page.callAsyncFunction("return [scrollX, scrollY]", in: .isolated)
            let size = page.viewportSize
            let clip = ScreenshotClip(x: scroll[0]?.doubleValue ?? 0, y: scroll[1]?.doubleValue ?? 0,
                                      width: Double(size.width), height: Double(size.height))
            return .string(try await session.capture(clip).base64EncodedString())
        },
        .takeElementScreenshot: { session, request in
            let element = Session.elementReference(request.parameter("elementId"))
            let rect = try await session.callAtom(Session.elementDocumentRect, [element])
            guard let x = rect["x"]?.doubleValue, let y = rect["y"]?.doubleValue,
                  let width = rect["width"]?.doubleValue, let height = rect["height"]?.doubleValue else {
                throw WebDriverError(.unknownError, "the element's rectangle could not be measured")
            }
            return .string(try await session.capture(ScreenshotClip(x: x, y: y, width: width, height: height))
                .base64EncodedString())
        },
        .printPage: { session, request in
            let options = try PDFOptions(webDriver: request.body)
            let page = try session.currentPage()
            do {
                return .string(try await page.pdf(options).base64EncodedString())
            } catch let error as HeadwayError where error.code == .invalidArgument {
                throw WebDriverError(.invalidArgument, error.message)
            }
        },
    ]
}

extension Session {
    // The current page's PNG of `clip` (CSS pixels of the top-level document).
    func capture(_ clip: ScreenshotClip) async throws -> Data {
        do {
            return try await currentPage().screenshot(clip: clip).pngData
        } catch let error as HeadwayError where error.code == .invalidArgument || error.code == .engine {
            throw WebDriverError(.unableToCaptureScreen, error.description)
        }
    }

    // Scrolls the element into view as the spec says, then gives its border box in CSS pixels of
    // the top-level document (through the frames it is in).
    static let elementDocumentRect = """
        function(el) {
          el.scrollIntoView({ block: 'end', inline: 'nearest' });
          const r = el.getBoundingClientRect();
          let x = r.left, y = r.top, w = el.ownerDocument.defaultView;
          while (w !== w.parent && w.frameElement) {
            const f = w.frameElement, box = f.getBoundingClientRect(), style = w.parent.getComputedStyle(f);
            x += box.left + f.clientLeft + parseFloat(style.paddingLeft);
            y += box.top + f.clientTop + parseFloat(style.paddingTop);
            w = w.parent;
          }
          return { x: x + w.scrollX, y: y + w.scrollY, width: r.width, height: r.height };
        }
        """
}
