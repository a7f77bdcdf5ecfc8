import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// What the StoreKit backend answers about the user outside any request (renewal info, intro offer eligibility,
/// `Transaction.all`), and Family Sharing as StoreKit delivers it.
@Suite struct StoreKitStoreQueryTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()

    func open() throws -> PurchaseStore {
        let backend = StoreKitBackend(api: storeKit)
        return try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
    }

    @Test func aStatusCarriesStoreKitsRenewalInfo() async throws {
        var latest = ScriptedStoreKit.transaction(50, "monthly", .autoRenewable)
        latest.subscriptionGroupID = "G1"
        let grace = Date(timeIntervalSince1970: 1_770_000_000)
        storeKit.script.withLock {
            $0.statuses = [StoreKitSubscriptionStatus(state: .inGracePeriod, transaction: .verified(latest), willAutoRenew: true,
                                                      autoRenewProductID: "monthly", expirationReason: .billingError,
                                                      isInBillingRetry: true, gracePeriodExpirationDate: grace,
                                                      renewalInfoJWS: "header.renewal.signature")]
        }
        let store = try open()
        defer { store.close() }
        let status = try #require(try await store.subscriptionStatus(groupID: "G1"))
        #expect(status.state == .inGracePeriod && status.isInBillingRetry && status.expirationReason == .billingError)
        #expect(status.gracePeriodExpirationDate == grace && status.signedRenewalInfo == "header.renewal.signature")
        #expect(status.transaction.signedRenewalInfo == "header.renewal.signature")
        await #expect(throws: StoreError.self) { try await store.subscriptionStatus(groupID: "") }
    }

    /// Two statuses in one group (a family member's gold beside the user's silver): the service of the highest
    /// level the user is entitled to comes first, whatever order StoreKit lists them in; one that no longer
    /// entitles never outranks one that does.
    @Test func theStatusOfTheHighestLevelThatEntitlesComesFirst() async throws {
        func info(level: Int) -> StoreSubscriptionInfo {
            StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: level, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                  introductoryOffer: nil, promotionalOffers: [])
        }
        func status(_ id: UInt64, _ product: String, _ state: StoreSubscriptionStatus.State) -> StoreKitSubscriptionStatus<ScriptedStoreKit.FakeTransaction> {
            var transaction = ScriptedStoreKit.transaction(id, product, .autoRenewable)
            transaction.subscriptionGroupID = "G1"
            return StoreKitSubscriptionStatus(state: state, transaction: .verified(transaction), willAutoRenew: true,
                                              autoRenewProductID: product, expirationReason: nil, isInBillingRetry: false,
                                              gracePeriodExpirationDate: nil, renewalInfoJWS: nil)
        }
        storeKit.script.withLock {
            // Levels are not loaded by the game: the backend asks StoreKit for them.
            $0.products = [ScriptedStoreKit.FakeProduct(id: "gold", type: .autoRenewable, subscription: info(level: 1)),
                           ScriptedStoreKit.FakeProduct(id: "silver", type: .autoRenewable, subscription: info(level: 2))]
            $0.statuses = [status(1, "silver", .subscribed), status(2, "gold", .subscribed)]
        }
        let store = try open()
        defer { store.close() }
        #expect(try await store.subscriptionStatus(groupID: "G1")?.transaction.productID == "gold")
        storeKit.script.withLock { $0.statuses = [status(1, "silver", .inGracePeriod), status(2, "gold", .expired)] }
        #expect(try await store.subscriptionStatus(groupID: "G1")?.transaction.productID == "silver")
        storeKit.script.withLock { $0.statuses = [status(2, "gold", .inGracePeriod), status(1, "silver", .subscribed)] }
        #expect(try await store.subscriptionStatus(groupID: "G1")?.transaction.productID == "gold")
    }

    @Test func introOfferEligibilityIsStoreKitsPerGroup() async throws {
        storeKit.script.withLock { $0.introOfferUsedGroups = ["G2"] }
        let store = try open()
        defer { store.close() }
        #expect(try await store.isEligibleForIntroOffer(groupID: "G1"))
        #expect(try await !store.isEligibleForIntroOffer(groupID: "G2"))
        await #expect(throws: StoreError.self) { try await store.isEligibleForIntroOffer(groupID: "") }
        #expect(storeKit.script.withLock { $0.introEligibilityAsked } == ["G1", "G2"])  // bad input never reaches StoreKit
    }

    @Test func theHistoryIsTransactionAllVerifiedOldestFirst() async throws {
        var refunded = ScriptedStoreKit.transaction(7, "pro", .nonConsumable)
        refunded.revocationDate = Date(timeIntervalSince1970: 1_767_300_000)
        var older = ScriptedStoreKit.transaction(3, "coins")
        older.purchaseDate = Date(timeIntervalSince1970: 1_700_000_000)
        var staging = ScriptedStoreKit.transaction(9, "coins")
        staging.environment = "Staging"
        storeKit.script.withLock {
            $0.all = [.verified(refunded), .verified(older), .unverified(ScriptedStoreKit.transaction(8, "coins"), .invalidSignature),
                      .verified(staging)]
        }
        let store = try open()
        defer { store.close() }
        let history = try await store.transactionHistory()
        #expect(history.map(\.id) == [3, 7])
        #expect(history[1].isRevoked && history[1].signedJWS == "header.payload-of-7.signature")
    }

    @Test func aFamilySharedTransactionArrivesSharedAndItsRevocationIsTold() async throws {
        let store = try open()
        defer { store.close() }
        var shared = ScriptedStoreKit.transaction(60, "pro", .nonConsumable)
        shared.ownershipType = .familyShared
        storeKit.sendUpdate(.verified(shared))
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(let requestID, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(requestID == nil && transaction.ownershipType == .familyShared)
        #expect(try store.isEntitled(to: "pro"))
        try store.finish(transactionID: 60)
        // The family member stops sharing: StoreKit sends it again, revoked (reason 0, Apple's for that).
        shared.revocationDate = Date(timeIntervalSince1970: 1_767_400_000)
        shared.revocationReason = .refundedForOtherReason
        storeKit.sendUpdate(.verified(shared))
        let revoked = try await store.pollUntil { if case .revoked = $0 { true } else { false } }
        guard case .revoked(let told) = revoked.last else { Issue.record("\(revoked)"); return }
        #expect(told.id == 60 && told.ownershipType == .familyShared)
        #expect(try !store.isEntitled(to: "pro"))
    }
}
