import Foundation
import Headway
import HeadwayWebDriver
import Testing

// Get Element Text follows the visible-text rules of Selenium's getVisibleText (the spec's choice).
@Suite("WebDriver element text", .serialized)
@EngineActor
struct ElementTextTests {
    static let html = """
        <!doctype html><title>Text</title>
        <p id=nbsp>a&nbsp;&nbsp;b&nbsp;</p>
        <table><tr id=row><td>one</td><td>two</td><th>three</th></tr></table>
        <table id=table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>
        <pre id=pre>  two spaces
        \ttab</pre>
        <div id=prewrap style="white-space: pre-wrap">a   b</div>
        <div id=preline style="white-space: pre-line">a   b \n  c</div>
        <div id=nowrap style="white-space: nowrap">a
        b   c</div>
        <p id=upper style="text-transform: uppercase">hello World</p>
        <p id=cap style="text-transform: capitalize">hello wORLD o'neil snake_case foo-bar <b>x</b>y</p>
        <p id=lower style="text-transform: lowercase">HeLLo</p>
        <div id=blocks>one<div>two</div>three<p>four</p><span>five</span> six</div>
        <div id=inlines><span style="display: inline-flex">i1</span> <span style="display: inline-block">i2</span></div>
        <div id=breaks>a<br>b<br><br>c</div>
        <div id=mixed>vis <span style="visibility: hidden">hidden</span> <span style="display: none">none</span>
          <span style="opacity: 0">clear</span> end</div>
        <div id=hidden style="visibility: hidden">outer <span style="visibility: visible">inner</span></div>
        <div id=zero>a&#8203;b&#8206;c</div>
        <div id=host></div>
        <div id=slots><span slot=s>slotted</span></div>
        <div id=unslotted><span slot=nowhere>lost</span></div>
        <a id=link href="#">Next&nbsp;<b>page</b></a>
        <details id=details><summary>Summary</summary>Body</details>
        <script>
          document.getElementById('host').attachShadow({ mode: 'open' }).innerHTML =
            '<p>shadow para</p><span>in</span>';
          document.getElementById('slots').attachShadow({ mode: 'open' }).innerHTML =
            'before <slot name=s></slot> after <slot>fallback</slot>';
          document.getElementById('unslotted').attachShadow({ mode: 'open' }).innerHTML = 'only <slot name=s></slot>';
        </script>
        """

    func page() async throws -> ElementPage {
        let page = try await ElementPage()
        page.server.route("/text.html", .html(Self.html))
        try await page.load("text.html")
        return page
    }

    @Test func spacesBreaksAndTransforms() async throws {
        let page = try await page()
        defer { page.stop() }
        let expected: [(String, String)] = [
            ("nbsp", "a  b "), ("row", "one two three"), ("table", "a b\nc d"), ("pre", "  two spaces\n tab"),
            ("prewrap", "a   b"), ("preline", "a b \n c"), ("nowrap", "a b c"), ("upper", "HELLO WORLD"),
            ("cap", "Hello WORLD O'neil Snake_case Foo-Bar Xy"), ("lower", "hello"),
            ("blocks", "one\ntwo\nthree\nfour\nfive six"), ("inlines", "i1 i2"), ("breaks", "a\nb\n\nc"),
            ("zero", "abc"),
        ]
        for (id, text) in expected {
            #expect(try await page.on(.getElementText, id) == .string(text), "\(id)")
        }
    }

    @Test func onlyWhatIsShownCounts() async throws {
        let page = try await page()
        defer { page.stop() }
        let expected: [(String, String)] = [
            ("mixed", "vis end"), ("hidden", "inner"), ("host", "shadow para\nin"),
            ("slots", "before slotted after fallback"), ("unslotted", "only"), ("details", "Summary"),
        ]
        for (id, text) in expected {
            #expect(try await page.on(.getElementText, id) == .string(text), "\(id)")
        }
    }

    @Test func linkTextIsTheVisibleText() async throws {
        let page = try await page()
        defer { page.stop() }
        #expect(try await page.idOf(page.find("link text", "Next page")) == "link")
        #expect(try await page.idOf(page.find("partial link text", "t p")) == "link")
    }
}
