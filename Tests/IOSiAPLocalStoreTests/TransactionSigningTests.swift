import Foundation
import IOSiAPCore
@testable import IOSiAPLocalStore
import IOSiAPTestSupport
@testable import IOSiAPVerification
import Testing

@Suite struct TransactionSigningTests {
    let folder = TemporaryDirectory()
    static let prefix = "com.iosiap.example."

    func open() throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: folder.state,
                                   bundleID: "com.iosiap.example")
        return (local, try PurchaseStore(backend: local, stateDirectory: folder.state))
    }

    func buy(_ store: PurchaseStore, _ product: String, quantity: Int = 1) async throws -> StoreTransaction {
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.prefix + product]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.prefix + product, quantity: quantity))
        guard case .purchased(_, let transaction) = events.last else { throw EventTimeout(description: "\(events)") }
        return transaction
    }

    @Test func theOfferIsSignedAsTheTransactionHasItAlsoWhenTheCatalogNoLongerHasIt() throws {
        let signer = TransactionSigner(chain: try SigningChain.create(), bundleID: "com.iosiap.example")
        let now = Date()
        let transaction = StoreTransaction(id: 3, originalID: 3, productID: "gone", productType: .autoRenewable, quantity: 1,
                                           purchaseDate: now, originalPurchaseDate: now, expirationDate: now.addingTimeInterval(60),
                                           environment: .localTesting, storefront: "USA", offer: TransactionOffer(type: .introductory, id: nil))
        let signed = try signer.sign(transaction, product: nil, offerTerms: nil, storefront: try #require(AppStoreStorefront(code: "USA")),
                                     renewal: RenewalState(), at: now)
        let payload = try SignedDataVerifier.decodeUnverified(signed.transaction, as: SignedTransactionPayload.self)
        #expect(payload.offerType == 1 && payload.offerIdentifier == nil)
        #expect(payload.firstDifference(from: transaction) == nil)
    }

    @Test func purchasesCarryAnAppStoreShapedSignedTransaction() async throws {
        let (local, store) = try open()
        let token = UUID()
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([Self.prefix + "coins_100"]))
        let events = try await store.pollUntilTerminal(of: try store.requestPayment(productID: Self.prefix + "coins_100",
                                                                                   quantity: 3, appAccountToken: token))
        guard case .purchased(_, let transaction) = events.last else { Issue.record("\(events)"); return }
        let payload = try local.makeVerifier().verifyTransaction(try #require(transaction.signedJWS))
        #expect(payload.transactionId == String(transaction.id))
        #expect(payload.originalTransactionId == String(transaction.originalID))
        #expect(payload.bundleId == "com.iosiap.example")
        #expect(payload.productId == Self.prefix + "coins_100")
        #expect(payload.type == "Consumable")
        #expect(payload.quantity == 3)
        #expect(payload.price == 990)
        #expect(payload.currency == "USD")
        #expect(payload.storefront == "USA" && payload.storefrontId == "143441")
        #expect(payload.environment == "Sandbox")
        #expect(payload.transactionReason == "PURCHASE")
        #expect(payload.inAppOwnershipType == "PURCHASED")
        #expect(payload.appAccountToken == token.uuidString.lowercased())
        #expect(payload.purchaseDate == Milliseconds(transaction.purchaseDate))
        #expect(transaction.signedRenewalInfo == nil)
        // The root is in the state directory for a backend to trust.
        let root = try Data(contentsOf: folder.url.appendingPathComponent("signing/root.der"))
        #expect(Array(root) == local.signingRootCertificate)
    }

    @Test func subscriptionsAlsoCarrySignedRenewalInfo() async throws {
        let (local, store) = try open()
        let transaction = try await buy(store, "club_gold_monthly")
        let verifier = try local.makeVerifier()
        let payload = try verifier.verifyTransaction(try #require(transaction.signedJWS))
        #expect(payload.type == "Auto-Renewable Subscription")
        #expect(payload.subscriptionGroupIdentifier == "5E1A7C01")
        #expect(payload.expiresDate == transaction.expirationDate.map(Milliseconds.init))
        #expect(payload.offerType == 1 && payload.offerDiscountType == "FREE_TRIAL" && payload.offerPeriod == "P1W")
        let renewal = try verifier.verifyRenewalInfo(try #require(transaction.signedRenewalInfo))
        #expect(renewal.productId == Self.prefix + "club_gold_monthly")
        #expect(renewal.autoRenewStatus == 1)
        #expect(renewal.renewalDate == payload.expiresDate)
        #expect(renewal.renewalPrice == 9990)
    }

    @Test func aRefundIsSignedAgainWithItsRevocation() async throws {
        let (local, store) = try open()
        let transaction = try await buy(store, "pro_upgrade")
        let refunded = try local.refund(transactionID: transaction.id, reason: .refundedDueToIssue)
        let payload = try local.makeVerifier().verifyTransaction(try #require(refunded.signedJWS))
        #expect(payload.revocationReason == 1)
        #expect(payload.revocationDate == refunded.revocationDate.map(Milliseconds.init))
        #expect(refunded.signedJWS != transaction.signedJWS)
    }

    @Test func oneStateDirectoryKeepsOneChainAcrossLaunches() async throws {
        var signed: String?
        var root: [UInt8] = []
        do {
            let (local, store) = try open()
            signed = try await buy(store, "coins_100").signedJWS
            root = local.signingRootCertificate
            store.close()
        }
        let (relaunched, _) = try open()
        #expect(relaunched.signingRootCertificate == root)
        #expect(try relaunched.makeVerifier().verifyTransaction(try #require(signed)).productId == Self.prefix + "coins_100")
        let other = try SignedDataVerifier(trustedRoots: [root], bundleID: "com.other.game", environment: .sandbox)
        #expect(throws: StoreError.self) { try other.verifyTransaction(signed!) }
    }
}
