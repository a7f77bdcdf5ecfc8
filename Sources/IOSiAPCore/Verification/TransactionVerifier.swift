/// What a verifier concluded about a transaction.
public enum VerificationOutcome: Sendable, Equatable {
    /// The signature and the transaction are genuine: it may be granted.
    case verified
    /// It is not genuine (or not this app's): never grant it; it stays unfinished.
    case failed(StoreError)
    /// The check could not complete (the network): it stays queued and is checked again later.
    case retryLater(StoreError)
}

extension VerificationOutcome? {
    /// What the journal keeps of this verdict.
    var recorded: RecordedVerdict {
        switch self {
        case nil: .none
        case .verified: .verified
        case .failed, .retryLater: .notVerified
        }
    }
}

/// A verifier's verdict on a transaction, as the journal kept it from an earlier launch.
public enum RecordedVerdict: Sendable, Equatable {
    /// Recorded while nothing verified transactions (or before the journal kept verdicts).
    case none
    /// A verifier verified it.
    case verified
    /// It failed verification, or was still waiting for it.
    case notVerified
}

/// Checks transactions before the game hears of them: on the device (the JWS and its certificate chain),
/// or on the developer's server. With a verifier, a `purchased` event means "completed and verified" and a
/// transaction that fails becomes `verificationFailed`, neither granted nor finished.
public protocol TransactionVerifier: Sendable {
    /// Verifies one transaction; called on the store's worker, never on the game's thread.
    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome

    /// Verifies a transaction the journal delivers again at launch, with the verdict it kept from an
    /// earlier launch. By default the transaction is verified again like any other; a verifier that cannot
    /// be asked again (StoreKit gives its verdict only as it hands a transaction over) decides with the
    /// recorded verdict when it has none of its own.
    func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict) async -> VerificationOutcome
}

extension TransactionVerifier {
    public func verify(_ transaction: StoreTransaction, recorded: RecordedVerdict) async -> VerificationOutcome {
        await verify(transaction)
    }
}

/// How long the store waits before checking again a transaction whose verification could not complete:
/// `initial`, doubling each time, at most `maximum`.
public struct VerificationRetryPolicy: Sendable {
    public var initial: Duration
    public var maximum: Duration

    public init(initial: Duration = .seconds(2), maximum: Duration = .seconds(300)) {
        self.initial = initial
        self.maximum = maximum
    }

    /// The delay before attempt `attempt` (1 for the first retry).
    public func delay(before attempt: Int) -> Duration {
        var delay = initial
        for _ in 1..<max(attempt, 1) where delay < maximum { delay *= 2 }
        return min(delay, maximum)
    }
}
