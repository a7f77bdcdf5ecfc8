/// The payload of signed renewal info: the fields of Apple's `JWSRenewalInfoDecodedPayload`, every one
/// optional; unknown fields are ignored.
public struct RenewalInfoPayload: Codable, Sendable, Equatable {
    /// 1 customer cancelled, 2 billing error, 3 no consent to a price increase, 4 product unavailable, 5 other.
    public var expirationIntent: Int32?
    public var originalTransactionId: String?
    public var autoRenewProductId: String?
    public var productId: String?
    /// 0 off, 1 on.
    public var autoRenewStatus: Int32?
    public var isInBillingRetryPeriod: Bool?
    public var priceIncreaseStatus: Int32?
    public var gracePeriodExpiresDate: Milliseconds?
    public var offerType: Int32?
    public var offerIdentifier: String?
    public var signedDate: Milliseconds?
    public var environment: String?
    public var recentSubscriptionStartDate: Milliseconds?
    public var renewalDate: Milliseconds?
    public var currency: String?
    public var renewalPrice: Int64?
    public var offerDiscountType: String?
    public var eligibleWinBackOfferIds: [String]?
    public var appAccountToken: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    public var renewalBillingPlanType: String?

    public init() {}
}
