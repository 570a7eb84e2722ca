import CHeadwayShims
import CWebKit
import Foundation

// The resource signals of a page's view, translated: each request's start (with its request
// headers) and end (with its response, or its failure), for the delegate, network idleness and
// the resource entries.

// `resource-load-started`: also connects the resource's own `finished` and `failed`.
func onResourceStarted(
    _ view: UnsafeMutablePointer<WebKitWebView>?,
    _ resource: UnsafeMutablePointer<WebKitWebResource>?,
    _ request: UnsafeMutablePointer<WebKitURIRequest>?,
    _ data: gpointer?
) {
    guard let request, let raw = URL(string: String(cString: webkit_uri_request_get_uri(request))) else { return }
    // A boosted page's `document.cookie` is no request of the page's own.
    if MirrorScheme.isMirror(raw), MirrorCookies.isBridge(raw) { return }
    let mirrored = MirrorScheme.real(raw)
    let target = targetPage(data)
    let method = webkit_uri_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
    if let resource {
        // Released with the resource's handlers, when WebKit drops the resource.
        let signals = SignalConnections(UnsafeMutableRawPointer(resource))
        signals.connect(
            "finished",
            unsafeBitCast(onResourceFinished as ResourceFinished, to: GCallback.self),
            box: target
        )
        signals.connect("failed", unsafeBitCast(onResourceFailed as ResourceFailed, to: GCallback.self), box: target)
        signals.connect(
            "notify::response",
            unsafeBitCast(onResourceResponse as ResourceResponse, to: GCallback.self),
            box: target
        )
    }
    let key = resource.map { UInt(bitPattern: UnsafeMutableRawPointer($0)) }
    let headers = webkit_uri_request_get_http_headers(request).map(resourceHeaders) ?? []
    let started = Date()
    EngineActor.assumeIsolated {
        guard let page = target.page else { return }
        // A response an interceptor gave is reported under the URL the page asked for.
        let url = page.browser?.provided?.real(mirrored) ?? mirrored
        if let key {
            page.network.started(
                key,
                url: url,
                .init(url: url, method: method, started: started, requestHeaders: headers)
            )
            page.requestSent(key, url: url, method: method, headers: headers)
        }
        page.chain.page(page, didStartLoadingResource: url, method: method)
    }
}

private typealias ResourceFinished = @convention(c) (UnsafeMutablePointer<WebKitWebResource>?, gpointer?) -> Void
private typealias ResourceResponse =
    @convention(c) (UnsafeMutablePointer<WebKitWebResource>?, gpointer?, gpointer?) -> Void
private typealias ResourceFailed =
    @convention(c) (UnsafeMutablePointer<WebKitWebResource>?, UnsafeMutablePointer<GError>?, gpointer?) -> Void

private func onResourceFinished(_ resource: UnsafeMutablePointer<WebKitWebResource>?, _ data: gpointer?) {
    resourceEnded(resource, failure: nil, data)
}

// The response's headers arrived (its body may still be on its way).
private func onResourceResponse(_ resource: UnsafeMutablePointer<WebKitWebResource>?, _: gpointer?, _ data: gpointer?) {
    guard let resource, let response = currentResponse(resource) else { return }
    let key = UInt(bitPattern: UnsafeMutableRawPointer(resource))
    let target = targetPage(data)
    EngineActor.assumeIsolated {
        target.page?.requestResponded(key, response: response)
    }
}

private func onResourceFailed(
    _ resource: UnsafeMutablePointer<WebKitWebResource>?,
    _ error: UnsafeMutablePointer<GError>?,
    _ data: gpointer?
) {
    resourceEnded(resource, failure: error.map { String(cString: $0.pointee.message) } ?? "failed", data)
    // WebKit fails the requests in flight with its internal error when its network process
    // ends; the page's load would otherwise finish as if nothing happened.
    guard let info = error.map({ HeadwayError.GErrorInfo($0) }), HeadwayError.isNetworkProcessLoss(info),
          let url = resource.flatMap({ webkit_web_resource_get_uri($0) }).flatMap({ URL(string: String(cString: $0)) })
    else { return }
    let target = targetPage(data)
    EngineActor.assumeIsolated {
        guard let page = target.page else { return }
        page.chain.page(page, networkProcessFailed: MirrorScheme.real(url), info)
    }
}

private func resourceEnded(_ resource: UnsafeMutablePointer<WebKitWebResource>?, failure: String?, _ data: gpointer?) {
    guard let resource else { return }
    let key = UInt(bitPattern: UnsafeMutableRawPointer(resource))
    let response = currentResponse(resource)
    let target = targetPage(data)
    nonisolated(unsafe) let ended = resource
    EngineActor.assumeIsolated {
        target.page?.network.ended(key, response: response.map {
            ($0.status, $0.headers, $0.mimeType, $0.contentLength)
        }, failure: failure)
        target.page?.requestEnded(key, response: response, failure: failure, resource: ended)
        target.page?.iconRequestEnded()
    }
}

// The resource's response as far as WebKit has it, or nil before its headers.
private func currentResponse(_ resource: UnsafeMutablePointer<WebKitWebResource>) -> ResourceRequest.Response? {
    webkit_web_resource_get_response(resource).map { response in
        ResourceRequest.Response(
            status: Int(webkit_uri_response_get_status_code(response)),
            headers: webkit_uri_response_get_http_headers(response).map(resourceHeaders) ?? [],
            mimeType: webkit_uri_response_get_mime_type(response).map { String(cString: $0) } ?? "",
            contentLength: Int(clamping: webkit_uri_response_get_content_length(response))
        )
    }
}

private func resourceHeaders(_ headers: OpaquePointer) -> [ResourceEntry.Header] {
    headerList(headers).map { ResourceEntry.Header(name: $0.0, value: $0.1) }
}
