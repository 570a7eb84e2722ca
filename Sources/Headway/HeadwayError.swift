import CWebKit
import Foundation

/// The one error type Headway throws. `description` is a single line a person can act on.
///
/// ```swift
/// do { _ = try await page.load(url) } catch let error as HeadwayError where error.code == .timeout { … }
/// ```
public struct HeadwayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure this is; the CLI maps each code to an exit status. New codes may be
    /// added in later versions, so a `switch` over codes needs a `default`.
    public struct Code: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The code's name, as in the JSON (`"timeout"`).
        public var rawValue: String
        /// A code with this name; the static members are the ones Headway uses.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The code's name.
        public var description: String { rawValue }

        /// A value given to Headway is out of range or malformed (a URL, a number, a name).
        public static let invalidArgument = Code(rawValue: "invalidArgument")
        /// No X display could be opened or started (Xvfb missing or failing).
        public static let displayUnavailable = Code(rawValue: "displayUnavailable")
        /// WebKit itself failed: a web or network process crashed or was killed, or the engine
        /// could not start.
        public static let engine = Code(rawValue: "engine")
        /// The page could not be loaded (unreachable host, refused connection, a TLS failure).
        public static let loadFailed = Code(rawValue: "loadFailed")
        /// WebKit or Headway refused the URL (a blocked port, a redirect to `file:`).
        public static let blockedURL = Code(rawValue: "blockedURL")
        /// A load or a wait did not finish within its timeout.
        public static let timeout = Code(rawValue: "timeout")
        /// An HTTP error status where a caller asked for one to fail.
        public static let httpStatus = Code(rawValue: "httpStatus")
        /// JavaScript threw, or its value did not decode as the type asked for.
        public static let scriptError = Code(rawValue: "scriptError")
        /// JavaScript did not settle within its timeout.
        public static let scriptTimeout = Code(rawValue: "scriptTimeout")
        /// An input file (a snippet, a URL list) is missing, unreadable or not text.
        public static let fileUnreadable = Code(rawValue: "fileUnreadable")
        /// An output file (a screenshot) could not be written.
        public static let fileUnwritable = Code(rawValue: "fileUnwritable")
        /// `HTTPServer` could not listen (the port is in use or not permitted).
        public static let serverFailed = Code(rawValue: "serverFailed")
        /// The page or browser was closed before or during the call.
        public static let closed = Code(rawValue: "closed")
        /// The response is no page to show: 204 No Content, 205, 304 Not Modified, or a
        /// download (`Content-Disposition: attachment`, a type WebKit cannot display).
        public static let notAPage = Code(rawValue: "notAPage")
    }

    /// A GLib error's identity, when the failure came from GLib, WebKit or libsoup.
    public struct GErrorInfo: Sendable, Equatable, Codable {
        /// The GError's domain, e.g. `WebKitNetworkError` or `g-io-error-quark`.
        public var domain: String
        /// The GError's code within its domain.
        public var code: Int
        /// The GError's message, as GLib or WebKit wrote it.
        public var message: String
    }

    /// What kind of failure this is; the CLI's exit status follows from it.
    public var code: Code
    /// A one-line message a person can act on.
    public var message: String
    /// The GError behind the failure, when GLib, libsoup or WebKit reported one.
    public var gerror: GErrorInfo?
    /// The HTTP status of the response the failure came with (`.notAPage`), if any.
    public var status: Int?

    /// An error with `code` and `message`, the GError behind it, and the HTTP status of the response
    /// involved, if any.
    public init(_ code: Code, _ message: String, gerror: GErrorInfo? = nil, status: Int? = nil) {
        self.code = code
        self.message = message
        self.gerror = gerror
        self.status = status
    }

    /// The message, followed by the GError's domain, code and message when there is one.
    public var description: String {
        guard let gerror else { return message }
        let origin = gerror.domain.isEmpty ? "code \(gerror.code)" : "\(gerror.domain) \(gerror.code)"
        return "\(message) (\(origin): \(gerror.message))"
    }
}

extension HeadwayError.GErrorInfo {
    // Copies a GError's domain, code and message. Does not free it.
    init(_ error: UnsafeMutablePointer<GError>) {
        domain = String(cString: g_quark_to_string(error.pointee.domain))
        code = Int(error.pointee.code)
        message = error.pointee.message.map { String(cString: $0) } ?? ""
    }
}

extension HeadwayError {
    // Wraps and frees a GError.
    static func consuming(_ error: UnsafeMutablePointer<GError>?, _ code: Code, _ message: String) -> HeadwayError {
        guard let error else { return HeadwayError(code, message) }
        defer { g_error_free(error) }
        return HeadwayError(code, message, gerror: GErrorInfo(error))
    }
}

extension HeadwayError {
    // WebKit's internal error (WebKitErrorDomain 300), which it gives the loads in flight when
    // its network process ends.
    static func isNetworkProcessLoss(_ info: GErrorInfo) -> Bool {
        info.domain == "WebKitErrorDomain" && info.code == 300
    }

    // The error for WebKit's load-failed. WebKit fails the loads in flight with its internal
    // error (WebKitErrorDomain 300) when its network process ends, crashed or killed: that is
    // an engine failure, not the site's.
    // `from` is the load's http(s) URL, for a redirect out of http(s).
    static func loadFailure(of url: URL?, from: URL? = nil, _ info: GErrorInfo?) -> HeadwayError {
        let what = url?.absoluteString ?? "the page"
        if let info, isNetworkProcessLoss(info) {
            return HeadwayError(
                .engine,
                "WebKit failed the load of \(what) internally, as it does when its network process "
                    + "ends (crashed or was killed); the next load starts a fresh one",
                gerror: info
            )
        }
        if url?.isFileURL == true, let from, ["http", "https"].contains(from.scheme?.lowercased() ?? ""), let info,
           info.domain == String(cString: g_quark_to_string(webkit_network_error_quark())),
           info.code == Int(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue) {
            // What WebKit reports for an http(s) redirect to a local file it refused to follow.
            return HeadwayError(.blockedURL, "\(from.absoluteString) redirected to \(what): "
                                + "Headway does not follow a web page's redirect out of http(s)", gerror: info)
        }
        return HeadwayError(.loadFailed, "could not load \(what): \(info?.message ?? "unknown error")", gerror: info)
    }

    // WebKit cancelled the load (a newer navigation replaced it, or it was stopped).
    var isCancellation: Bool {
        guard let gerror else { return false }
        return gerror.domain == String(cString: g_quark_to_string(webkit_network_error_quark()))
            && gerror.code == Int(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
    }
}

extension HeadwayError: Encodable {
    private enum CodingKeys: String, CodingKey { case code, message, gerror, status }

    /// `code` and `message`, then `gerror` and `status` where there is one.
    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(code, forKey: .code)
        try c.encode(message, forKey: .message)
        try c.encodeIfPresent(gerror, forKey: .gerror)
        try c.encodeIfPresent(status, forKey: .status)
    }
}
