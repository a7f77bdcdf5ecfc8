#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The app's own signed purchase record (StoreKit 2: `StoreAppTransaction`): which version the user first got
/// and when, for a paid-to-free migration or a pre-order, with the JWS the store signed it as, for a game's
/// server to verify. Field names follow StoreKit's `StoreAppTransaction`; the signed payload's names are in
/// brackets. C: `iosiap_app_transaction`.
public struct StoreAppTransaction: Sendable, Equatable {
    /// The environment that signed it [receiptType].
    public var environment: StoreEnvironment
    /// The app's bundle id [bundleId].
    public var bundleID: String
    /// The app version this record was signed for [applicationVersion].
    public var appVersion: String
    /// The app version the user first got [originalApplicationVersion]: compare it with the version that
    /// made the app free to grant what the paid version included.
    public var originalAppVersion: String
    /// When the user first got the app [originalPurchaseDate]. Xcode signs year 1.
    public var originalPurchaseDate: Date
    /// When the store signed it [receiptCreationDate].
    public var signedDate: Date
    /// When the user pre-ordered the app, if they did [preorderDate].
    public var preorderDate: Date?
    /// The app's App Store id; none in Xcode, the sandbox and the local store [appAppleId].
    public var appID: UInt64?
    /// The App Store's id of the app version [versionExternalIdentifier].
    public var appVersionID: UInt64?
    /// The id of the app's download transaction, the same on every device of the account [appTransactionId].
    public var appTransactionID: String?
    /// Where the user first got the app: "iOS", "macOS", "tvOS" or "visionOS" [originalPlatform].
    public var originalPlatform: String?
    /// Base64 of the device verification value, when the store signed one [deviceVerification].
    public var deviceVerification: String?
    /// The UUID the device verification value was computed with [deviceVerificationNonce].
    public var deviceVerificationNonce: UUID?
    /// The signed App Transaction (a compact JWS) as the store gave it: send it to the game's server, which
    /// verifies it (e.g. with `SignedDataVerifier.verifyAppTransaction` or Apple's libraries).
    public var signedJWS: String

    public init(environment: StoreEnvironment, bundleID: String, appVersion: String, originalAppVersion: String,
                originalPurchaseDate: Date, signedDate: Date, preorderDate: Date? = nil, appID: UInt64? = nil,
                appVersionID: UInt64? = nil, appTransactionID: String? = nil, originalPlatform: String? = nil,
                deviceVerification: String? = nil, deviceVerificationNonce: UUID? = nil, signedJWS: String) {
        self.environment = environment
        self.bundleID = bundleID
        self.appVersion = appVersion
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.signedDate = signedDate
        self.preorderDate = preorderDate
        self.appID = appID
        self.appVersionID = appVersionID
        self.appTransactionID = appTransactionID
        self.originalPlatform = originalPlatform
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.signedJWS = signedJWS
    }
}
