import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

/// "Verified" binds what is granted: every field a game or the ledger reads is the signed one.
@Suite struct OnDeviceVerifierTests {
    static let bundleID = "com.iosiap.tests"
    let chain: SigningChain
    let verifier: OnDeviceVerifier
    let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 * 1000).rounded(.down) / 1000)

    init() throws {
        chain = try SigningChain.create()
        verifier = OnDeviceVerifier(try SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: Self.bundleID, environment: .sandbox))
    }

    /// A genuine subscription transaction: its payload signed, the transaction as a store would report it.
    func genuine() throws -> StoreTransaction {
        var transaction = StoreTransaction(
            id: 7, originalID: 5, productID: "gold", productType: .autoRenewable, quantity: 1, purchaseDate: start,
            originalPurchaseDate: start.addingTimeInterval(-3600), expirationDate: start.addingTimeInterval(2_592_000),
            appAccountToken: UUID(uuidString: "5F0E8D3A-1C2B-4D5E-8F90-A1B2C3D4E5F6"), environment: .sandbox, storefront: "USA",
            reason: .renewal, subscriptionGroupID: "club", offer: TransactionOffer(type: .promotional, id: "winback"))
        transaction.signedJWS = try sign(transaction)
        return transaction
    }

    func sign(_ transaction: StoreTransaction, edit: (inout SignedTransactionPayload) -> Void = { _ in }) throws -> String {
        var payload = SignedTransactionPayload(transaction, bundleID: Self.bundleID, signedDate: Date())
        edit(&payload)
        return try chain.sign(json: payload)
    }

    func failure(_ transaction: StoreTransaction) async -> StoreError? {
        if case .failed(let error) = await verifier.verify(transaction) { return error }
        return nil
    }

    @Test func aTransactionThatIsItsSignedPayloadVerifies() async throws {
        #expect(await verifier.verify(try genuine()) == .verified)
    }

    @Test(arguments: ["quantity", "type", "productId", "originalTransactionId", "purchaseDate", "originalPurchaseDate",
                      "expiresDate", "revocationDate", "revocationReason", "appAccountToken", "environment", "storefront",
                      "inAppOwnershipType", "transactionReason", "subscriptionGroupIdentifier", "offerType", "offerIdentifier"])
    func anUnsignedChangeToAFieldTheGameReadsFailsVerification(field: String) async throws {
        let signed = try genuine()
        var reported = signed
        switch field {
        case "quantity": reported.quantity = 10
        case "type": reported.productType = .nonConsumable
        case "productId": reported.productID = "platinum"
        case "originalTransactionId": reported.originalID = 6
        case "purchaseDate": reported.purchaseDate.addTimeInterval(1)
        case "originalPurchaseDate": reported.originalPurchaseDate.addTimeInterval(-1)
        case "expiresDate": reported.expirationDate = Date.distantFuture
        case "revocationDate": reported.revocationDate = start
        case "revocationReason": reported.revocationReason = .refundedForOtherReason
        case "appAccountToken": reported.appAccountToken = nil
        case "environment": reported.environment = .production
        case "storefront": reported.storefront = "FRA"
        case "inAppOwnershipType": reported.ownershipType = .familyShared
        case "transactionReason": reported.reason = .purchase
        case "subscriptionGroupIdentifier": reported.subscriptionGroupID = "other"
        case "offerType": reported.offer = TransactionOffer(type: .winBack, id: "winback")
        default: reported.offer = TransactionOffer(type: .promotional, id: "other")
        }
        let error = await failure(reported)
        #expect(error?.code == .verificationInvalidSignature && error?.message.contains(field) == true, "\(String(describing: error))")
    }

    @Test func aRevokedTransactionMustBeSignedRevokedAndAGrantedQuantitySignedAsIs() async throws {
        var coins = StoreTransaction(id: 9, originalID: 9, productID: "coins", productType: .consumable, quantity: 1,
                                     purchaseDate: start, originalPurchaseDate: start, environment: .sandbox, storefront: "USA")
        coins.signedJWS = try sign(coins)
        var moreCoins = coins
        moreCoins.quantity = 10
        #expect(await failure(moreCoins)?.message.contains("quantity: 10, signed 1") == true)
        var refunded = coins
        refunded.revocationDate = start.addingTimeInterval(60)
        refunded.revocationReason = .refundedDueToIssue
        #expect(await failure(refunded) != nil)                 // the old signature says it was not refunded
        refunded.signedJWS = try sign(refunded)
        #expect(await verifier.verify(refunded) == .verified)    // re-signed with the refund: it is
    }

    @Test func aGracePeriodMustBeTheSignedRenewalInfosOne() async throws {
        var transaction = try genuine()
        transaction.gracePeriodExpirationDate = start.addingTimeInterval(86_400)
        #expect(await failure(transaction) != nil)  // no signed renewal info
        var renewal = RenewalInfoPayload()
        renewal.originalTransactionId = String(transaction.originalID)
        renewal.environment = "Sandbox"
        renewal.signedDate = Milliseconds(Date())
        renewal.gracePeriodExpiresDate = Milliseconds(start.addingTimeInterval(3600))
        transaction.signedRenewalInfo = try chain.sign(json: renewal)
        #expect(await failure(transaction) != nil)  // a longer grace period than signed
        renewal.gracePeriodExpiresDate = Milliseconds(start.addingTimeInterval(86_400))
        transaction.signedRenewalInfo = try chain.sign(json: renewal)
        #expect(await verifier.verify(transaction) == .verified)
    }
}
