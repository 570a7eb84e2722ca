public import Foundation

extension Browser {
    /// How a browser is set up: the pages' viewport, identity, network settings and scripts, and
    /// the optional prefetch booster.
    public struct Configuration: Sendable {
        /// Keep cookies, caches and storage in memory only.
        public var ephemeral = true
        /// The view's width in CSS pixels; screenshots of the full page are taller.
        public var viewportWidth = 1280
        /// The view's height in CSS pixels.
        public var viewportHeight = 1024
        /// Device pixels per CSS pixel (`window.devicePixelRatio`), 1 to 4; screenshots are that
        /// many times larger. It is GTK's window scale, which GTK reads once per process from
        /// `GDK_SCALE` (Headway sets it), so every browser of a process must ask for the same
        /// value; a different one throws `.invalidArgument`.
        public var deviceScaleFactor = 1
        /// The `User-Agent` every request sends and `navigator.userAgent` shows; nil keeps
        /// WebKit's own.
        public var userAgent: String?
        /// Headers added to every request the pages make (documents, subresources, `fetch`), and
        /// to the booster's own requests; a header of the same name is replaced.
        public var extraHeaders: [(name: String, value: String)] = []
        /// Cookies set before the first load, and again after `clearWebsiteData`.
        public var cookies: [Cookie] = []
        /// The language pages are asked in: `Accept-Language` and `navigator.language`
        /// (for example "fr-FR"); nil asks for "en-US". JavaScript's `Intl` follows the process
        /// locale (`LANG`) instead, which WebKitGTK does not let a web view change.
        public var locale: String?
        /// Accept any TLS certificate (self-signed, expired, wrong host). Off by default: such a
        /// certificate fails the load with `.loadFailed` and WebKit's TLS error.
        public var ignoreTLSErrors = false
        /// The user name and password given to servers that ask for HTTP authentication (Basic or
        /// Digest), once per challenge; nil lets the server's 401 page load.
        public var credentials: Credentials?
        /// A proxy for every request of the pages and of the booster (`http://host:port`,
        /// `socks5://host:port`); nil connects directly.
        public var proxy: URL?
        /// Requests whose URL matches one of these globs (`*` any run of characters, `?` one
        /// character, the whole URL must match) never reach the network; each load counts them
        /// in `ResourceSummary.blocked`. For example `*/analytics.js`, `*://*.doubleclick.net/*`.
        public var blockedURLPatterns: [String] = []
        /// Record every request of each load, with its headers and Resource Timing phases, in
        /// `LoadResult.resourceEntries` (for `HARLog`). Off by default: it costs memory.
        public var recordsResources = false
        /// Sees every request the pages are about to send (after `blockedURLPatterns`) and may
        /// block it. It runs on a thread of Headway's own, once per request, while the request
        /// waits: keep it quick. A request whose answer takes over 5 s goes on.
        public var requestFilter: (@Sendable (FilteredRequest) -> RequestDecision)?
        /// Lets pages hold their requests for an interceptor (`Page.setRequestInterceptor(_:)`).
        /// Each request then costs one round trip to this process (tens of microseconds) while
        /// no page intercepts, and waits for the interceptor while one does.
        public var allowsRequestInterception = false
        /// JavaScript run in every frame at document start, before any of the page's own
        /// scripts, in order. An uncaught exception in one is a `PageError` with its message and
        /// line, named by the script's last `//# sourceURL=NAME` comment, else `init-script-N.js`
        /// (N counts from 1, then on through `Page.addInitScript`). On a page whose
        /// Content-Security-Policy forbids inline scripts, WebKit masks it as "Script error.".
        public var initScripts: [String] = []
        /// Emulates a network for every request of the pages, whatever the server: each waits
        /// out the latency before it is sent and its body arrives no faster than the bandwidth
        /// (as decoded, per request). The pages are then browsed through Headway's scheme
        /// handler, as with the booster; answers from the prefetch cache are not slowed.
        public var networkConditions: NetworkConditions?
        /// Serves WebKit's remote inspector over HTTP on 127.0.0.1 at this port, so a person can
        /// open `http://127.0.0.1:PORT` in a browser and inspect the pages (the frontend works
        /// best in a WebKit-based browser: Epiphany, MiniBrowser, Safari). WebKit reads it once
        /// per process, so the process's first browser must set it and later ones can only ask
        /// for the same port (`.invalidArgument`); a port already taken throws `.serverFailed`.
        public var inspectorPort: Int?
        /// Turns on the prefetch booster: pages are browsed through Headway's mirror schemes and
        /// served from a prefetch cache that each finished load fills with what it links to.
        public var booster: BoosterConfiguration?
        /// Lets a `file:` document reach other `file:` documents (a frame's DOM, an
        /// `XMLHttpRequest` of a local file), as if they shared an origin; by default WebKit gives
        /// each local file an origin of its own. The WebDriver server turns it on, so that a test
        /// on local files can enter their frames.
        public var allowsFileAccessFromFileURLs = false
        /// How pages answer JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`),
        /// which never block; each page can change its own `dialogPolicy`.
        public var dialogs: DialogPolicy = .dismiss
        /// Kills a page's web process once its resident memory passes this many megabytes
        /// (read every 100 ms, even while the page spins in JavaScript or parses a document that
        /// never ends); its pending load fails with `.engine` and the next load starts a fresh
        /// process. 1 to 1,048,576 (1 TB); it needs the web-process extension (`.engine` at start
        /// without it). nil: `Browser.defaultWebProcessMemoryLimit` where the extension is there,
        /// else WebKit's default, which never kills.
        public var webProcessMemoryLimit: Int?
        /// Whether pages are drawn through WebKit's accelerated compositing, in layers, as a
        /// desktop browser draws them (the default; here Mesa does the GL in software). `false`
        /// draws each page in one software pass instead (WebKit's hardware acceleration policy
        /// "never", as `WEBKIT_DISABLE_COMPOSITING_MODE=1` would for a whole process), which costs a
        /// load noticeably less CPU: for batch jobs that read pages rather than look at them. What
        /// changes for pages (docs/performance.md): 3D transforms are drawn flat, and
        /// `matchMedia('(-webkit-transform-3d)')` says so; text, layout, images, 2D canvas, WebGL
        /// contexts, scripts and screenshots are as before.
        public var acceleratedCompositing = true

