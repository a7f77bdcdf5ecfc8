import IOSiAPCore

/// A verifier whose outcomes a test scripts, per call; after the script, transactions verify.
public final class ScriptedVerifier: TransactionVerifier {
    private let outcomes: Locked<[VerificationOutcome]>
    private let calls = Locked<[UInt64]>([])

    public init(_ outcomes: [VerificationOutcome] = []) {
        self.outcomes = Locked(outcomes)
    }

    public func verify(_ transaction: StoreTransaction) async -> VerificationOutcome {
        calls.withLock { $0.append(transaction.id) }
        return outcomes.withLock { $0.isEmpty ? .verified : $0.removeFirst() }
    }

    /// Adds outcomes for the next calls.
    public func script(_ next: VerificationOutcome...) {
        outcomes.withLock { $0 += next }
    }

    /// The ids of the transactions verified, in order.
    public var verifiedIDs: [UInt64] { calls.withLock { $0 } }
}
