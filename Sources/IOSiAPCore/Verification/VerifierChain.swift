/// Several verifiers, all of which must agree: the first that does not verify a transaction decides.
/// (With StoreKit, StoreKit's own verdict, then the developer's server.)
public struct VerifierChain: TransactionVerifier {
    public let verifiers: [any TransactionVerifier]

    public init(_ verifiers: [any TransactionVerifier]) {
        self.verifiers = verifiers
    }

    public func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        for verifier in verifiers {
            let outcome = await verifier.verify(transaction)
            if outcome != .verified { return outcome }
        }
        return .verified
    }

    public func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict) async -> VerificationOutcome {
        for verifier in verifiers {
            let outcome = await verifier.verify(transaction, recorded: recorded)
            if outcome != .verified { return outcome }
        }
        return .verified
    }
}
