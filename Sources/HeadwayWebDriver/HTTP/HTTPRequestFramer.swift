import Foundation
import Headway
import NIOCore
import NIOHTTP1

// Cuts a connection's bytes into requests, as NIOHTTP1's request parts: a head (read by
// `HTTPRequestHead.parse`, at most `maxHeaderBytes` with its blank line), its Content-Length body
// as it arrives, then the end. What the HTTP layer refuses before any command (a malformed or
// oversized head, a foreign Host or an Origin, a body too large or of no length) is thrown as an
// `HTTPFailure`, and the connection's later bytes are not decoded. Taken out of the pipeline (an
// upgrade), it hands on the bytes it holds.
struct HTTPRequestFramer: ByteToMessageDecoder {
    typealias InboundOut = HTTPServerRequestPart

    // A user event, fired when the first byte of a request's head arrives (empty lines before a
    // request line do not count): the connection is no longer idle.
    struct HeadBegan: Sendable {}

    let limits: HTTPLimits
    let check: HostCheck
    // Body bytes still to come; 0 while a head is awaited.
    private var bodyLeft = 0
    // How far the search for the head's end got (a head arriving in pieces is scanned once).
    private var scanned = 0
    private var began = false

    init(limits: HTTPLimits, check: HostCheck) {
        self.limits = limits
        self.check = check
    }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        if bodyLeft > 0 {
            guard buffer.readableBytes > 0, let chunk = buffer.readSlice(length: min(bodyLeft, buffer.readableBytes))
            else { return .needMoreData }
            bodyLeft -= chunk.readableBytes
            context.fireChannelRead(wrapInboundOut(.body(chunk)))
            if bodyLeft == 0 { context.fireChannelRead(wrapInboundOut(.end(nil))) }
            return .continue
        }
        // Empty lines before a request line are skipped (RFC 9112 2.2).
        let blanks = buffer.readableBytesView.prefix { $0 == 13 || $0 == 10 }.count
        if blanks > 0 {
            buffer.moveReaderIndex(forwardBy: blanks)
            scanned = 0
        }
        guard buffer.readableBytes > 0 else { return .needMoreData }
        if !began {
            began = true
            context.fireUserInboundEventTriggered(HeadBegan())
        }
        guard let (headEnd, bodyStart) = Self.endOfHead(in: buffer.readableBytesView, from: scanned) else {
            guard buffer.readableBytes <= limits.maxHeaderBytes else { throw tooLong }
            scanned = max(0, buffer.readableBytes - 3)
            return .needMoreData
        }
        guard bodyStart <= limits.maxHeaderBytes else { throw tooLong }
        let head = try HTTPRequestHead.parse(ArraySlice(buffer.readableBytesView.prefix(headEnd)))
        buffer.moveReaderIndex(forwardBy: bodyStart)
        if let failure = check.refusal(for: head) { throw failure }
        let length = try head.contentLength()
        guard length <= limits.maxBodyBytes else {
            throw HTTPFailure(413, "the body has \(length) bytes, more than the \(limits.maxBodyBytes) bytes "
                + "this server accepts")
        }
        if let expect = head.header("Expect"), expect.lowercased() != "100-continue" {
            throw HTTPFailure(417, "only \"Expect: 100-continue\" is understood")
        }
        scanned = 0
        began = false
        bodyLeft = length
        context.fireChannelRead(wrapInboundOut(.head(Self.nioHead(head))))
        if length == 0 { context.fireChannelRead(wrapInboundOut(.end(nil))) }
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer,
                             seenEOF: Bool) throws -> DecodingState {
        // Removed from the pipeline rather than closed: what follows is another protocol's.
        if !seenEOF, buffer.readableBytes > 0, let rest = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(NIOAny(rest))
        }
        return .needMoreData
    }

    private var tooLong: HTTPFailure {
        HTTPFailure(431, "the request line and headers are longer than \(limits.maxHeaderBytes) bytes")
    }

    // Where the head ends (its blank line: CRLF CRLF, or bare LFs) and the body begins, as offsets
    // into `bytes`, which hold no empty lines before the request line.
    static func endOfHead<Bytes: Collection<UInt8>>(in bytes: Bytes, from start: Int) -> (Int, Int)?
    where Bytes.Index == Int {
        let base = bytes.startIndex
        var index = base + start
        while index < bytes.endIndex {
            if bytes[index] == 10 {
                let next = index + 1
                if next < bytes.endIndex, bytes[next] == 10 { return (index - base, next + 1 - base) }
                if next + 1 < bytes.endIndex, bytes[next] == 13, bytes[next + 1] == 10 {
                    return (index - base, next + 2 - base)
                }
            }
            index += 1
        }
        return nil
    }

    // NIOHTTP1's form of the head, for the handlers after this one (an upgrader among them).
    private static func nioHead(_ head: HTTPRequestHead) -> NIOHTTP1.HTTPRequestHead {
        NIOHTTP1.HTTPRequestHead(
            version: head.version == "HTTP/1.0" ? .http1_0 : .http1_1,
            method: HTTPMethod(rawValue: head.method),
            uri: head.target,
            headers: HTTPHeaders(head.headers.map { ($0.name, $0.value) })
        )
    }
}
