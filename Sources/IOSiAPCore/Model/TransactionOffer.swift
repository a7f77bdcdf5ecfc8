/// The kind of offer a transaction used (values of the signed payload's `offerType`).
public enum OfferType: Int32, Sendable, Codable {
    case introductory = 1
    case promotional = 2
    case offerCode = 3
    case winBack = 4
}

/// A subscription offer by its type and id: the one a transaction was charged with (StoreKit 2:
/// `Transaction.Offer`), or the one a purchase started in the App Store redeems (`PurchaseIntent.offer`).
public struct TransactionOffer: Sendable, Equatable, Codable {
    /// Introductory, promotional, …
    public let type: OfferType
    /// The offer's id: the promotional or win-back offer id, or the offer code's reference name; `nil` for
    /// introductory offers.
    public let id: String?

    /// Creates an offer record.
    public init(type: OfferType, id: String?) {
        self.type = type
        self.id = id
    }
}
