import Foundation
import Headway
import HeadwayWebDriver
import Testing

// A page for the element tests, and a session that has loaded it.
@EngineActor
struct ElementPage {
    static let html = """
        <!doctype html><title>Elements</title>
        <style>#gone { display: none } #ghost { visibility: hidden } #clear { opacity: 0 }
        #clip { overflow: hidden; width: 50px; height: 50px; position: relative }
        #out { position: absolute; left: 200px; top: 0; width: 20px; height: 20px }
        body { margin: 0 } #box { position: absolute; left: 30px; top: 1000px; width: 40px; height: 10px }
        </style>
        <main id=main>
          <h1 id=title>Hello <em>world</em></h1>
          <p class=para id=p1>First <a id=l1 href="/one">Link  One</a></p>
          <p class=para id=p2>Second <a id=l2 href="/two">Another link</a></p>
          <form><label for=name>Your name</label> <input id=name value=Ann>
            <input type=checkbox id=box1 checked> <input type=checkbox id=box2>
            <select id=sel><option id=o1>One</option><option id=o2 selected>Two</option></select>
            <fieldset disabled><input id=infield></fieldset> <button id=btn>Send it</button>
            <input type=hidden id=hid> <input type=submit id=sub>
          </form>
          <img id=pic alt="A cat" src="data:,"> <nav id=nav aria-label="Site">x</nav>
          <div id=gone>gone</div> <div id=ghost>ghost</div> <div id=clear>clear</div>
          <div id=clip><span id=out>out</span><span id=in>in</span></div>
          <div id=box></div> <div id=host></div> <div id=closed></div>
          <span id=lab1>Labelled</span> <span id=lab2>twice</span>
          <div role=button id=custom aria-labelledby="lab1 lab2">ignored</div>
          <details id=det><summary id=sum>More</summary><p id=detp>inside</p></details>
        </main>
        <script>
          const root = document.getElementById('host').attachShadow({ mode: 'open' });
          root.innerHTML = '<p class=para id=sp>in shadow <a href="/s">Shadow link</a></p>';
          document.getElementById('closed').attachShadow({ mode: 'closed' }).innerHTML = '<p>x</p>';
        </script>
        """

    let server: HTTPServer
    let driver: WebDriverDriver
    let session: String

    init() async throws {
        server = try HTTPServer()
        server.route("/page.html", .html(Self.html))
        server.route("/other.html", .html("<p id=other>other</p>"))
        driver = WebDriverDriver()
        session = try await driver.newSession()
        try await load("page.html")
    }

    func load(_ path: String) async throws {
        let url = server.url.appendingPathComponent(path).absoluteString
        _ = try await driver.send(.navigateTo, session, ["url": .string(url)])
    }

    func stop() {
        driver.service.shutdown()
        server.stop()
    }

    func send(_ command: Command, _ body: [String: JSONValue] = [:], _ parameters: [String: String] = [:])
        async throws -> JSONValue {
        try await driver.send(command, session, body, parameters: parameters)
    }

    func find(_ using: String, _ value: String) async throws -> JSONValue {
        try await send(.findElement, ["using": .string(using), "value": .string(value)])
    }

    func findAll(_ using: String, _ value: String, from: Command = .findElements, _ parameters: [String: String] = [:])
        async throws -> [JSONValue] {
        let found = try await send(from, ["using": .string(using), "value": .string(value)], parameters)
        guard case .array(let elements) = found else { return [] }
        return elements
    }

    func byID(_ id: String) async throws -> String {
        try #require(try await find("css selector", "#\(id)")[Self.elementKey]?.stringValue)
    }

    // Runs an element command on the element with HTML id `id`.
    func on(_ command: Command, _ id: String, _ more: [String: String] = [:]) async throws -> JSONValue {
        try await send(command, [:], more.merging(["elementId": try await byID(id)]) { a, _ in a })
    }

    // The id attribute of an element reference.
    func idOf(_ element: JSONValue) async throws -> JSONValue {
        try await send(.executeScript, ["script": "return arguments[0].id", "args": [element]])
    }

    static let elementKey = "element-6066-11e4-a52e-4f735466cecf"
    static let shadowKey = "shadow-6066-11e4-a52e-4f735466cecf"
}

// Expects `body` to fail with the WebDriver error `expected`.
@EngineActor
func expectError<T>(_ expected: ErrorCode, sourceLocation: SourceLocation = #_sourceLocation,
                    _ body: () async throws -> T) async {
    do {
        let value = try await body()
        Issue.record("expected \(expected.rawValue), got \(value)", sourceLocation: sourceLocation)
    } catch {
        #expect((error as? WebDriverError)?.code == expected, "\(error)", sourceLocation: sourceLocation)
    }
}
