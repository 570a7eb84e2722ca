import CWebKit
public import Foundation

extension Page {
    // How many ended requests' resources a page keeps for `responseBody`.
    static let keptBodies = 256

    /// The body of a response the page received, as WebKit's web process still holds it: for a
    /// request that ended with a response (`NavigationDelegate.page(_:didEndRequest:)`), among
    /// the page's latest 256, while its document keeps the resource. Read it from
    /// `didEndRequest` or soon after; a later navigation lets WebKit drop it.
    ///
    /// Documents, scripts, style sheets, images and other resources the page's documents load
    /// have one; WebKit keeps none for `fetch()` and `XMLHttpRequest` responses. The body is
    /// decoded (no `Content-Encoding`). Throws `.invalidArgument` for a request the page no
    /// longer keeps (or that ended without a response), `.engine` when WebKit has no data for it,
    /// `.timeout` after `timeout`.
    public func responseBody(of request: ResourceRequest, timeout: Duration = .seconds(10)) async throws -> Data {
        guard let kept = endedResources.last(where: { $0.id == request.id }) else {
            throw HeadwayError(.invalidArgument, "the page keeps no response body of request \(request.id) "
                + "(\(request.url)): only its latest \(Self.keptBodies) requests that ended with a response")
        }
        let resource = kept.resource
        return try await engineAsync(timeout: timeout) { cancellable, callback, data in
            webkit_web_resource_get_data(resource.pointer, cancellable, callback, data)
        } finish: { source, result in
            var error: UnsafeMutablePointer<GError>?
            var length: gsize = 0
            let bytes = webkit_web_resource_get_data_finish(
                source.map { cast($0, to: WebKitWebResource.self) }, result, &length, &error)
            if let error {
                throw HeadwayError.consuming(error, .engine, "WebKit has no body for \(request.url) any more")
            }
            defer { g_free(bytes) }
            let body = bytes.map { Data(bytes: $0, count: Int(length)) } ?? Data()
            // WebKit answers a resource it holds no data of with one NUL byte; an empty body says
            // so in its headers (a 204, or `Content-Length: 0`), a one-byte one by its length.
            guard body == Data([0]), request.response?.contentLength != 1 else { return body }
            let declared = request.response?.headers.first { $0.name.lowercased() == "content-length" }?.value
            guard request.response?.status == 204 || declared == "0" else {
                throw HeadwayError(.engine, "WebKit keeps no body for \(request.url) (it keeps none for fetch() "
                    + "and XMLHttpRequest responses)")
            }
            return Data()
        }
    }
}
