import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// What a game asks the local store about the user, outside any request: a group's status with its renewal info,
/// introductory offer eligibility, and the whole transaction history.
@Suite struct StoreQueryTests {
    let folder = TemporaryDirectory()
    let clock = TestClock()
    static let prefix = "com.iosiap.example."
    static let gold = prefix + "club_gold_monthly"
    static let group = "5E1A7C01"

    func open() throws -> (LocalStore, PurchaseStore) {
        let clock = self.clock
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   now: { clock.now })
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now }))
    }

    @Test func aStatusCarriesTheRenewalInfoItsSignedPayloadSays() async throws {
        let (local, store) = try open()
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let gold = try local.buyProduct(Self.gold)
        var status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .subscribed && status.willAutoRenew && status.expirationReason == nil)
        #expect(!status.isInBillingRetry && status.gracePeriodExpirationDate == nil)
        let signed = try #require(status.signedRenewalInfo)
        let renewal = try local.makeVerifier().verifyRenewalInfo(signed)
        #expect(renewal.originalTransactionId == String(gold.originalID) && renewal.autoRenewStatus == 1)

        // The payment fails at the renewal, in a grace period: still subscribed to the game, retried by the store.
        try local.setBillingIssuesEnabled(true)
        try local.setBillingGracePeriodEnabled(true)
        clock.advance(by: 71)  // past the one-week trial
        status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .inGracePeriod && status.isInBillingRetry && status.expirationReason == .billingError)
        #expect((status.gracePeriodExpirationDate ?? .distantPast) > clock.now)
        let retrying = try local.makeVerifier().verifyRenewalInfo(try #require(status.signedRenewalInfo))
        #expect(retrying.isInBillingRetryPeriod == true && retrying.expirationIntent == 2)
    }

    @Test func aGroupTheCatalogDoesNotHaveIsTheSameErrorForTheStatusAndTheEligibility() async throws {
        let (_, store) = try open()
        // A typo must not read as "never subscribed" (no status) in one call and as an error in the other.
        for ask in [{ _ = try await store.subscriptionStatus(groupID: "NO_SUCH_GROUP") },
                    { _ = try await store.isEligibleForIntroOffer(groupID: "NO_SUCH_GROUP") }] as [() async throws -> Void] {
            do {
                try await ask()
                Issue.record("an unknown group was answered")
            } catch let error as StoreError {
                #expect(error.code == .invalidArgument && error.message == "the catalog has no subscription group 'NO_SUCH_GROUP'")
            }
        }
        #expect(try await store.subscriptionStatus(groupID: Self.group) == nil)  // a known group, never subscribed
    }

    @Test func turningAutoRenewOffIsTheExpirationReasonOnceItEnds() async throws {
        let (local, store) = try open()
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        _ = try local.buyProduct(Self.gold)
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        clock.advance(by: 71)
        let status = try #require(try await store.subscriptionStatus(groupID: Self.group))
        #expect(status.state == .expired && !status.willAutoRenew && status.expirationReason == .autoRenewDisabled)
    }

    @Test func introductoryOfferEligibilityIsWhatAPaymentWouldGet() async throws {
        let (local, store) = try open()
        #expect(try await store.isEligibleForIntroOffer(groupID: Self.group))
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.gold]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.gold))
        guard case .purchased(_, let first) = events.last else { Issue.record("\(events)"); return }
        #expect(first.offer?.type == .introductory)
        #expect(try await !store.isEligibleForIntroOffer(groupID: Self.group))
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        try local.expireSubscription(productID: Self.gold)
        #expect(try await !store.isEligibleForIntroOffer(groupID: Self.group))  // once per group, ever
        // A group the catalog does not have, and bad input, are errors, not "eligible".
        await #expect(throws: StoreError.self) { try await store.isEligibleForIntroOffer(groupID: "NO_SUCH_GROUP") }
        do {
            _ = try await store.isEligibleForIntroOffer(groupID: "")
            Issue.record("an empty group id was answered")
        } catch {
            #expect(error.code == .invalidArgument)
        }
    }

    @Test func theHistoryHoldsEveryTransactionOldestFirstRefundedAndExpiredToo() async throws {
        let (local, store) = try open()
        #expect(try await store.transactionHistory().isEmpty)
        let coins = try local.buyProduct(Self.prefix + "coins_100", quantity: 3)
        let pro = try local.buyProduct(Self.prefix + "pro_upgrade")
        let gold = try local.buyProduct(Self.gold)
        try local.refund(transactionID: pro.id)
        try local.setAutoRenew(productID: Self.gold, enabled: false)
        try local.expireSubscription(productID: Self.gold)
        let history = try await store.transactionHistory()
        #expect(history.map(\.id) == [coins.id, pro.id, gold.id])
        #expect(history[0].quantity == 3 && history[1].isRevoked && (history[2].expirationDate ?? .distantFuture) <= clock.now)
        #expect(history.allSatisfy { $0.signedJWS != nil })
        // The game's records learn of the end from the store's update, as the game hears of it.
        _ = try await store.pollUntil { if case .expired = $0 { true } else { false } }
        #expect(try store.currentEntitlements().isEmpty)
        store.close()
        await #expect(throws: StoreError.self) { try await store.transactionHistory() }
    }
}
