import Foundation
import Headway
import HeadwayTestSupport

// A client of Headway, run by CLITests/ClientProcessTests in a fresh process each time: Headway
// starts its Xvfb once per process. Prints "ok" and exits 0, or prints what went wrong and exits 1.
//   ClientProbe children     runs its own child processes (Foundation's Process) while a Browser
//                            starts without DISPLAY; every waitUntilExit must return
//   ClientProbe descriptors  opens a pipe without close-on-exec, starts a Browser, and checks
//                            that Headway's Xvfb holds no descriptor of its client
//   ClientProbe start-cancel cancels a withPage while Headway's Xvfb starts; the call must end
//                            before the display is up, and the next browser must still work
//   ClientProbe environment  keeps a reader's view of the environment across a browser's start:
//                            Headway's new variables must not free the array the reader holds

func fail(_ message: String) -> Never {
    print(message)
    exit(1)
}

// Runs /bin/true and waits for it, off this thread, for at most `seconds`.
func runChild(within seconds: Double) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    do { try process.run() } catch { return "could not start /bin/true: \(error)" }
    let exited = DispatchSemaphore(value: 0)
    Thread {
        process.waitUntilExit()
        exited.signal()
    }.start()
    guard exited.wait(timeout: .now() + seconds) == .success else {
        return "waitUntilExit of /bin/true (pid \(process.processIdentifier)) did not return within \(seconds) s"
    }
    return nil
}

func children() async {
    let started = Atomic()
    let done = DispatchGroup()
    let problems = Problems()
    // Two threads, so that one is usually between creating and closing a child's descriptors
    // when Headway forks its Xvfb.
    for _ in 0..<2 {
        done.enter()
        Thread {
            defer { done.leave() }
            var after = 0
            while after < 20 {
                if let problem = runChild(within: 10) {
                    problems.add(problem)
                    return
                }
                if started.isSet { after += 1 }
            }
        }.start()
    }
    do {
        _ = try await Browser.withBrowser { _ in () }
    } catch {
        fail("the browser did not start: \(error)")
    }
    started.set()
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        done.notify(queue: .global()) { continuation.resume() }
    }
    if let problem = problems.first { fail(problem) }
}

func descriptors() async {
    var ends: [Int32] = [0, 0]
    guard pipe(&ends) == 0 else { fail("pipe: \(errno)") }
    var status = stat()
    guard fstat(ends[1], &status) == 0 else { fail("fstat: \(errno)") }
    let pipeLink = "pipe:[\(status.st_ino)]"
    do {
        _ = try await Browser.withBrowser { _ in () }
    } catch {
        fail("the browser did not start: \(error)")
    }
    let xvfb = descendants(of: getpid()).filter { $0.value == "Xvfb" }.map(\.key)
    guard xvfb.count == 1, let pid = xvfb.first else { fail("not one Xvfb below the client: \(xvfb)") }
    let links = openDescriptors(of: pid)
    if let held = links.first(where: { $0.value == pipeLink }) {
        fail("Xvfb holds the client's pipe as descriptor \(held.key): \(links.sorted { $0.key < $1.key })")
    }
    for fd: Int32 in 0...2 where links[fd] != "/dev/null" {
        fail("Xvfb's descriptor \(fd) is \(links[fd] ?? "closed"), not /dev/null")
    }
}

func startCancel() async {
    let clock = ContinuousClock()
    let started = Task { @EngineActor in try await Browser.withPage { page in try await page.evaluate("1") } }
    // Headway sets DISPLAY, empty, as it begins starting its own Xvfb, and to ":N" once it is up.
    let begun = clock.now + .seconds(20)
    while getenv("DISPLAY") == nil, clock.now < begun { try? await Task.sleep(for: .milliseconds(1)) }
    guard getenv("DISPLAY") != nil else { fail("Headway did not begin starting its Xvfb within 20 s") }
    let start = clock.now
    started.cancel()
    let result = await started.result
    let elapsed = clock.now - start
    let display = getenv("DISPLAY").map { String(cString: $0) } ?? "(unset)"
    guard case .failure(let error) = result else { fail("the browser started instead of being cancelled") }
    guard error is CancellationError else { fail("threw \(error) instead of CancellationError") }
    // What the fix changed: the cancelled call no longer waits for the display to come up.
    guard display.isEmpty else { fail("the cancelled call waited until Xvfb was up (DISPLAY \(display), \(elapsed))") }
    // The display the cancelled call left starting serves the next browser.
    let next = try? await Browser.withPage { page in try await page.evaluate("1 + 1") }
    guard next == .number(2) else { fail("the next browser did not work: \(String(describing: next))") }
}

func environment() async {
    // As a client thread might be in the middle of reading it. The variable set first makes
    // glibc's own array (a realloc'd one) the one held, as in a process that has used setenv.
    setenv("HEADWAY_PROBE", "1", 1)
    guard let held = environ as UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? else { fail("no environ") }
    var count = 0
    while held[count] != nil { count += 1 }
    let before = (0..<count).map { held[$0] }
    let texts = before.map { String(cString: $0!) }
    do {
        _ = try await Browser.withBrowser { _ in () }
    } catch {
        fail("the browser did not start: \(error)")
    }
    guard getenv("DISPLAY").map({ String(cString: $0) })?.hasPrefix(":") == true else {
        fail("DISPLAY is not Headway's Xvfb after the start")
    }
    for index in 0..<count where held[index] != before[index] || String(cString: held[index]!) != texts[index] {
        fail("entry \(index) of the environment array held before the start changed: it was freed")
    }
}

final class Atomic: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

final class Problems: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    var first: String? { lock.withLock { list.first } }
    func add(_ problem: String) { lock.withLock { list.append(problem) } }
}

switch CommandLine.arguments.dropFirst().first {
case "children": await children()
case "descriptors": await descriptors()
case "start-cancel": await startCancel()
case "environment": await environment()
default: fail("usage: ClientProbe children|descriptors|start-cancel|environment")
}
print("ok")
