import CWebKit
import Foundation

// One file of the disk cache: `HWCACHE1`, the metadata's length (4 bytes, big-endian), the
// metadata as JSON, then the body. A file that is cut short, does not parse, or whose body does
// not match its length and SHA-256 reads as nil. Cookies are never written: the format has no
// place for them, and `Set-Cookie` headers are dropped once more on the way in.
struct DiskCacheEntry: Codable {
    // The URL the entry is stored under (a redirect's start, or the response's own URL).
    var key: String
    // The response's own URL.
    var url: String
    var status: Int
    var headers: [[String]]
    var varyValues: [String: String]
    // When it was stored or last revalidated, in seconds since 1970 (a wall clock: monotonic
    // time restarts with each boot), and its lifetime in seconds.
    var storedAt: Double
    var lifetime: Double
    var bodyLength: Int
    var bodySHA256: String

    static let magic = Data("HWCACHE1".utf8)
    static let fileExtension = "hwc"

    init(_ response: CachedResponse, key: URL) {
        self.key = key.absoluteString
        url = response.url.absoluteString
        status = response.status
        headers = response.headers.filter { !["set-cookie", "set-cookie2"].contains($0.0.lowercased()) }.map {
            [$0.0, $0.1]
        }
        varyValues = response.varyValues
        // The entry's age so far, carried over from the monotonic clock onto the wall clock.
        storedAt = Date().timeIntervalSince1970 - response.storedAt.duration(to: Engine.now()).seconds
        lifetime = response.lifetime.seconds
        bodyLength = response.body.count
        bodySHA256 = Self.sha256(response.body)
    }

    // The file's bytes for `body`.
    func encoded(body: Data) throws -> Data {
        let metadata = try JSONEncoder().encode(self)
        var length = UInt32(metadata.count).bigEndian
        var data = Self.magic
        data.append(Data(bytes: &length, count: 4))
        data.append(metadata)
        data.append(body)
        return data
    }

    // Parses a whole file: its metadata and body, or nil when the file is not a complete entry.
    static func decode(_ data: Data) -> (DiskCacheEntry, Data)? {
        let prefix = magic.count + 4
        guard data.count >= prefix, data.prefix(magic.count) == magic else { return nil }
        let length = data.dropFirst(magic.count).prefix(4).reduce(0) { $0 << 8 | Int($1) }
        guard length > 0, data.count >= prefix + length,
            let entry = try? JSONDecoder().decode(DiskCacheEntry.self, from: data.subdata(in: prefix..<prefix + length))
        else { return nil }
        let body = data.subdata(in: prefix + length..<data.count)
        guard entry.isPlausible, body.count == entry.bodyLength, sha256(body) == entry.bodySHA256 else { return nil }
        return (entry, body)
    }

    // Whether the figures a file states can be served: an HTTP status (100 to 599), a body
    // length of 0 or more, finite times. Another process (or a person) may have written the file.
    var isPlausible: Bool {
        (100...599).contains(status) && bodyLength >= 0 && storedAt.isFinite && lifetime.isFinite
    }

    // The response in memory again, its age carried back onto the monotonic clock. A wall
    // clock that went back past the store time makes it stale.
    func response(body: Data) -> CachedResponse? {
        guard let url = URL(string: url), headers.allSatisfy({ $0.count == 2 }) else { return nil }
        // Numbers from a file: clamped (to a day at most, past the lifetime cap), never trapping.
        let lifetime = min(Duration(clampedMilliseconds: lifetime * 1000), CachePolicy.lifetimeCap)
        let age = (Date().timeIntervalSince1970 - storedAt) * 1000
        let storedAt = Engine.now() - (age < 0 ? lifetime : Duration(clampedMilliseconds: age))
        var response = CachedResponse(url: url, status: status, headers: headers.map { ($0[0], $0[1]) }, body: body,
                                      varyValues: varyValues,
                                      storedAt: storedAt, lifetime: lifetime)
        response.persisted = true
        return response
    }

    // The file name for `key` with `varyValues`: the key's SHA-256, a dash, and 16 hex digits of
    // the `Vary` values' SHA-256, so that a lookup finds every variant of a URL by prefix.
    static func fileName(key: URL, varyValues: [String: String]) -> String {
        let vary = varyValues.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: "\n")
        return "\(keyHash(key))-\(sha256(Data(vary.utf8)).prefix(16)).\(fileExtension)"
    }

    static func keyHash(_ key: URL) -> String { sha256(Data(key.absoluteString.utf8)) }

    static func sha256(_ data: Data) -> String {
        let text = data.withUnsafeBytes { raw in
            g_compute_checksum_for_data(
                G_CHECKSUM_SHA256,
                raw.bindMemory(to: guchar.self).baseAddress,
                gsize(raw.count)
            )
        }
        defer { g_free(text) }
        return text.map { String(cString: $0) } ?? ""
    }
}
