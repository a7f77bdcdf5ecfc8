/// What the grant ledger gives the user for one unit of a product (C: `iosiap_ledger_register_*`).
public enum Grant: Sendable, Equatable, Hashable {
    /// An amount of an in-game currency per unit bought, e.g. `.currency("coins", amountPerUnit: 100)`.
    case currency(String, amountPerUnit: Int64)
    /// A named entitlement, held while a transaction of the product entitles the user (owned, or a
    /// subscription active now).
    case entitlement(String)

    /// The largest amount per unit the ledger accepts, so that ten units never overflow a balance.
    public static let maximumAmountPerUnit: Int64 = 1_000_000_000_000

    /// The currency amount `transaction` grants: amount per unit times quantity; 0 for entitlements.
    /// A quantity outside `PaymentRequest.allowedQuantities` (StoreKit's limit), or a product that does not
    /// fit an `Int64`, is refused.
    public func amount(for transaction: StoreTransaction) throws(StoreError) -> Int64 {
        guard case .currency(_, let perUnit) = self else { return 0 }
        guard PaymentRequest.allowedQuantities.contains(transaction.quantity) else {
            throw StoreError(.quantityOutOfRange, "transaction \(transaction.id) is for \(transaction.quantity) units; "
                + "the ledger grants \(PaymentRequest.allowedQuantities.lowerBound)...\(PaymentRequest.allowedQuantities.upperBound)")
        }
        let (amount, overflow) = perUnit.multipliedReportingOverflow(by: Int64(transaction.quantity))
        guard !overflow, amount >= 0 else {
            throw StoreError(.invalidArgument, "\(perUnit) per unit for \(transaction.quantity) units is not an amount")
        }
        return amount
    }
}
