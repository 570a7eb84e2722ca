import Foundation

/// What `waitFor` throws when the awaited condition did not hold in time: what was awaited,
/// the bound, and the value seen last.
public struct WaitTimeout: Error, CustomStringConvertible {
    public var description: String

    init(_ what: String, within timeout: Duration, last: Any) {
        description = "gave up waiting for \(what) after \(timeout); last observed: \(last)"
    }
}

/// Observes a value every `interval` until `done` accepts it and returns that value; throws
/// `WaitTimeout` (naming `what` and the last value) after `timeout`, and `CancellationError`
/// when the task is cancelled. `observe` runs on the caller's actor.
///
///     try await waitFor("the prefetch of a3", { server.requestCount(path: "/a3.html") }, until: { $0 > 0 })
@discardableResult
public func waitFor<T>(_ what: String, within timeout: Duration = .seconds(30),
                       every interval: Duration = .milliseconds(20),
                       isolation: isolated (any Actor)? = #isolation,
                       _ observe: () async throws -> T, until done: (T) throws -> Bool) async throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        let value = try await observe()
        if try done(value) { return value }
        guard clock.now < deadline else { throw WaitTimeout(what, within: timeout, last: value) }
        try await Task.sleep(for: interval)
    }
}

/// Waits until `condition` holds, checking every `interval`; throws `WaitTimeout` naming
/// `what` after `timeout`, and `CancellationError` when the task is cancelled.
public func waitFor(_ what: String, within timeout: Duration = .seconds(30),
                    every interval: Duration = .milliseconds(20),
                    isolation: isolated (any Actor)? = #isolation,
                    _ condition: () async throws -> Bool) async throws {
    try await waitFor(what, within: timeout, every: interval, isolation: isolation, condition, until: { $0 })
}

/// `waitFor` for code that cannot suspend (a fixture's `init` or `stop`, a `defer`): the same
/// bounded poll, blocking the calling thread.
@discardableResult
public func waitForBlocking<T>(_ what: String, within timeout: Duration = .seconds(30),
                               every interval: Duration = .milliseconds(20),
                               _ observe: () throws -> T, until done: (T) throws -> Bool) throws -> T {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    while true {
        let value = try observe()
        if try done(value) { return value }
        guard clock.now < deadline else { throw WaitTimeout(what, within: timeout, last: value) }
        Thread.sleep(forTimeInterval: interval / .seconds(1))
    }
}

/// Waits for `process` to exit; throws `WaitTimeout` after `timeout` (the process runs on).
public func waitForExit(of process: Process, within timeout: Duration = .seconds(30),
                        isolation: isolated (any Actor)? = #isolation) async throws {
    try await waitFor("\(process.executableURL?.lastPathComponent ?? "the process") (pid \(process.processIdentifier)) "
                      + "to exit", within: timeout, every: .milliseconds(20), isolation: isolation,
                      { process.isRunning ? "running" : "exited" }, until: { $0 == "exited" })
}
