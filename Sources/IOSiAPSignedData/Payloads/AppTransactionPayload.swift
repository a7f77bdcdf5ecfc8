/// The payload of a signed App Transaction, the app's own purchase record: the fields of Apple's
/// `JWSAppTransactionDecodedPayload` (App Store Server API documentation; the `StoreAppTransaction` model of
/// apple/app-store-server-library-python names the same fields), every one optional; unknown fields are
/// ignored. The environment is in `receiptType`.
public struct AppTransactionPayload: Codable, Sendable, Equatable {
    /// The environment that signed it: "Production", "Sandbox", "Xcode" or "LocalTesting".
    public var receiptType: String?
    /// The app's App Store id; absent in Xcode and the sandbox. Negative values are refused when decoded.
    public var appAppleId: UInt64?
    public var bundleId: String?
    /// The app's version (CFBundleVersion on iOS, CFBundleShortVersionString on macOS).
    public var applicationVersion: String?
    /// The App Store's id of the app version; refused when negative.
    public var versionExternalIdentifier: UInt64?
    /// When the App Store signed it.
    public var receiptCreationDate: AppTransactionDate?
    /// When the user first got the app (Xcode signs year 1, a negative number).
    public var originalPurchaseDate: AppTransactionDate?
    /// The app version the user first got: what a paid-to-free migration compares.
    public var originalApplicationVersion: String?
    /// Base64 of the device verification value (signed on a device or by Xcode).
    public var deviceVerification: String?
    /// The UUID the device verification value was computed with.
    public var deviceVerificationNonce: String?
    /// When the user pre-ordered the app, if they did.
    public var preorderDate: AppTransactionDate?
    /// The id of the app's download transaction, the same on every device of the Apple Account.
    public var appTransactionId: String?
    /// Where the user first got the app: "iOS", "macOS", "tvOS" or "visionOS".
    public var originalPlatform: String?

    public init() {}
}
