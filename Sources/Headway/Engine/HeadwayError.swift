import CWebKit
import Foundation

/// The one error type Headway throws. `description` is a single line a person can act on.
///
/// ```swift
/// do { _ = try await page.load(url) } catch let error as HeadwayError where error.code == .timeout { … }
/// ```
public struct HeadwayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the CLI maps each code to an exit status.
    public enum Code: String, Sendable, Codable {
        case invalidArgument, displayUnavailable, engine, loadFailed, blockedURL, timeout
        case httpStatus, scriptError, scriptTimeout, fileUnreadable, serverFailed, closed
        /// The response is no page to show: 204 No Content, 205, 304 Not Modified, or a
        /// download (`Content-Disposition: attachment`, a type WebKit cannot display).
        case notAPage
    }

    /// A GLib error's identity, when the failure came from GLib, WebKit or libsoup.
    public struct GErrorInfo: Sendable, Equatable, Codable {
        public var domain: String
        public var code: Int
        public var message: String
    }

    public var code: Code
    public var message: String
    public var gerror: GErrorInfo?
    /// The HTTP status of the response the failure came with (`.notAPage`), if any.
    public var status: Int?

    public init(_ code: Code, _ message: String, gerror: GErrorInfo? = nil, status: Int? = nil) {
        self.code = code
        self.message = message
        self.gerror = gerror
        self.status = status
    }

    public var description: String {
        guard let gerror else { return message }
        return "\(message) (\(gerror.domain) \(gerror.code): \(gerror.message))"
    }
}

extension HeadwayError.GErrorInfo {
    /// Copies a GError's domain, code and message. Does not free it.
    init(_ error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? ""
    }
}

extension HeadwayError {
    /// Wraps and frees a GError.
    static func consuming(_ error: UnsafeMutablePointer<GError>?, _ code: Code, _ message: String) -> HeadwayError {
        guard let error else { return HeadwayError(code, message) }
        defer { g_error_free(error) }
        return HeadwayError(code, message, gerror: GErrorInfo(error))
    }
}

extension HeadwayError {
    /// The error for WebKit's load-failed. WebKit fails the loads in flight with its internal
    /// error (WebKitErrorDomain 300) when its network process ends, crashed or killed: that is
    /// an engine failure, not the site's.
    static func loadFailure(of url: URL?, _ info: GErrorInfo?) -> HeadwayError {
        let what = url?.absoluteString ?? "the page"
        if let info, info.domain == "WebKitErrorDomain", info.code == 300 {
            return HeadwayError(.engine, "WebKit failed the load of \(what) internally, as it does when its network process "
                + "ends (crashed or was killed); the next load starts a fresh one", gerror: info)
        }
        return HeadwayError(.loadFailed, "could not load \(what): \(info?.message ?? "unknown error")", gerror: info)
    }

    /// WebKit cancelled the load (a newer navigation replaced it, or it was stopped).
    var isCancellation: Bool {
        guard let gerror else { return false }
        return gerror.domain == String(cString: g_quark_to_string(webkit_network_error_quark()))
            && gerror.code == Int(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
    }
}
