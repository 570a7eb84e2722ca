import Foundation
@testable import HeadwayCLI
import Testing

/// `LineReader`: lines from a pipe, whatever ends them, with long lines cut and read errors reported.
@Suite("LineReader")
struct LineReaderTests {
    /// A line as text, for comparing: "text:…", "long:…" or "errno:N".
    static func describe(_ line: LineReader.Line) -> String {
        switch line {
        case .text(let text): "text:" + text
        case .tooLong(let prefix): "long:" + prefix
        case .unreadable(let code): "errno:\(code)"
        }
    }

    /// Every line a reader gives for `bytes` written to a pipe (by another thread, so that input
    /// larger than the pipe's buffer is no problem), then closed.
    static func lines(_ bytes: [UInt8], capacity: Int = 16) async -> [String] {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { Issue.record("no pipe"); return [] }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let writer = Thread {
            var offset = 0
            while offset < bytes.count {
                let written = bytes[offset...].withUnsafeBytes { write(writeEnd, $0.baseAddress, $0.count) }
                if written <= 0 { break }
                offset += written
            }
            close(writeEnd)
        }
        writer.start()
        let reader = LineReader(fd: readEnd, capacity: capacity)
        var lines: [String] = []
        while let line = await reader.next() { lines.append(describe(line)) }
        return lines
    }

    static func lines(_ text: String, capacity: Int = 16) async -> [String] {
        await lines(Array(text.utf8), capacity: capacity)
    }

    @Test func linesEndedByLFOrCRLFOrTheEnd() async {
        #expect(await Self.lines("a\nb\n") == ["text:a", "text:b"])
        #expect(await Self.lines("a\r\nb\r\n") == ["text:a", "text:b"])
        #expect(await Self.lines("a\nb") == ["text:a", "text:b"])
        #expect(await Self.lines("a\r\nb\r") == ["text:a", "text:b"])
        // Only the one CR before the LF is the line's end; a CR alone ends nothing.
        #expect(await Self.lines("a\r\r\nb\rc\n") == ["text:a\r", "text:b\rc"])
    }

    @Test func emptyInputAndEmptyLines() async {
        #expect(await Self.lines("") == [])
        #expect(await Self.lines("\n") == ["text:"])
        #expect(await Self.lines("\n\r\n\n") == ["text:", "text:", "text:"])
    }

    @Test func unicodeAndBytesThatAreNotUTF8() async {
        #expect(await Self.lines("http://é.example/✓\n𝄞\n") == ["text:http://é.example/✓", "text:𝄞"])
        #expect(await Self.lines([0x61, 0xFF, 0x62, 0x0A, 0xE2, 0x9C]) == ["text:a\u{FFFD}b", "text:\u{FFFD}"])
        #expect(await Self.lines([0x61, 0x00, 0x62, 0x0A]) == ["text:a\u{0}b"])
    }

    @Test func aLineLongerThanOneMiBIsCutToItsStartAndTheNextLineIsRead() async {
        let long = String(repeating: "x", count: 2 * LineReader.longestLine)
        let lines = await Self.lines(long + "\nnext\n" + long)
        #expect(lines == ["long:" + String(repeating: "x", count: 200), "text:next",
                          "long:" + String(repeating: "x", count: 200)])
    }

    @Test func aLineOfExactlyOneMiBIsKept() async {
        let line = String(repeating: "y", count: LineReader.longestLine)
        #expect(await Self.lines(line + "\n") == ["text:" + line])
    }

    @Test func manyLinesThroughASmallBufferArriveInOrder() async {
        let count = 20_000
        let text = (0..<count).map { "http://127.0.0.1/\($0)" }.joined(separator: "\n")
        let lines = await Self.lines(text, capacity: 2)
        #expect(lines.count == count)
        #expect(lines == (0..<count).map { "text:http://127.0.0.1/\($0)" })
    }

    @Test func aReadErrorEndsTheInputAsALine() async {
        // read(2) on a directory fails with EISDIR.
        let fd = open(FileManager.default.temporaryDirectory.path, O_RDONLY | O_CLOEXEC)
        #expect(fd >= 0)
        let reader = LineReader(fd: fd)
        var lines: [String] = []
        while let line = await reader.next() { lines.append(Self.describe(line)) }
        #expect(lines == ["errno:\(EISDIR)"])
    }
}
