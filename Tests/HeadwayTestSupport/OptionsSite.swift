import Foundation

/// A site for the page options, served by nginx: a page that reports what it sees, a stylesheet,
/// a script to block, a late element, a password-protected folder, and a self-signed certificate.
public enum OptionsSite {
    /// The page's inline script records whether an init script ran before it, and the page adds
    /// `#late` 700 ms after its load event and fetches `/data.json` 300 ms after it.
    public static let page = """
        <!doctype html><html><head><title>options</title><link rel="stylesheet" href="/style.css">
        <script src="/analytics.js"></script></head><body><h1>Options</h1><a href="/next.html">next</a>
        <script>
        window.seen = { initRanFirst: window.initRan === true, analytics: window.analyticsRan === true };
        addEventListener('load', () => {
          setTimeout(() => { const p = document.createElement('p'); p.id = 'late'; document.body.append(p); }, 700);
          setTimeout(() => fetch('/data.json').then(r => r.json()).then(d => { window.fetched = d.ok; }), 300);
        });
        </script></body></html>
        """

    /// Writes the site into a fresh directory and returns it. `secret/` holds a page nginx guards
    /// with Basic authentication for user `ada`, password `lovelace` (see `nginxExtra`).
    public static func make() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("headway-options-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("secret"),
            withIntermediateDirectories: true
        )
        try page.write(to: root.appendingPathComponent("index.html"), atomically: true, encoding: .utf8)
        try "<!doctype html><title>next</title><p>next".write(
            to: root.appendingPathComponent("next.html"),
            atomically: true,
            encoding: .utf8
        )
        try "body { color: #123; }".write(
            to: root.appendingPathComponent("style.css"),
            atomically: true,
            encoding: .utf8
        )
        try "window.analyticsRan = true;".write(
            to: root.appendingPathComponent("analytics.js"),
            atomically: true,
            encoding: .utf8
        )
        try #"{"ok": true}"#.write(to: root.appendingPathComponent("data.json"), atomically: true, encoding: .utf8)
        try "<!doctype html><title>secret</title><p>in".write(
            to: root.appendingPathComponent("secret/index.html"),
            atomically: true,
            encoding: .utf8
        )
        try "ada:{PLAIN}lovelace\n".write(
            to: root.appendingPathComponent("htpasswd"),
            atomically: true,
            encoding: .utf8
        )
        return root
    }

    /// The nginx directives that guard `secret/` for a site made in `root`.
    public static func nginxExtra(root: URL) -> String {
        #"location /secret/ { auth_basic "headway"; auth_basic_user_file "\#(root.path)/htpasswd"; }"#
    }

    /// A self-signed certificate and its key for 127.0.0.1, made with openssl in `directory`.
    public static func selfSigned(in directory: URL) throws -> (certificate: URL, key: URL) {
        let certificate = directory.appendingPathComponent("cert.pem")
        let key = directory.appendingPathComponent("key.pem")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.arguments = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-keyout", key.path, "-out", certificate.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw CocoaError(
                .fileWriteUnknown,
                userInfo: [NSLocalizedDescriptionKey: "openssl could not make a certificate"]
            )
        }
        return (certificate, key)
    }
}
