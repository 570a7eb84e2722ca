import Foundation
import HeadwayTestSupport
import Testing

/// The tests' one polling helper: bounded, cancellable, and saying what it waited for.
@Suite("waitFor")
struct WaitForTests {
    @Test func itReturnsTheFirstValueThatIsAccepted() async throws {
        var polls = 0
        let value = try await waitFor("the third poll", every: .milliseconds(1), {
            polls += 1
            return polls
        }, until: { $0 == 3 })
        #expect(value == 3)
    }

    @Test func itGivesUpNamingWhatItAwaitedAndTheLastValue() async throws {
        let error = await #expect(throws: WaitTimeout.self) {
            try await waitFor("a count of 5", within: .milliseconds(50), every: .milliseconds(10),
                              { 4 }, until: { $0 == 5 })
        }
        #expect(error?.description.hasPrefix("gave up waiting for a count of 5 after ") == true)
        #expect(error?.description.hasSuffix("last observed: 4") == true, "\(String(describing: error))")
    }

    @Test func aCancelledWaitEndsAtOnce() async throws {
        let wait = Task { try await waitFor("something that never holds", within: .seconds(600)) { false } }
        wait.cancel()
        await #expect(throws: CancellationError.self) { try await wait.value }
    }

    @Test func theBlockingTwinIsBoundedToo() throws {
        #expect(throws: WaitTimeout.self) {
            try waitForBlocking("never", within: .milliseconds(30), every: .milliseconds(10), { false }, until: { $0 })
        }
        #expect(try waitForBlocking("at once", { 1 }, until: { $0 == 1 }) == 1)
    }
}
