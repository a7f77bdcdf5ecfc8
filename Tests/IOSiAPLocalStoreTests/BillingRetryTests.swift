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
    static let silver = "com.iosiap.example.club_silver_monthly"
    static let group = "5E1A7C01"

    func open(grace: Bool, product: String = gold) async throws -> (LocalStore, PurchaseStore, StoreTransaction) {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        try local.setBillingIssuesEnabled(true)
        try local.setBillingGracePeriodEnabled(grace)
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.gold, Self.silver]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: product))
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
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.signedRenewalInfo))
        #expect(renewalInfo.isInBillingRetryPeriod == true && renewalInfo.expirationIntent == 2)  // a billing error
        #expect(try !store.isEntitled(to: Self.gold))
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .inBillingRetryPeriod && status.transaction.id == first.id)
        #expect(try local.allTransactions().count == 1)  // nothing charged
        clock.advance(by: 600)
        #expect(await store.pollSettled(after: local).isEmpty)  // no renewal while the payment is broken
    }

    @Test func aGracePeriodKeepsThePlayerSubscribedUntilItEnds() async throws {
        let (local, store, first) = try await open(grace: true)
        clock.advance(by: 71)
        // No event: the player keeps what they have, and their record learns when the grace period ends.
        // 16 days of a 30-day month that lasts five minutes, from the end of the trial.
        let graceEnd = first.purchaseDate.addingTimeInterval(70 + 160)
        var quiet = await store.pollSettled(after: local)
        try await waitUntil { try store.currentEntitlements().first?.gracePeriodExpirationDate == graceEnd }
        quiet += await store.pollSettled(after: local)
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

    /// `expire` (SKTestSession `expireSubscription`) during the grace period ends it now: the App Store stops
    /// retrying, the game is told `expired` and is no longer entitled, and the status says expired. Before, the
    /// store refused it ("not an active subscription") though the player was entitled.
    @Test func expiringInTheGracePeriodEndsItNow() async throws {
        let (local, store, first) = try await open(grace: true)
        clock.advance(by: 71)
        try await waitUntil { try store.currentEntitlements().first?.gracePeriodExpirationDate != nil }
        _ = await store.pollSettled(after: local)
        #expect(try store.isEntitled(to: Self.gold))

        try local.expireSubscription(productID: Self.gold)
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = events.last else { Issue.record("\(events)"); return }
        #expect(ended.id == first.id && ended.gracePeriodExpirationDate == clock.now)
        #expect(try !store.isEntitled(to: Self.gold))
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .expired)
        clock.advance(by: 600)
        #expect(await store.pollSettled(after: local).isEmpty, "no renewal, no retry")
        #expect(try local.allTransactions().count == 1)
    }

    /// Waits for the renewal that ends billing retry: the new period starts when the payment went through.
    func renewedNow(_ store: PurchaseStore, _ first: StoreTransaction) async throws -> StoreTransaction {
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let renewal) = events.last else { throw EventTimeout(description: "\(events)") }
        #expect(renewal.reason == .renewal && renewal.originalID == first.id && renewal.purchaseDate == clock.now)
        #expect(renewal.expirationDate == clock.now.addingTimeInterval(300))
        #expect(try store.isEntitled(to: Self.gold))
        #expect(try await store.subscriptionStatus(groupID: Self.group)?.state == .subscribed)
        return renewal
    }

    @Test func fixingThePaymentRenewsNow() async throws {
        let (local, store, first) = try await open(grace: false)
        #expect(throws: StoreError.self) { try local.resolveBillingIssue(productID: Self.gold) }  // nothing to fix yet
        clock.advance(by: 71)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        try local.resolveBillingIssue(productID: Self.gold)  // while renewals still fail: this payment was fixed
        let renewal = try await renewedNow(store, first)
        try store.finish(transactionID: renewal.id)
        try local.setBillingIssuesEnabled(false)
        clock.advance(by: 300)  // and it renews normally again
        let next = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let second) = next.last else { Issue.record("\(next)"); return }
        #expect(second.originalID == first.id && second.purchaseDate == renewal.expirationDate)
    }

    @Test func whenPaymentsWorkAgainTheNextRetryRenews() async throws {
        let (local, store, first) = try await open(grace: false)
        clock.advance(by: 71)
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        clock.advance(by: 100)  // some days of retrying in vain
        #expect(await store.pollSettled(after: local).isEmpty)
        try local.setBillingIssuesEnabled(false)
        let renewal = try await renewedNow(store, first)
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(renewal.signedRenewalInfo))
        #expect(renewalInfo.isInBillingRetryPeriod == false && renewalInfo.autoRenewStatus == 1)
    }

    @Test func after60DaysOfFailedRetriesTheSubscriptionEndsForGood() async throws {
        let (local, store, first) = try await open(grace: true)
        clock.advance(by: 71 + 160)  // past the trial and the 16-day grace period
        let events = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(events.count == 1)
        clock.advance(by: 440)  // 60 days of a 30-day month that lasts five minutes, after the renewal date
        #expect(await store.pollSettled(after: local).isEmpty)  // its end was announced already
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .expired && !status.willAutoRenew && status.transaction.id == first.id)
        let ended = try #require(try local.history().last)
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.transaction.signedRenewalInfo))
        #expect(renewalInfo.isInBillingRetryPeriod == false && renewalInfo.autoRenewStatus == 0 && renewalInfo.expirationIntent == 2)
        try local.setBillingIssuesEnabled(false)  // too late: nothing renews any more
        clock.advance(by: 10)
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try local.allTransactions().count == 1)
    }

    /// The player is still subscribed during the grace period, so a purchase of another level changes that
    /// subscription: an upgrade replaces it now, rather than starting a second one beside it.
    @Test func anUpgradeDuringTheGracePeriodReplacesTheSubscriptionInRetry() async throws {
        let (local, store, first) = try await open(grace: true, product: Self.silver)
        clock.advance(by: 71)  // the renewal fails: silver stays, within its grace period
        try await waitUntil { try store.currentEntitlements().first?.gracePeriodExpirationDate != nil }
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.gold))
        guard case .purchased(_, let gold) = events.last else { Issue.record("\(events)"); return }
        #expect(gold.productID == Self.gold)
        let replaced = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        guard case .expired(let ended) = replaced.last else { Issue.record("\(replaced)"); return }
        #expect(ended.id == first.id && ended.expirationDate == first.expirationDate)  // it ended when its period did
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.signedRenewalInfo))
        // Replaced, not lapsed: no billing retry any more, and no reason to have ended.
        #expect(renewalInfo.isInBillingRetryPeriod == false && renewalInfo.gracePeriodExpiresDate == nil
                && renewalInfo.expirationIntent == nil)
        #expect(try store.currentEntitlements().map(\.productID) == [Self.gold])
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .subscribed && status.transaction.id == gold.id)
        try store.finish(transactionID: gold.id)
        try local.setBillingIssuesEnabled(false)  // no retry brings silver back
        clock.advance(by: 200)
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try local.allTransactions().map(\.productID) == [Self.silver, Self.gold])
    }

    /// Past its grace period a subscription in billing retry is not active, but the App Store would renew it once
    /// its payment goes through: a new purchase in its group replaces it, so its retries stop there.
    @Test func aPurchaseInTheGroupStopsTheRetriesOfALapsedSubscription() async throws {
        let (local, store, first) = try await open(grace: false)
        clock.advance(by: 71)  // the renewal fails, with no grace period: gold has ended
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.silver))
        guard case .purchased(_, let silver) = events.last else { Issue.record("\(events)"); return }
        try store.finish(transactionID: silver.id)
        let ended = try #require(try local.history().first { $0.transaction.id == first.id })
        let renewalInfo = try local.makeVerifier().verifyRenewalInfo(try #require(ended.transaction.signedRenewalInfo))
        #expect(renewalInfo.isInBillingRetryPeriod == false && renewalInfo.autoRenewStatus == 0)
        try local.setBillingIssuesEnabled(false)  // the payment would go through now: gold is not retried
        clock.advance(by: 10)
        #expect(await store.pollSettled(after: local).isEmpty)
        #expect(try store.currentEntitlements().map(\.productID) == [Self.silver])
        #expect(try local.allTransactions().map(\.productID) == [Self.gold, Self.silver])
    }
}
