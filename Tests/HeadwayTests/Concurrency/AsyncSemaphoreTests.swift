import Foundation
import Headway
import Synchronization
import Testing

// The one queue of the library and the WebDriver server: order, cancellation, closing, idleness.
// No WebKit; every wait below ends at once when the semaphore is right, and is bounded when not.
@Suite("AsyncSemaphore")
struct AsyncSemaphoreTests {
    struct Closed: Error {}

    final class Order: Sendable {
        let values = Mutex<[Int]>([])
    }

    // Waits (bounded) until `semaphore` has `count` waiters.
    static func untilWaiting(_ semaphore: AsyncSemaphore, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while semaphore.waiting < count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(semaphore.waiting == count)
    }

    @Test func permitsGoFirstComeFirstServed() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        try await semaphore.wait()
        #expect(!semaphore.tryWait())
        let order = Order()
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<5 {
            tasks.append(Task {
                try await semaphore.wait()
                order.values.withLock { $0.append(index) }
                semaphore.signal()
            })
            try await Self.untilWaiting(semaphore, index + 1)
        }
        semaphore.signal()
        for task in tasks { try await task.value }
        #expect(order.values.withLock { $0 } == [0, 1, 2, 3, 4])
        #expect(!semaphore.isBusy)
    }

    @Test func aCancelledWaiterLeavesTheQueueAtOnce() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        try await semaphore.wait()
        let cancelled = Task { try await semaphore.wait() }
        let next = Task { try await semaphore.wait() }
        try await Self.untilWaiting(semaphore, 2)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(semaphore.waiting == 1)
        // The permit goes past the cancelled waiter to the next.
        semaphore.signal()
        try await next.value
        // A task cancelled before it waits never takes a permit.
        semaphore.signal()
        let late = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await semaphore.wait()
        }
        await #expect(throws: CancellationError.self) { try await late.value }
        #expect(semaphore.tryWait())
    }

    @Test func closingFailsTheWaitersAndLaterWaitsButKeepsTheHolders() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        try await semaphore.wait()
        let waiter = Task { try await semaphore.wait() }
        try await Self.untilWaiting(semaphore, 1)
        semaphore.close(throwing: Closed())
        await #expect(throws: Closed.self) { try await waiter.value }
        await #expect(throws: Closed.self) { try await semaphore.wait() }
        #expect(semaphore.isBusy)
        semaphore.signal()
        #expect(!semaphore.isBusy)
        #expect(!semaphore.tryWait())
    }

    @Test func waitingUntilIdleEndsWhenTheHolderSignalsOrTheLimitPasses() async throws {
        let semaphore = AsyncSemaphore(permits: 1)
        #expect(await semaphore.waitUntilIdle(within: .seconds(20)))
        try await semaphore.wait()
        #expect(await semaphore.waitUntilIdle(within: .milliseconds(50)) == false)
        let idle = Task { await semaphore.waitUntilIdle(within: .seconds(20)) }
        try await Task.sleep(for: .milliseconds(20))
        semaphore.signal()
        #expect(await idle.value)
        // Cancelled, it returns at once.
        try await semaphore.wait()
        let cancelled = Task { await semaphore.waitUntilIdle(within: .seconds(60)) }
        cancelled.cancel()
        #expect(await cancelled.value == false)
    }

    @Test func aZeroSemaphoreCountsSignalsHandedOver() async throws {
        let semaphore = AsyncSemaphore(permits: 0)
        #expect(!semaphore.tryWait())
        let waiter = Task { try await semaphore.wait() }
        try await Self.untilWaiting(semaphore, 1)
        semaphore.signal()
        try await waiter.value
        semaphore.signal()
        #expect(semaphore.tryWait())
        #expect(!semaphore.tryWait())
    }
}
