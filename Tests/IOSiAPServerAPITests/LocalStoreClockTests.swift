import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPSignedData
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The store's clock in a process that only serves (`iosiap-store serve`: the Server API, the notification sender and
/// `LocalStore.startClock`), no game and no control: subscriptions renew, go into billing retry and end on time at the
/// store's time rate, and are notified. Each waits for what must happen, within a bound; nothing here moves the
/// clock but the clock.
@Suite struct LocalStoreClockTests {
    let base: ServerAPITests
    var store: LocalStore { base.store }
    static let gold = ServerAPITests.gold

    init() throws {
        base = try ServerAPITests()
    }

    /// Buys `productID` with a receiver set for the notifications, then serves as `iosiap-store serve` does; `body`
    /// runs meanwhile.
    func serving(_ productID: String, _ body: (Receiver, StoreTransaction) async throws -> Void) async throws {
        let receiver = try Receiver()
        defer { receiver.server.stop() }
        try store.setNotificationURL(receiver.url)
        let bought = try store.buyProduct(productID)
        try store.startNotificationSender(retryDelays: [], timeout: 2, interval: .milliseconds(20))
        defer { store.stopNotificationSender() }
        let clock = store.startClock(interval: .milliseconds(50))
        // Stopped with `await`: its wait for a tick under way must not block a thread of the concurrency pool.
        do {
            try await body(receiver, bought)
        } catch {
            await clock.stop()
            throw error
        }
        await clock.stop()
    }

    /// The subscription's entry in Get All Subscription Statuses: its status and its newest transaction.
    func latestStatus() throws -> (status: Int, transaction: SignedTransactionPayload)? {
        let response = try base.json(try base.get("/inApps/v1/subscriptions/1"))
        let groups = response["data"] as? [[String: Any]] ?? []
        guard let last = (groups.first?["lastTransactions"] as? [[String: Any]])?.first, let status = last["status"] as? Int,
              let signed = last["signedTransactionInfo"] as? String else { return nil }
        return (status, try store.makeVerifier().verifyTransaction(signed))
    }

    /// Polls `condition` every 20 ms for at most `seconds`; whether it came true.
    func eventually(seconds: Double = 15, _ condition: () throws -> Bool) async throws -> Bool {
        for _ in 0..<Int(seconds * 50) {
            if try condition() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try condition()
    }

    /// A subscription bought and left alone renews at its time: DID_RENEW is sent, and Get All Subscription Statuses
    /// shows it active with its renewal (without the clock it stayed expired and nothing was sent).
    @Test func aSubscriptionLeftAloneRenewsOnTime() async throws {
        try store.setTimeRate(.oneRenewalEveryTwoSeconds)
        try await serving(Self.gold) { receiver, bought in
            #expect(try await eventually { receiver.types.contains("DID_RENEW/") }, "\(receiver.types)")
            #expect(receiver.types.first == "SUBSCRIBED/INITIAL_BUY")
            let renewed = try await eventually {
                guard let latest = try latestStatus() else { return false }
                return latest.status == 1 && latest.transaction.transactionId != String(bought.id)
                    && latest.transaction.originalTransactionId == String(bought.id) && latest.transaction.transactionReason == "RENEWAL"
            }
            let latest = try latestStatus()
            #expect(renewed, "\(String(describing: latest))")
        }
    }

    /// With billing issues on, the renewal's payment fails at its time: billing retry within the grace period
    /// (DID_FAIL_TO_RENEW, GRACE_PERIOD), then, the retry period over, EXPIRED (BILLING_RETRY), and the status expired.
    @Test func aFailedRenewalRetriesAndEndsOnTime() async throws {
        try store.setTimeRate(.oneRenewalEveryTwoSeconds)
        try store.setBillingIssuesEnabled(true)
        try store.setBillingGracePeriodEnabled(true)
        try await serving(Self.gold) { receiver, _ in
            #expect(try await eventually { receiver.types.contains("EXPIRED/BILLING_RETRY") }, "\(receiver.types)")
            let types = receiver.types
            #expect(types.first == "SUBSCRIBED/INITIAL_BUY")
            let failed = try #require(types.firstIndex(of: "DID_FAIL_TO_RENEW/GRACE_PERIOD"), "\(types)")
            #expect(failed < (types.firstIndex(of: "EXPIRED/BILLING_RETRY") ?? 0))
            #expect(!types.contains("DID_RENEW/"))
            #expect(try await eventually { try latestStatus()?.status == 2 })
        }
    }
}
