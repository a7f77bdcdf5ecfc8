import CIOSiAP
import Foundation
import IOSiAPCore
import IOSiAPExports

/// Row 8: the game's poll while purchases flow through the grant ledger. The ledger's commits (each with a
/// disk sync) run where events are queued, on the store's worker; `iosiap_poll` only delivers `granted`.
enum LedgerBenchmarks {
    /// What the granted-counting callback counts (on the polling thread; the others only read it).
    nonisolated(unsafe) static var granted = 0

    static let grantedCallback: iosiap_event_callback = { event, _ in
        if event?.pointee.kind == CInt(IOSIAP_EVENT_GRANTED.rawValue) { LedgerBenchmarks.granted += 1 }
    }

    /// The store's handle, handed to the polling thread.
    struct Handle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    struct Result {
        /// The polling thread's id (its Linux thread id), to find its system calls under strace.
        var pollingThread: String
        /// Every poll made while the purchases flowed, in seconds.
        var polls: [Double]
        /// Every grant's commit, as timed around the enqueue on the queuing thread, in seconds.
        var commits: [Double]

        var slowestPoll: Double { polls.max() ?? 0 }
        var slowestCommit: Double { commits.max() ?? 0 }
        func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
    }

    /// Queues `count` purchases of a registered consumable from a thread of its own, standing in for the
    /// worker (each is granted and finished in one commit as it is queued), while a polling thread that does
    /// nothing else polls like a game loop (`iosiap_poll`, then 200 µs of other work) and times every poll,
    /// until all `count` arrived as `granted`. Then checks the balance.
    static func pollWhileGranting(_ count: Int, catalog: URL) throws -> Result {
        let (handle, folder) = try DeliveryBenchmarks.openStore(catalog: catalog, callback: grantedCallback)
        defer {
            iosiap_store_close(handle)
            try? FileManager.default.removeItem(at: folder)
        }
        let product = "com.iosiap.example.coins_100"
        guard iosiap_ledger_register_currency(handle, product, "coins", 100) == 0 else {
            throw StoreError(.systemError, "cannot register the grant")
        }
        let store = try HandleRegistry.handle(handle).store
        Thread.sleep(forTimeInterval: 0.3)  // let the launch work finish first
        while iosiap_poll(handle, 0) > 0 {}  // the first poll: from now on every event is settled as it is queued
        granted = 0
        let commits = Locked<[Double]>([])
        let producer = Thread {
            var times: [Double] = []
            times.reserveCapacity(count)
            for index in 0..<count {
                let transaction = DeliveryBenchmarks.sampleTransaction(UInt64(1_000_000 + index))
                times.append(time { store.enqueue(.purchased(requestID: nil, transaction: transaction)) })
            }
            commits.withLock { $0 = times }
        }
        let polled = Locked<(thread: String, polls: [Double])?>(nil)
        let done = DispatchSemaphore(value: 0)
        let pollingHandle = Handle(pointer: handle)
        let poller = Thread {
            // "/proc/thread-self" links to "<pid>/task/<tid>".
            let thread = ((try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "?")
                .split(separator: "/").last.map(String.init) ?? "?"
            var polls: [Double] = []
            polls.reserveCapacity(count * 4)
            let deadline = ContinuousClock.now + .seconds(600)
            while granted < count && ContinuousClock.now < deadline {
                polls.append(time { _ = iosiap_poll(pollingHandle.pointer, 0) })
                usleep(200)
            }
            polled.withLock { $0 = (thread, polls) }
            done.signal()
        }
        producer.start()
        poller.start()
        done.wait()
        let (pollingThread, polls) = polled.withLock { $0 } ?? ("?", [])
        var balance: Int64 = 0
        guard granted == count, iosiap_ledger_balance(&balance, handle, "coins") == 0, balance == Int64(count) * 100 else {
            throw StoreError(.systemError, "expected \(count) grants and \(count * 100) coins, got \(granted) and \(balance)")
        }
        while commits.withLock({ $0.isEmpty }) { usleep(1000) }  // the producer has just queued its last
        return Result(pollingThread: pollingThread, polls: polls, commits: commits.withLock { $0 })
    }
}
