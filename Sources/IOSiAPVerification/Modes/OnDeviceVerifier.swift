#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPSignedData

/// Verifies transactions on the device: the JWS each carries, by Apple's algorithm (`SignedDataVerifier`),
/// and that every field the game or the grant ledger reads is the signed one (ids, product, type, quantity,
/// dates, revocation, token, environment, storefront, ownership, reason, group, offer, and the grace
/// period's end from the signed renewal info). A transaction that says anything else fails.
public struct OnDeviceVerifier: TransactionVerifier {
    public let verifier: SignedDataVerifier

    public init(_ verifier: SignedDataVerifier) {
        self.verifier = verifier
    }

    public func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        guard let jws = transaction.signedJWS else {
            return .failed(StoreError(.verificationInvalidFormat, "transaction \(transaction.id) carries no signed JWS"))
        }
        do {
            let payload = try verifier.verifyTransaction(jws)
            if let difference = payload.firstDifference(from: transaction) {
                return .failed(StoreError(.verificationInvalidSignature,
                                          "transaction \(transaction.id) is not what its signed JWS says (\(difference))"))
            }
            if let graceEnd = transaction.gracePeriodExpirationDate {
                guard let signedRenewal = transaction.signedRenewalInfo else {
                    return .failed(StoreError(.verificationInvalidSignature,
                                              "transaction \(transaction.id) has a grace period but no signed renewal info"))
                }
                let renewal = try verifier.verifyRenewalInfo(signedRenewal)
                guard renewal.originalTransactionId == String(transaction.originalID),
                      let signedEnd = renewal.gracePeriodExpiresDate,
                      abs(graceEnd.timeIntervalSince1970 * 1000 - signedEnd.value) < 1 else {
                    return .failed(StoreError(.verificationInvalidSignature,
                                              "transaction \(transaction.id)'s grace period is not the one its signed renewal info says"))
                }
            }
            return .verified
        } catch {
            return .failed(error)
        }
    }
}
