import IOSiAPCore

/// Verifies transactions on the device: the JWS each carries, by Apple's algorithm (`SignedDataVerifier`),
/// and that the JWS is about this very transaction.
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
            guard payload.transactionId == String(transaction.id), payload.productId == transaction.productID else {
                return .failed(StoreError(.verificationInvalidSignature,
                                          "the signed JWS is about transaction \(payload.transactionId ?? "?") of "
                                              + "'\(payload.productId ?? "?")', not \(transaction.id) of '\(transaction.productID)'"))
            }
            return .verified
        } catch {
            return .failed(error)
        }
    }
}
