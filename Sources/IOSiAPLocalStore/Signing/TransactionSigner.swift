#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// Signs the local store's transactions the way the App Store does: a compact ES256 JWS whose payload has
/// the fields of Apple's `JWSTransactionDecodedPayload`, and signed renewal info for subscriptions.
struct TransactionSigner: Sendable {
    let chain: SigningChain
    let bundleID: String

    /// The signed transaction and, for an auto-renewable subscription, its signed renewal info.
    /// `offerTerms` are the catalog's terms of `transaction.offer`; they set the price it was charged.
    func sign(_ transaction: StoreTransaction, product: CatalogProduct?, offerTerms: CatalogOffer?, storefront: AppStoreStorefront,
              renewal renewalState: RenewalState, at signedDate: Date) throws(StoreError) -> (transaction: String, renewalInfo: String?) {
        var payload = SignedTransactionPayload(transaction, bundleID: bundleID, signedDate: signedDate)
        payload.storefront = storefront.code
        payload.storefrontId = storefront.id
        payload.transactionReason = transaction.reason.rawValue
        payload.currency = storefront.currencyCode
        payload.price = (offerTerms?.price ?? product?.price).map(Self.milliunits)
        if transaction.productType == .autoRenewable {
            payload.webOrderLineItemId = String(transaction.id)
            payload.isUpgraded = renewalState.upgraded
        }
        // The offer is the transaction's, signed whatever the catalog now says; its terms, where the catalog
        // still has them.
        if transaction.offer != nil, let offerTerms {
            payload.offerDiscountType = offerTerms.discountType
            payload.offerPeriod = offerTerms.period.iso8601
        }
        let signedTransaction = try chain.sign(json: payload)
        guard transaction.productType == .autoRenewable else { return (signedTransaction, nil) }

        var renewal = RenewalInfoPayload()
        renewal.originalTransactionId = String(transaction.originalID)
        renewal.productId = transaction.productID
        renewal.autoRenewProductId = renewalState.renewProductID ?? transaction.productID
        renewal.autoRenewStatus = renewalState.autoRenew ? 1 : 0
        renewal.isInBillingRetryPeriod = renewalState.inBillingRetry
        renewal.expirationIntent = renewalState.expirationIntent
        renewal.signedDate = Milliseconds(signedDate)
        renewal.environment = transaction.environment.rawValue
        renewal.recentSubscriptionStartDate = Milliseconds(transaction.originalPurchaseDate)
        renewal.renewalDate = transaction.expirationDate.map(Milliseconds.init)
        renewal.gracePeriodExpiresDate = transaction.gracePeriodExpirationDate.map(Milliseconds.init)
        renewal.currency = storefront.currencyCode
        renewal.renewalPrice = (renewalState.renewalPrice ?? product?.price).map(Self.milliunits)
        if let (offer, terms) = renewalState.nextOffer {
            renewal.offerType = offer.type.rawValue
            renewal.offerIdentifier = offer.id
            renewal.offerDiscountType = terms.discountType
            renewal.offerPeriod = terms.period.iso8601
        }
        if !renewalState.eligibleWinBackOfferIDs.isEmpty { renewal.eligibleWinBackOfferIds = renewalState.eligibleWinBackOfferIDs }
        renewal.appAccountToken = payload.appAccountToken
        return (signedTransaction, try chain.sign(json: renewal))
    }

    /// A price in thousandths of the currency unit, as signed payloads carry it (10.99 is 10990).
    /// Rounded half away from zero; clamped to Int64's range.
    static func milliunits(_ price: Decimal) -> Int64 {
        // Decimal's text is its exact value in plain digits ("10990.5"), whatever the locale.
        let text = "\(price * 1000)"
        let negative = text.hasPrefix("-")
        let parts = text.drop { $0 == "-" }.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, var value = Int64(whole) else { return negative ? .min : .max }
        if parts.count == 2, let firstDecimal = parts[1].first?.wholeNumberValue, firstDecimal >= 5 {
            value = value == .max ? value : value + 1
        }
        return negative ? -value : value
    }
}
