import Foundation
import IOSiAPCore

/// The set-up many refund tests share: a purchase the game has had and finished, and the store's refunded copy of it.
extension PurchaseStore {
    /// Loads `productID`, buys one and finishes it; returns the purchase. Throws if the payment ends otherwise.
    public func buyAndFinish(_ productID: String) async throws -> StoreTransaction {
        _ = try await pollUntilTerminal(of: try requestProducts([productID]))
        let events = try await pollUntilTerminal(of: try requestPayment(productID: productID))
        guard case .purchased(_, let transaction) = events.last else {
            throw UnexpectedPaymentEnd(description: "the payment for \(productID) ended with \(events)")
        }
        try finish(transactionID: transaction.id)
        return transaction
    }
}

extension StoreTransaction {
    /// This transaction as the store reports it once refunded now.
    public func refunded(_ reason: RevocationReason? = nil) -> StoreTransaction {
        var copy = self
        copy.revocationDate = Date()
        copy.revocationReason = reason
        return copy
    }
}

/// A test set-up's payment that did not end as purchased.
public struct UnexpectedPaymentEnd: Error, CustomStringConvertible {
    public let description: String
}
