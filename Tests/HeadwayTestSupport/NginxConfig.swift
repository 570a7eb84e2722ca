import Foundation

extension NginxServer {
    /// How the server answers, beyond serving files from its root.
    public struct Options: Sendable {
        /// `Cache-Control: max-age` (and `Expires`) on every response, in seconds; nil sends neither.
        public var maxAge: Int?
        /// nginx `limit_rate` for each response, e.g. `"625k"` for about 5 Mbit/s; nil for no limit.
        /// nginx sends the first second's worth of a response at once, so only larger bodies slow down.
        public var limitRate: String?
        /// Directives and `location` blocks added inside the `server` block, e.g.
        /// `location /ua/ { add_header Vary User-Agent; }`.
        public var extra: String
        /// Serve https with this certificate and key (PEM files), instead of http.
        public var tls: (certificate: URL, key: URL)?

        public init(
            maxAge: Int? = 300,
            limitRate: String? = nil,
            extra: String = "",
            tls: (certificate: URL, key: URL)? = nil
        ) {
            self.maxAge = maxAge
            self.limitRate = limitRate
            self.extra = extra
            self.tls = tls
        }
    }

    // A private configuration: one process in the foreground, everything it writes inside
    // `directory`, and the settings a production site has (gzip with `Vary`, ETags,
    // `Cache-Control`). With `master_process off` there are no workers, so there is no `user`
    // switch even as root, and stopping one process stops the server.
    static func config(directory: URL, root: URL, port: Int, options: Options) -> String {
        let dir = directory.path
        let certificates = options.tls.map {
            "ssl_certificate \($0.certificate.path); ssl_certificate_key \($0.key.path);"
        } ?? ""
        return """
            daemon off;
            master_process off;
            pid \(dir)/nginx.pid;
            error_log \(dir)/error.log notice;
            events { worker_connections 256; }
            http {
                include /etc/nginx/mime.types;
                default_type application/octet-stream;
                client_body_temp_path \(dir)/temp/body;
                proxy_temp_path \(dir)/temp/proxy;
                fastcgi_temp_path \(dir)/temp/fastcgi;
                uwsgi_temp_path \(dir)/temp/uwsgi;
                scgi_temp_path \(dir)/temp/scgi;
                \(NginxRequest.logFormat)
                access_log \(dir)/access.log headway;
                sendfile on;
                tcp_nopush on;
                gzip on;
                gzip_vary on;
                gzip_min_length 20;
                gzip_types text/css application/javascript text/javascript image/svg+xml application/json text/plain;
                etag on;
                server {
                    listen 127.0.0.1:\(port)\(options.tls == nil ? "" : " ssl");
                    \(certificates)
                    root "\(root.path)";
                    \(options.maxAge.map { "expires \($0)s;" } ?? "")
                    \(options.limitRate.map { "limit_rate \($0);" } ?? "")
                    \(options.extra)
                }
            }
            """
    }
}
