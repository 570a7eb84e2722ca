import CWebKit
import Foundation

extension Page {
    /// Lets `handler` answer the credentials servers and proxies ask this page's loads for (nil:
    /// Headway's default again, `AuthAnswer.default`). A challenge waits for the answer at most
    /// `Limits.heldRequest`; one the page's load gave up meanwhile is not answered.
    ///
    /// Throws `.closed` once the page closed.
    public func setAuthenticationHandler(_ handler: AuthenticationHandler?) throws {
        guard !isClosed else { throw HeadwayError(.closed, "the page is closed") }
        authenticationHandler = handler
    }

    // Answers WebKit's challenge `request` (retained for the while): with the handler's
    // answer when one is set, else at once with the default. A page closed meanwhile leaves it
    // unanswered: WebKit cancels a challenge dropped unanswered.
    func authenticate(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) {
        guard let handler = authenticationHandler else { return answer(request, .default) }
        let challenge = AuthChallenge(
            url: challengedURL(request),
            scheme: Self.schemeName(webkit_authentication_request_get_scheme(request)),
            realm: webkit_authentication_request_get_realm(request).map { String(cString: $0) } ?? "",
            isProxy: webkit_authentication_request_is_for_proxy(request) != 0,
            isRetry: webkit_authentication_request_is_retry(request) != 0
        )
        let held = GObjectRef(retaining: request)
        var answered = false
        var asking: Task<Void, Never>?
        // The handler has `Limits.heldRequest` to answer; then its task is cancelled.
        let timer = tasks.start { [weak self] () -> Void in
            guard (try? await Task.sleep(for: Limits.heldRequest)) != nil, !answered, let self, !self.isClosed else {
                return
            }
            answered = true
            asking?.cancel()
            self.answer(held.pointer, .default)
        }
        asking = tasks.start { [weak self] () -> Void in
            guard let self else { return }
            let answer = await handler(self, challenge)
            guard !answered, !Task.isCancelled, !self.isClosed else { return }
            answered = true
            timer?.cancel()
            self.answer(held.pointer, answer)
        }
        guard asking != nil else { return answer(request, .withoutCredentials) }
        // WebKit gave the challenge up (its load stopped or was replaced): the handler's task is
        // cancelled, and nothing answers it.
        let watch = ChallengeWatch {
            answered = true
            timer?.cancel()
            asking?.cancel()
        }
        // Released with the request, which the tasks hold until they end.
        SignalConnections(UnsafeMutableRawPointer(request)).connect(
            "cancelled", unsafeBitCast(onChallengeCancelled as ChallengeCancelled, to: GCallback.self), box: watch
        )
    }

    private func answer(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>, _ answer: AuthAnswer) {
        switch answer {
        case .credentials(let user, let password):
            let credential = webkit_credential_new(user, password, WEBKIT_CREDENTIAL_PERSISTENCE_FOR_SESSION)
            webkit_authentication_request_authenticate(request, credential)
            webkit_credential_free(credential)
        case .default:
            if let credentials = browser?.configuration.credentials,
               webkit_authentication_request_is_retry(request) == 0 {
                self.answer(request, .credentials(user: credentials.user, password: credentials.password))
            } else {
                webkit_authentication_request_authenticate(request, nil)
            }
        case .withoutCredentials:
            webkit_authentication_request_authenticate(request, nil)
        case .cancel:
            webkit_authentication_request_cancel(request)
        }
    }

    // The challenged URL: WebKit names only its origin. The page's document or navigation on that
    // origin is the likeliest request; else the origin alone (never another origin's URL).
    private func challengedURL(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>) -> URL {
        var origin: URL?
        if let security = webkit_authentication_request_get_security_origin(request) {
            defer { webkit_security_origin_unref(security) }
            let scheme = webkit_security_origin_get_protocol(security).map { String(cString: $0) } ?? "http"
            let host = webkit_security_origin_get_host(security).map { String(cString: $0) } ?? ""
            let port = webkit_security_origin_get_port(security)
            let shown = host.contains(":") ? "[\(host)]" : host
            origin = URL(string: "\(scheme)://\(shown)" + (port == 0 ? "" : ":\(port)") + "/")
        }
        let candidates = [tracker.current?.finalURL, tracker.current?.requested, url].compactMap { $0 }
            .map(MirrorScheme.real)
        let sameOrigin = candidates.first { candidate in
            guard let origin else { return false }
            return SchemeHandler.origin(of: candidate) == SchemeHandler.origin(of: origin)
        }
        return sameOrigin ?? origin ?? URL(string: "about:blank")!
    }

    private static func schemeName(_ scheme: WebKitAuthenticationScheme) -> String {
        switch scheme {
        case WEBKIT_AUTHENTICATION_SCHEME_HTTP_BASIC: "Basic"
        case WEBKIT_AUTHENTICATION_SCHEME_HTTP_DIGEST: "Digest"
        case WEBKIT_AUTHENTICATION_SCHEME_NTLM: "NTLM"
        case WEBKIT_AUTHENTICATION_SCHEME_NEGOTIATE: "Negotiate"
        case WEBKIT_AUTHENTICATION_SCHEME_HTML_FORM: "Form"
        case WEBKIT_AUTHENTICATION_SCHEME_CLIENT_CERTIFICATE_REQUESTED: "ClientCertificate"
        case WEBKIT_AUTHENTICATION_SCHEME_SERVER_TRUST_EVALUATION_REQUESTED: "ServerTrust"
        default: "Unknown"
        }
    }
}

// What a held challenge does when WebKit cancels it.
@EngineActor
private final class ChallengeWatch {
    let cancel: () -> Void
    init(_ cancel: @escaping () -> Void) { self.cancel = cancel }
}

private typealias ChallengeCancelled =
    @convention(c) (UnsafeMutablePointer<WebKitAuthenticationRequest>?, gpointer?) -> Void

private func onChallengeCancelled(_ request: UnsafeMutablePointer<WebKitAuthenticationRequest>?, _ data: gpointer?) {
    let watch = unbox(data, as: ChallengeWatch.self)
    EngineActor.assumeIsolated { watch.cancel() }
}
