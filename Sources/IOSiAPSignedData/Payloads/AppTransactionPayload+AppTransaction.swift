#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

extension AppTransactionPayload {
    /// The payload that says what `appTransaction` says, field by field as Apple's payload names them
    /// (its `signedJWS` is not part of it).
    package init(_ appTransaction: StoreAppTransaction) {
        self.init()
        receiptType = appTransaction.environment.rawValue
        appAppleId = appTransaction.appID
        bundleId = appTransaction.bundleID
        applicationVersion = appTransaction.appVersion
        versionExternalIdentifier = appTransaction.appVersionID
        receiptCreationDate = AppTransactionDate(appTransaction.signedDate)
        originalPurchaseDate = AppTransactionDate(appTransaction.originalPurchaseDate)
        originalApplicationVersion = appTransaction.originalAppVersion
        deviceVerification = appTransaction.deviceVerification
        deviceVerificationNonce = appTransaction.deviceVerificationNonce?.uuidString.lowercased()
        preorderDate = appTransaction.preorderDate.map(AppTransactionDate.init)
        appTransactionId = appTransaction.appTransactionID
        originalPlatform = appTransaction.originalPlatform
    }

    /// The app transaction this payload describes, carrying `signedJWS`. `verificationInvalidFormat` when a
    /// field every App Transaction has is missing (the environment, bundle id, both versions, both dates), or
    /// the nonce is not a UUID; `verificationInvalidEnvironment` for an environment this library does not know.
    public func appTransaction(signedJWS: String) throws(StoreError) -> StoreAppTransaction {
        func required<Value>(_ value: Value?, _ name: String) throws(StoreError) -> Value {
            guard let value else { throw StoreError(.verificationInvalidFormat, "the App Transaction has no \(name)") }
            return value
        }
        let type = try required(receiptType, "receiptType")
        guard let environment = StoreEnvironment(rawValue: type) else {
            throw StoreError(.verificationInvalidEnvironment, "the App Transaction comes from an unknown environment '\(type)'")
        }
        var nonce: UUID?
        if let text = deviceVerificationNonce {
            guard let uuid = UUID(uuidString: text) else {
                throw StoreError(.verificationInvalidFormat, "the App Transaction's deviceVerificationNonce is not a UUID")
            }
            nonce = uuid
        }
        return StoreAppTransaction(
            environment: environment, bundleID: try required(bundleId, "bundleId"),
            appVersion: try required(applicationVersion, "applicationVersion"),
            originalAppVersion: try required(originalApplicationVersion, "originalApplicationVersion"),
            originalPurchaseDate: try required(originalPurchaseDate, "originalPurchaseDate").date,
            signedDate: try required(receiptCreationDate, "receiptCreationDate").date,
            preorderDate: preorderDate?.date, appID: appAppleId, appVersionID: versionExternalIdentifier,
            appTransactionID: appTransactionId, originalPlatform: originalPlatform,
            deviceVerification: deviceVerification, deviceVerificationNonce: nonce, signedJWS: signedJWS)
    }
}