        /// The default configuration: ephemeral, 1280×1024, WebKit's User-Agent, no booster.
        public init() {}
    }

    /// A user name and password for HTTP authentication.
    public struct Credentials: Sendable, Equatable {
        /// The user name.
        public var user: String
        /// The password.
        public var password: String

        /// Credentials for `user` with `password`.
        public init(user: String, password: String) {
            self.user = user
            self.password = password
        }
    }
}

extension Browser {
    // Checks a configuration before anything starts; throws `.invalidArgument` with a one-line
    // message naming the setting.
    nonisolated package static func validate(_ configuration: Configuration) throws(HeadwayError) {
        func refuse(_ message: String) -> HeadwayError { HeadwayError(.invalidArgument, message) }
        for (name, side) in [("width", configuration.viewportWidth), ("height", configuration.viewportHeight)] {
            guard Limits.viewportSide.contains(side) else {
                let most = Limits.viewportSide.upperBound
                throw refuse("the viewport \(name) must be 1 to \(most) CSS pixels, not \(side)")
            }
        }
        guard (1...4).contains(configuration.deviceScaleFactor) else {
            throw refuse("the device scale factor must be 1, 2, 3 or 4, not \(configuration.deviceScaleFactor)")
        }
        if let agent = configuration.userAgent, agent.isEmpty || agent.unicodeScalars.contains(where: isControl) {
            throw refuse("the User-Agent must be one non-empty line")
        }
        for (name, value) in configuration.extraHeaders {
            guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else {
                throw refuse("not a header name: \(name.debugDescription)")
            }
            guard !value.unicodeScalars.contains(where: { $0 != "\t" && isControl($0) }) else {
                throw refuse("the value of header \(name) has a control character")
            }
        }
        if let locale = configuration.locale, !BrowserHeaders.isLocale(locale) {
            throw refuse("not a language tag: \(locale.debugDescription) (for example fr, fr-FR or pt_BR)")
        }
        if let proxy = configuration.proxy {
            guard ["http", "https", "socks", "socks4", "socks4a", "socks5"].contains(proxy.scheme?.lowercased() ?? ""),
                  proxy.host?.isEmpty == false else {
                throw refuse("the proxy must be an http, https or socks URL with a host: \(proxy.absoluteString)")
            }
        }
        if let credentials = configuration.credentials, credentials.user.isEmpty || credentials.user.contains(":") {
            throw refuse("the user name for authentication must be non-empty and have no colon")
        }
        if let credentials = configuration.credentials,
           (credentials.user + credentials.password).unicodeScalars.contains(where: isControl) {
            throw refuse("the credentials for authentication have a control character (a line break, a NUL)")
        }
        if configuration.blockedURLPatterns.contains(where: \.isEmpty) {
            throw refuse("a blocked URL pattern is empty")
        }
        if let port = configuration.inspectorPort, !(1...65535).contains(port) {
            throw refuse("the inspector port must be 1 to 65535, not \(port)")
        }
        if let booster = configuration.booster,
           !(1...BoosterConfiguration.mostConcurrent).contains(booster.concurrency) {
            throw refuse("the booster's concurrency must be 1 to \(BoosterConfiguration.mostConcurrent) requests, "
                         + "not \(booster.concurrency)")
        }
        if let booster = configuration.booster,
           !Limits.prerenderedPages.contains(booster.prerender) {
            throw refuse(
                "the booster can prerender 0 to \(Limits.prerenderedPages.upperBound) pages, not \(booster.prerender)"
            )
        }
        if let conditions = configuration.networkConditions {
            if let rate = conditions.bytesPerSecond, !(rate > 0 && rate <= NetworkConditions.maximumBytesPerSecond) {
                throw refuse("the emulated bandwidth must be above 0 and at most 100 Gbit/s, not \(rate) bytes/s")
            }
            guard conditions.latency >= .zero, conditions.latency <= TimeLimit.longest else {
                throw refuse(
                    "the emulated latency must be 0 to \(TimeLimit.longest.formatted), not \(conditions.latency)"
                )
            }
        }
        for cookie in configuration.cookies {
            guard !cookie.name.isEmpty, !cookie.domain.isEmpty else {
                throw refuse("a cookie needs a name and a domain")
            }
            for (part, text) in [
                ("name", cookie.name), ("value", cookie.value), ("domain", cookie.domain), ("path", cookie.path),
            ]
            where text.unicodeScalars.contains(where: isControl) {
                throw refuse(
                    "the \(part) of cookie \(cookie.name.debugDescription) has a control character "
                        + "(a line break, a NUL)"
                )
            }
            // A ';' would end the cookie in a Cookie header and start another one.
            if cookie.name.contains(";") || cookie.name.contains("=") || cookie.value.contains(";") {
                throw refuse("cookie \(cookie.name.debugDescription) has a ';' (or a '=' in its name)")
            }
        }
        if let limit = configuration.webProcessMemoryLimit, !Limits.webProcessMemory.contains(limit) {
            let most = Limits.webProcessMemory.upperBound
            throw refuse("the web process memory limit must be 1 to \(most) MB, not \(limit)")
        }
        if let booster = configuration.booster, booster.cacheDirectory != nil {
            guard booster.cacheDirectory?.isFileURL == true else {
                throw refuse("the cache directory must be a file URL")
            }
            guard booster.cacheDirectoryBytes > 0 else { throw refuse("the disk cache size must be more than 0 bytes") }
        }
    }

    /// The web-process memory limit of a browser whose configuration sets none, in MB: a page
    /// rarely needs a quarter of it, and a runaway one (an endless document, an allocation loop)
    /// stops there instead of taking the machine's memory.
    public nonisolated static let defaultWebProcessMemoryLimit = 4096


    // A C0 control character or DEL: line breaks and NULs would split or cut a header.
    nonisolated private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || scalar.value == 0x7F
    }

    // A byte of an HTTP token (RFC 9110): letters, digits and ``!#$%&'*+-.^_`|~``.
    nonisolated static func isTokenByte(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
}
