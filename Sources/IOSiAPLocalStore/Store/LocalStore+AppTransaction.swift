#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// The App Transaction: signed for the game, and the app versions it carries.
extension LocalStore {
    public func appTransaction() async throws(StoreError) -> StoreAppTransaction {
        try failIfSimulated(.appTransaction, try currentSettings())
        return try signAppTransaction()
    }

    /// The App Transaction the game gets now, signed with the store's chain (LocalAppTransaction.swift); no
    /// simulated error applies (for the transaction manager and tests).
    public func signAppTransaction() throws(StoreError) -> StoreAppTransaction {
        let signedDate = now()
        let record = try state.withLock { state throws(StoreError) in try LocalAppTransaction.record(in: state.database, at: signedDate) }
        return try LocalAppTransaction.sign(record, signer: signer, environment: environment, at: signedDate)
    }

    /// Sets the app version the user first got, which App Transactions sign from now on, and the current
    /// one (`nil`: the same); kept in the state directory (LocalAppTransaction.swift).
    public func setOriginalAppVersion(_ version: String, appVersion: String? = nil) throws(StoreError) {
        try state.withLock { state throws(StoreError) in
            try LocalAppTransaction.setVersions(original: version, current: appVersion, in: state.database, at: now())
        }
    }
}
