import Foundation
import Headway

extension Session {
    // Types `text` as Element Send Keys does (https://www.w3.org/TR/webdriver2/#dispatch-actions-for-a-string):
    // a modifier key stays held until it comes again, U+E000 (NULL) or the end of the text; a
    // shifted character is typed with Shift, every other character is pressed and released. The
    // spec's text only presses a modifier again; WebKitWebDriver, chromedriver and geckodriver
    // release it (a toggle), which Selenium's `send_keys(Keys.SHIFT, "ab", Keys.SHIFT, "c")` relies on.
    func type(_ text: String, page: Page) async throws {
        var held: [String] = []
        func releaseHeld() async throws {
            for key in held.reversed() { try await page.keyUp(key) }
            held.removeAll()
        }
        for character in text {
            if character == WebDriverKeys.null {
                try await releaseHeld()
                continue
            }
            let key = try WebDriverKeys.name(character)
            if WebDriverKeys.modifiers.contains(key) {
                if let index = held.firstIndex(of: key) {
                    try await page.keyUp(key)
                    held.remove(at: index)
                } else {
                    try await page.keyDown(key)
                    held.append(key)
                }
                continue
            }
            let shiftHeld = held.contains("Shift") || page.pressedModifiers.contains(.shift)
            let addShift = WebDriverKeys.shifted.contains(character) && !shiftHeld
            let sent = Self.shifted(key, shiftHeld)
            if addShift { try await page.keyDown("Shift") }
            try await page.keyDown(sent)
            try await page.keyUp(sent)
            if addShift { try await page.keyUp("Shift") }
        }
        try await releaseHeld()
    }

    // The most a file input's files may hold together: the HTTP body limit.
    nonisolated static let maxFileBytes = 64 << 20

    // A file input's new files: one local path a line, each a regular file, together at most
    // `maxFileBytes`, read whole off the engine thread.
    static func files(_ text: String, multiple: Bool) async throws -> [JSONValue] {
        let paths = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard !paths.isEmpty else { throw WebDriverError(.invalidArgument, "no file path given for the file input") }
        guard multiple || paths.count == 1 else {
            throw WebDriverError(.invalidArgument, "the file input takes one file, not \(paths.count): add `multiple`")
        }
        return try await Task.detached { try readFiles(paths) }.value
    }

    private nonisolated static func readFiles(_ paths: [String]) throws -> [JSONValue] {
        var left = maxFileBytes
        return try paths.map { path in
            let attributes = try? FileManager.default.attributesOfItem(atPath: path)
            guard let attributes, attributes[.type] as? FileAttributeType == .typeRegular,
                  let handle = FileHandle(forReadingAtPath: path) else {
                throw WebDriverError(.invalidArgument, "cannot read the file \(path): not a readable regular file")
            }
            defer { try? handle.close() }
            let tooLarge = WebDriverError(.invalidArgument, "the file \(path) is too large: the files for one input "
                                          + "may hold \(maxFileBytes >> 20) MiB together")
            if let size = attributes[.size] as? Int, size > left { throw tooLarge }
            let data = (try? handle.read(upToCount: left + 1)) ?? Data()
            guard data.count <= left else { throw tooLarge }
            left -= data.count
            return ["name": .string((path as NSString).lastPathComponent), "type": .string(MediaTypes.of(path)),
                    "data": .string(data.base64EncodedString())]
        }
    }
}
