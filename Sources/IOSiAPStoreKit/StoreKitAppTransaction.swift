#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The parts of StoreKit's `StoreAppTransaction` the backend reads, with the JWS of its verification result.
/// `appTransactionID` and `originalPlatform` (iOS 18.4 properties) are read from its JSON by `LiveStoreKit`.
public struct StoreKitAppTransaction: Sendable, Equatable {
    public var appID: UInt64?
    public var appVersion: String
    public var appVersionID: UInt64?
    public var bundleID: String
    /// `environment.rawValue` ("Production", "Sandbox", "Xcode"): a value the backend does not know fails.
    public var environment: String
    public var originalAppVersion: String
    public var originalPurchaseDate: Date
    public var preorderDate: Date?
    public var deviceVerification: Data
    public var deviceVerificationNonce: UUID
    public var signedDate: Date
    public var appTransactionID: String?
    public var originalPlatform: String?
    /// `VerificationResult<StoreAppTransaction>.jwsRepresentation`.
    public var jwsRepresentation: String

    public init(appID: UInt64?, appVersion: String, appVersionID: UInt64?, bundleID: String, environment: String,
                originalAppVersion: String, originalPurchaseDate: Date, preorderDate: Date?, deviceVerification: Data,
                deviceVerificationNonce: UUID, signedDate: Date, appTransactionID: String?, originalPlatform: String?,
                jwsRepresentation: String) {
        self.appID = appID
        self.appVersion = appVersion
        self.appVersionID = appVersionID
        self.bundleID = bundleID
        self.environment = environment
        self.originalAppVersion = originalAppVersion
        self.originalPurchaseDate = originalPurchaseDate
        self.preorderDate = preorderDate
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.signedDate = signedDate
        self.appTransactionID = appTransactionID
        self.originalPlatform = originalPlatform
        self.jwsRepresentation = jwsRepresentation
    }
}
