import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// Renewals whose payment fails: billing retry, the grace period that keeps the player subscribed, and the fix.
@Suite struct BillingRetryTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let group = "5E1A7C01"

    func open(grace: Bool) async throws -> (LocalStore, PurchaseStore, StoreTransaction) {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        try local.setBillingIssuesEnabled(true)
        try local.setBillingGracePeriodEnabled(grace)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.gold]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.gold))
        guard case .purchased(_, let first) = events.last else { throw EventTimeout(description: "\(events)") }
        try store.finish(transactionID: first.id)
        return (local, store, first)
    }

    @Test func withoutAGracePeriodAFailedRenewalEndsTheSubscription() async throws {
        let (local, store, first) = try await open(grace: false)
        clock.advance(by: 71)  // past the one-week trial
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = events.last else { Issue.record("\(events)"); return }
        #expect(ended.id == first.id)
        #expect(try !store.isEntitled(to: Self.gold))
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .inBillingRetryPeriod && status.transaction.id == first.id)
        #expect(try local.allTransactions().count == 1)  // nothing charged
        clock.advance(by: 600)
        #expect(try await store.pollFor(.milliseconds(400)).isEmpty)  // no renewal while the payment is broken
    }

    @Test func aGracePeriodKeepsThePlayerSubscribedUntilItEnds() async throws {
        let (local, store, first) = try await open(grace: true)
        clock.advance(by: 71)
        // No event: the player keeps what they have, and their record learns when the grace period ends.
        // 16 days of a 30-day month that lasts five minutes, from the end of the trial.
        let graceEnd = first.purchaseDate.addingTimeInterval(70 + 160)
        var quiet: [StoreEvent] = []
        for _ in 0..<50 where try store.currentEntitlements().first?.gracePeriodExpirationDate != graceEnd {
            quiet += try await store.pollFor(.milliseconds(100))
        }
        #expect(quiet.isEmpty)
        let retrying = try #require(try store.currentEntitlements().first)
        #expect(retrying.id == first.id && retrying.gracePeriodExpirationDate == graceEnd)
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(retrying.signedRenewalInfo))
        #expect(renewalInfo.gracePeriodExpiresDate == Milliseconds(graceEnd) && renewalInfo.isInBillingRetryPeriod == true)
        #expect(try store.isEntitled(to: Self.gold))
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .inGracePeriod)

        clock.advance(by: 160)
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.last == .expired(transaction: retrying))
        #expect(try !store.isEntitled(to: Self.gold))
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .inBillingRetryPeriod)
    }

    @Test func fixingThePaymentRenewsNow() async throws {
        let (local, store, first) = try await open(grace: false)
        #expect(throws: StoreError.self) { try local.resolveBillingIssue(productID: Self.gold) }  // nothing to fix yet
        clock.advance(by: 71)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        try local.setBillingIssuesEnabled(false)
        try local.resolveBillingIssue(productID: Self.gold)
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let renewal) = events.last else { Issue.record("\(events)"); return }
        #expect(renewal.reason == .renewal && renewal.originalID == first.id && renewal.purchaseDate == clock.now)
        #expect(renewal.expirationDate == clock.now.addingTimeInterval(300))
        #expect(try store.isEntitled(to: Self.gold))
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .subscribed)
        try store.finish(transactionID: renewal.id)
        clock.advance(by: 300)  // and it renews normally again
        let next = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let second) = next.last else { Issue.record("\(next)"); return }
        #expect(second.originalID == first.id && second.purchaseDate == renewal.expirationDate)
    }
}
