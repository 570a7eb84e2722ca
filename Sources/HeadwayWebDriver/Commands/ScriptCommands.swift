import Headway

// Execute Script, Execute Async Script and Get Page Source.
extension Handlers {
    static let scripts: [Command: Handler] = [
        .executeScript: { session, request in
            try await session.runUserScript(try request.string("script"), try request.array("args"), async: false)
        },
        .executeAsyncScript: { session, request in
            try await session.runUserScript(try request.string("script"), try request.array("args"), async: true)
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
