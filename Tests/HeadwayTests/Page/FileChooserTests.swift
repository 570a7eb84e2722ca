import Foundation
import Headway
import HeadwayTestSupport
import Testing

@Suite("File pickers", .serialized)
@EngineActor
struct FileChooserTests {
    // A trusted click on a file input: no GTK dialog, the delegate told, the page sees a cancel.
    @Test func aFilePickerIsCancelledAndReported() async throws {
        let server = try Fixtures.server()
        defer { server.stop() }
        server.route("/file.html", .html("""
            <!doctype html><title>File</title>
            <input id=f type=file multiple accept="image/png"
              style="position:absolute;left:0;top:0;width:200px;height:40px">
            <script>f.addEventListener('cancel', () => { document.title = 'cancelled'; });</script>
            """))
        let log = ChooserLog()
        try await Browser.withPage(delegate: log) { page in
            try await page.load(server.url.appendingPathComponent("file.html"))
            try await page.click(selector: "#f")
            try await waitFor("the picker's cancel") { page.title == "cancelled" }
        }
        #expect(log.choosers.count == 1)
        #expect(log.choosers.first?.allowsMultiple == true)
        #expect(log.choosers.first?.mimeTypes == ["image/png"])
    }
}

final class ChooserLog: NavigationDelegate {
    var choosers: [FileChooser] = []
    func page(_ page: Page, didOpenFileChooser chooser: FileChooser) { choosers.append(chooser) }
}
