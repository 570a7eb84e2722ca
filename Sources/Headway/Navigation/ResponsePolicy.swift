import CWebKit
import Foundation

// Decides what to do with a response before WebKit shows it. A page is shown as usual; a
// response that is no page (204 No Content, 205, 304 Not Modified, a download) is never shown
// and never downloaded: for the main document, the load fails with `.notAPage`, a message that
// says what the server sent, and its status.
enum ResponsePolicy {
    // Why `response` is no page WebKit can show, or nil when it is one.
    static func reason(status: Int, mimeType: String, disposition: String?, supported: Bool, url: URL) -> String? {
        switch status {
        case 204: return "the server answered 204 No Content for \(url.absoluteString): there is no page to show"
        case 205: return "the server answered 205 Reset Content for \(url.absoluteString): there is no page to show"
        case 304:
            return "the server answered 304 Not Modified for \(url.absoluteString) "
                + "to a request that was not conditional: there is no page to show"
        default: break
        }
        let type = mimeType.isEmpty ? "no content type" : mimeType
        if let disposition, disposition.lowercased().hasPrefix("attachment") {
            return "\(url.absoluteString) is a download (\(type), Content-Disposition: attachment), not a page"
        }
        if !supported {
            return "\(url.absoluteString) is a download (\(type)), not a page WebKit can show"
        }
        return nil
    }

    // Handles a RESPONSE policy decision. Returns true when it decided (ignored a response
    // that is no page), false to leave the decision to WebKit.
    @EngineActor
    static func decide(_ decision: UnsafeMutablePointer<WebKitResponsePolicyDecision>, page: Page?) -> Bool {
        guard let response = webkit_response_policy_decision_get_response(decision),
            let raw = webkit_uri_response_get_uri(response).flatMap({ URL(string: String(cString: $0)) })
        else { return false }
        let headers = webkit_uri_response_get_http_headers(response)
        let disposition = headers.flatMap { soup_message_headers_get_one($0, "Content-Disposition") }.map {
            String(cString: $0)
        }
        let status = Int(webkit_uri_response_get_status_code(response))
        let mimeType = webkit_uri_response_get_mime_type(response).map { String(cString: $0) } ?? ""
        let isHTTP = ["http", "https"].contains(MirrorScheme.real(raw).scheme?.lowercased() ?? "")
        guard let reason = reason(status: isHTTP ? status : 200, mimeType: mimeType, disposition: disposition,
                                  supported: webkit_response_policy_decision_is_mime_type_supported(decision) != 0,
                                  url: MirrorScheme.real(raw))
        else { return false }
        // Ignoring (never downloading) ends the frame's load with "Frame load interrupted by
        // policy change"; for the main document the tracker reports this reason instead.
        webkit_policy_decision_ignore(cast(decision, to: WebKitPolicyDecision.self))
        if webkit_response_policy_decision_is_main_frame_main_resource(decision) != 0 {
            page?.tracker.notAPage(HeadwayError(.notAPage, reason, status: isHTTP && status > 0 ? status : nil))
        }
        return true
    }
}
