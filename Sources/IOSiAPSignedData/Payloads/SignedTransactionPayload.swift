/// The payload of a signed transaction: the fields of Apple's `JWSTransactionDecodedPayload`, every one
/// optional as in Apple's model; unknown fields are ignored.
public struct SignedTransactionPayload: Codable, Sendable, Equatable {
    public var originalTransactionId: String?
    public var transactionId: String?
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    public var purchaseDate: Milliseconds?
    public var originalPurchaseDate: Milliseconds?
    public var expiresDate: Milliseconds?
    public var quantity: Int32?
    /// "Consumable", "Non-Consumable", "Auto-Renewable Subscription" or "Non-Renewing Subscription".
    public var type: String?
    public var appAccountToken: String?
    /// "PURCHASED" or "FAMILY_SHARED".
    public var inAppOwnershipType: String?
    public var signedDate: Milliseconds?
    public var revocationReason: Int32?
    public var revocationDate: Milliseconds?
    public var isUpgraded: Bool?
    /// 1 introductory, 2 promotional, 3 offer code, 4 win-back.
    public var offerType: Int32?
    public var offerIdentifier: String?
    /// "Sandbox", "Production", "Xcode" or "LocalTesting".
    public var environment: String?
    public var storefront: String?
    public var storefrontId: String?
    /// "PURCHASE" or "RENEWAL".
    public var transactionReason: String?
    public var currency: String?
    /// In thousandths of the currency unit (10990 is 10.99).
    public var price: Int64?
    public var offerDiscountType: String?
    public var appTransactionId: String?
    public var offerPeriod: String?
    public var revocationType: String?
    public var revocationPercentage: Int32?
    public var billingPlanType: String?
    /// Present in payloads signed on a device or by Xcode.
    public var deviceVerification: String?
    public var deviceVerificationNonce: String?

    public init() {}
}
