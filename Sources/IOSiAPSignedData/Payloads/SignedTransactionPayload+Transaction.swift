#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

extension SignedTransactionPayload {
    /// The payload that says what `transaction` says, field by field as Apple's payload names them.
    package init(_ transaction: StoreTransaction, bundleID: String, signedDate: Date) {
        self.init()
        transactionId = String(transaction.id)
        originalTransactionId = String(transaction.originalID)
        bundleId = bundleID
        productId = transaction.productID
        type = transaction.productType.payloadName
        quantity = Int32(clamping: transaction.quantity)
        purchaseDate = Milliseconds(transaction.purchaseDate)
        originalPurchaseDate = Milliseconds(transaction.originalPurchaseDate)
        expiresDate = transaction.expirationDate.map(Milliseconds.init)
        revocationDate = transaction.revocationDate.map(Milliseconds.init)
        revocationReason = transaction.revocationReason?.rawValue
        appAccountToken = transaction.appAccountToken?.uuidString.lowercased()
        inAppOwnershipType = transaction.ownershipType.rawValue
        self.signedDate = Milliseconds(signedDate)
        environment = transaction.environment.rawValue
        storefront = transaction.storefront
        transactionReason = transaction.reason.rawValue
        subscriptionGroupIdentifier = transaction.subscriptionGroupID
        offerType = transaction.offer?.type.rawValue
        offerIdentifier = transaction.offer?.id
    }

    /// The first field of `transaction` that the game or the grant ledger reads and that this signed payload
    /// says otherwise, as "name: reported, signed"; `nil` when they agree. Dates agree to the millisecond.
    package func firstDifference(from transaction: StoreTransaction) -> String? {
        func same(_ date: Date?, _ signed: Milliseconds?) -> Bool {
            switch (date, signed) {
            case (nil, nil): true
            case (let date?, let signed?): abs(date.timeIntervalSince1970 * 1000 - signed.value) < 1
            default: false
            }
        }
        func describe(_ value: Any?) -> String { value.map { "\($0)" } ?? "none" }
        let checks: [(String, Bool, Any?, Any?)] = [
            ("transactionId", transactionId == String(transaction.id), transaction.id, transactionId),
            ("originalTransactionId", originalTransactionId == String(transaction.originalID), transaction.originalID, originalTransactionId),
            ("productId", productId == transaction.productID, transaction.productID, productId),
            ("type", type == transaction.productType.payloadName, transaction.productType.payloadName, type),
            ("quantity", quantity.map(Int.init) == transaction.quantity, transaction.quantity, quantity),
            ("purchaseDate", same(transaction.purchaseDate, purchaseDate), transaction.purchaseDate, purchaseDate?.date),
            ("originalPurchaseDate", same(transaction.originalPurchaseDate, originalPurchaseDate),
             transaction.originalPurchaseDate, originalPurchaseDate?.date),
            ("expiresDate", same(transaction.expirationDate, expiresDate), transaction.expirationDate, expiresDate?.date),
            ("revocationDate", same(transaction.revocationDate, revocationDate), transaction.revocationDate, revocationDate?.date),
            ("revocationReason", revocationReason == transaction.revocationReason?.rawValue, transaction.revocationReason?.rawValue,
             revocationReason),
            ("appAccountToken", appAccountToken.flatMap(UUID.init(uuidString:)) == transaction.appAccountToken
                && (appAccountToken == nil) == (transaction.appAccountToken == nil), transaction.appAccountToken, appAccountToken),
            ("environment", environment == transaction.environment.rawValue, transaction.environment.rawValue, environment),
            ("storefront", storefront == transaction.storefront, transaction.storefront, storefront),
            ("inAppOwnershipType", (inAppOwnershipType ?? OwnershipType.purchased.rawValue) == transaction.ownershipType.rawValue,
             transaction.ownershipType.rawValue, inAppOwnershipType),
            ("transactionReason", (transactionReason ?? TransactionReason.purchase.rawValue) == transaction.reason.rawValue,
             transaction.reason.rawValue, transactionReason),
            ("subscriptionGroupIdentifier", subscriptionGroupIdentifier == transaction.subscriptionGroupID,
             transaction.subscriptionGroupID, subscriptionGroupIdentifier),
            ("offerType", offerType == transaction.offer?.type.rawValue, transaction.offer?.type.rawValue, offerType),
            ("offerIdentifier", offerIdentifier == transaction.offer?.id, transaction.offer?.id, offerIdentifier),
        ]
        guard let (name, _, reported, signed) = checks.first(where: { !$0.1 }) else { return nil }
        return "\(name): \(describe(reported)), signed \(describe(signed))"
    }
}
