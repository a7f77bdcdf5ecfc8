import Foundation
import IOSiAPCore
import IOSiAPStoreKit
import IOSiAPTestSupport
import Testing

/// The StoreKit backend's part in offer codes and win-back offers: what it asks StoreKit for, and how
/// StoreKit's answers reach the game.
@Suite struct StoreKitSubscriptionOfferTests {
    let folder = TemporaryDirectory()
    let storeKit = ScriptedStoreKit()
    static let winBack = SubscriptionOffer(id: "come_back", paymentMode: .payUpFront, period: StoreSubscriptionPeriod(value: 3, unit: .month),
                                           periodCount: 1, price: 4.99, displayPrice: "$4.99")

    func open() async throws -> PurchaseStore {
        let info = StoreSubscriptionInfo(groupID: "G1", groupName: "Club", level: 1, period: StoreSubscriptionPeriod(value: 1, unit: .month),
                                    introductoryOffer: nil, promotionalOffers: [], winBackOffers: [Self.winBack])
        storeKit.script.withLock { $0.products = [ScriptedStoreKit.FakeProduct(id: "monthly", type: .autoRenewable, subscription: info)] }
        let backend = StoreKitBackend(api: storeKit)
        let store = try PurchaseStore(backend: backend, stateDirectory: folder.state, verifier: backend.verifier)
        _ = try await store.pollUntilTerminal(of: try store.requestProducts(["monthly"]))
        return store
    }

    @Test func aWinBackPaymentAsksStoreKitForThatOffer() async throws {
        var bought = ScriptedStoreKit.transaction(9, "monthly", .autoRenewable)
        bought.offer = TransactionOffer(type: .winBack, id: "come_back")
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(bought)))] }
        let store = try await open()
        let request = try store.requestPayment(PaymentRequest(productID: "monthly", winBackOfferID: "come_back"))
        let events = try await store.pollUntilTerminal(of: request)
        guard case .purchased(request, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.offer == TransactionOffer(type: .winBack, id: "come_back"))
        #expect(storeKit.script.withLock { $0.purchaseRequests.first?.winBackOfferID } == "come_back")
    }

    @Test func aWinBackOfferRedeemedInTheAppStoreReachesTheGameWhichPaysWithIt() async throws {
        var bought = ScriptedStoreKit.transaction(11, "monthly", .autoRenewable)
        bought.offer = TransactionOffer(type: .winBack, id: "come_back")
        storeKit.script.withLock { $0.purchases = [.success(.success(.verified(bought)))] }
        let store = try await open()
        let product = storeKit.script.withLock { $0.products[0] }
        storeKit.sendIntent(product, offer: TransactionOffer(type: .winBack, id: "come_back"))  // PurchaseIntent.offer
        let events = try await store.pollUntil { if case .purchaseIntent = $0 { true } else { false } }
        guard case .purchaseIntent(let intended, let offer) = events.last else { Issue.record("\(events)"); return }
        #expect(intended.id == "monthly" && offer == TransactionOffer(type: .winBack, id: "come_back"))
        let request = try store.requestPayment(PaymentRequest(productID: intended.id, winBackOfferID: offer?.id))
        guard case .purchased(request, let transaction) = try await store.pollUntilTerminal(of: request).last else {
            Issue.record("not purchased"); return
        }
        #expect(transaction.offer == TransactionOffer(type: .winBack, id: "come_back"))
        #expect(storeKit.script.withLock { $0.purchaseRequests.first?.winBackOfferID } == "come_back")
    }

    @Test func anIneligibleWinBackPaymentFailsWithStoreKitsReason() async throws {
        storeKit.script.withLock { $0.purchases = [.failure(.ineligibleForOffer)] }
        let store = try await open()
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(PaymentRequest(productID: "monthly", winBackOfferID: "come_back")))
        guard case .failed(_, _, let error) = events.last else { Issue.record("\(events)"); return }
        #expect(error.code == .ineligibleForOffer)
    }

    @Test func aWinBackOfferTheProductLacksNeverReachesStoreKit() async throws {
        let store = try await open()
        #expect(thrownCode { try store.requestPayment(PaymentRequest(productID: "monthly", winBackOfferID: "other")) } == .invalidOfferIdentifier)
        #expect(storeKit.script.withLock { $0.purchaseRequests }.isEmpty)
    }

    @Test func theOfferCodeSheetIsAskedForWithTheGamesUIContext() async throws {
        let store = try await open()
        let scene = UIContext(UnsafeMutableRawPointer(bitPattern: 0x5CE0)!)  // the game's UIWindowScene, opaque here
        try store.presentOfferCodeRedeemSheet(uiContext: scene)
        #expect(storeKit.script.withLock { $0.offerCodeSheets } == [scene])
    }

    @Test(arguments: [
        (StoreKitFailure.unsupported, StoreErrorCode.unsupportedPlatform),
        (.uiContextRequired("needs a UIWindowScene"), .unsupportedPlatform),
        (.invalidUIContext("not a UIWindowScene"), .invalidArgument),
    ])
    func aSheetStoreKitCannotShowIsRefused(failure: StoreKitFailure, code: StoreErrorCode) async throws {
        storeKit.script.withLock { $0.offerCodeSheetFailure = failure }
        let store = try await open()
        #expect(thrownCode { try store.presentOfferCodeRedeemSheet() } == code)
    }

    @Test func aRedeemedCodeArrivesAsAPurchaseWithoutARequest() async throws {
        var redeemed = ScriptedStoreKit.transaction(12, "monthly", .autoRenewable)
        redeemed.offer = TransactionOffer(type: .offerCode, id: "SPRING")
        let store = try await open()
        storeKit.sendUpdate(.verified(redeemed))
        let events = try await store.pollUntil { if case .purchased = $0 { true } else { false } }
        guard case .purchased(nil, let transaction) = events.last else { Issue.record("\(events)"); return }
        #expect(transaction.offer == TransactionOffer(type: .offerCode, id: "SPRING"))
    }
}
