import Headway

// Execute Script, Execute Async Script and Get Page Source.
extension Handlers {
    static let scripts: [Command: Handler] = [
        .executeScript: { session, request in
            try await session.runFollowing(try request.string("script"), try request.array("args"), async: false)
        },
        .executeAsyncScript: { session, request in
            try await session.runFollowing(try request.string("script"), try request.array("args"), async: true)
        },
        .getPageSource: { session, _ in
            try await session.callAtom("""
                function() {
                  const d = this.document;
                  const doctype = d.doctype ? new XMLSerializer().serializeToString(d.doctype) : '';
                  return doctype + (d.documentElement ? d.documentElement.outerHTML : '');
                }
                """)
        },
    ]
}

extension Session {
    // A user's script, then the navigation it started, if it started one (Selenium's
    // element.submit() calls form.submit() in a script): the next command sees the new page, as
    // with every reference driver.
    fileprivate func runFollowing(_ script: String, _ arguments: [JSONValue], async: Bool) async throws -> JSONValue {
        let page = try currentPage()
        var value: JSONValue?
        do {
            try await followingNavigation(on: page, afterItsOwnTask: true) {
                value = try await runUserScript(script, arguments, async: async, nextTask: true)
            }
        } catch where value != nil && page.isClosed {
            // The script closed its window (window.close()), which went before it answered.
        }
        return value ?? .null
    }
}
