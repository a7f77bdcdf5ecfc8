import Foundation
import IOSiAPCore

extension ScriptedBackend {
    /// The App Transaction every scripted backend answers with: an app first bought at version 1.0.
    public static let sampleAppTransaction = StoreAppTransaction(
        environment: .sandbox, bundleID: "com.iosiap.tests", appVersion: "2.0", originalAppVersion: "1.0",
        originalPurchaseDate: Date(timeIntervalSince1970: 1_600_000_000), signedDate: Date(timeIntervalSince1970: 1_700_000_000),
        appTransactionID: "1000", originalPlatform: "iOS", signedJWS: "header.payload.signature")

    public func appTransaction() async throws(StoreError) -> StoreAppTransaction {
        Self.sampleAppTransaction
    }
}
