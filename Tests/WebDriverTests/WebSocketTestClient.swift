import Foundation

// WebSocket frames over `HTTPTestClient`'s raw socket (RFC 6455), so that tests can send what no
// library would: unmasked frames, broken UTF-8, oversized messages.
extension HTTPTestClient {
    struct Frame {
        var opcode: UInt8
        var payload: [UInt8]
        var text: String { String(decoding: payload, as: UTF8.self) }
        // A close frame's status code.
        var closeCode: Int? { opcode == 8 && payload.count >= 2 ? Int(payload[0]) << 8 | Int(payload[1]) : nil }
    }

    // Sends the opening handshake for `path`; returns the response's status.
    func upgrade(_ path: String, headers: [String] = []) -> Int? {
        request("GET", path, headers: ["Upgrade: websocket", "Connection: Upgrade",
                                       "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "Sec-WebSocket-Version: 13"]
                + headers)
        return response()?.status
    }

    // One frame, masked as a client's must be unless `masked` is false.
    func sendFrame(opcode: UInt8, _ payload: [UInt8], fin: Bool = true, masked: Bool = true) {
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        let mask: UInt8 = masked ? 0x80 : 0
        switch payload.count {
        case ..<126: bytes.append(mask | UInt8(payload.count))
        case ..<65_536: bytes += [mask | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default: bytes += [mask | 127] + (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        if masked {
            let key: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            bytes += key
            bytes += payload.enumerated().map { $1 ^ key[$0 % 4] }
        } else {
            bytes += payload
        }
        send(Data(bytes))
    }

    func sendText(_ text: String) { sendFrame(opcode: 1, Array(text.utf8)) }

    // The next frame from the server (which never masks), or nil when it closed first.
    func frame() -> Frame? {
        guard let head = read(2) else { return nil }
        var length = Int(head[1] & 0x7F)
        if length == 126 {
            guard let more = read(2) else { return nil }
            length = Int(more[0]) << 8 | Int(more[1])
        } else if length == 127 {
            guard let more = read(8) else { return nil }
            length = more.reduce(0) { $0 << 8 | Int($1) }
        }
        guard let payload = read(length) else { return nil }
        return Frame(opcode: head[0] & 0x0F, payload: payload)
    }

    // The next frame of `opcode`, skipping any other.
    func frame(opcode: UInt8) -> Frame? {
        while let next = frame() {
            if next.opcode == opcode { return next }
        }
        return nil
    }

    private func read(_ count: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        while bytes.count < count {
            var chunk = [UInt8](repeating: 0, count: count - bytes.count)
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - bytes.count, 0) }
            guard got > 0 else { return nil }
            bytes += chunk[0..<got]
        }
        return bytes
    }
}
