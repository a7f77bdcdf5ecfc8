import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// The StoreKit backend's part in StoreKit 26's JWS-signed offers: it hands a promotional offer's JWS and an
/// introductory offer eligibility JWS to StoreKit, and a library built with an older SDK refuses them clearly.
@Suite struct StoreKitOfferJWSTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()
    static let promotional = SubscriptionOffer(id: "loyal", paymentMode: .payAsYouGo, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                               periodCount: 3, price: 0.99, displayPrice: "$0.99")

    func open() async throws -> PurchaseStore {
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                         introductoryOffer: nil, promotionalOffers: [Self.promotional], winBackOffers: [])
        storeKit.script.withLock { $0.products = [ScriptedStoreKit.FakeProduct(id: "monthly", type: .autoRenewable, subscription: info)] }
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
        return store
    }

    @Test func bothJWSReachStoreKit() async throws {
        var bought = ScriptedStoreKit.transaction(21, "monthly", .autoRenewable)
        bought.offer = TransactionOffer(type: .promotional, id: "loyal")
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(bought)))] }
        let store = try await open()
        let offer = PromotionalOfferJWS(offerID: "loyal", compactJWS: "header.offer-claims.signature")
        let request = try store.requestPayment(PaymentRequest(productID: "monthly", promotionalOfferJWS: offer,
                                                              introductoryOfferEligibilityJWS: "header.intro-claims.signature"))
        guard case .purchased(request, let transaction) = try await store.pollUntilTerminal(of: request).last else {
            Issue.record("not purchased"); return
        }
        #expect(transaction.offer == TransactionOffer(type: .promotional, id: "loyal"))
        let asked = try #require(storeKit.script.withLock { $0.purchaseRequests.first })
        #expect(asked.promotionalOfferJWS == offer && asked.introductoryOfferEligibilityJWS == "header.intro-claims.signature")
        #expect(asked.promotionalOffer == nil)
    }

    @Test func aLibraryBuiltWithAnOlderSDKRefusesTheJWSForms() async throws {
        // LiveStoreKit throws this when its SDK's StoreKit lacks promotionalOffer(_:compactJWS:).
        storeKit.script.withLock { $0.purchases = [.failure(.unsupportedOption("a JWS-signed promotional offer needs the iOS 26 SDK"))] }
        let store = try await open()
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(
            productID: "monthly", promotionalOfferJWS: PromotionalOfferJWS(offerID: "loyal", compactJWS: "h.p.s"))))
        guard case .failed(_, _, let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .unsupportedPlatform && error.message.contains("iOS 26 SDK"))
    }
}
