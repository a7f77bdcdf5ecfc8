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
    /// Whether a transaction may be granted: it passed, or nothing verifies (`nil`).
    var passed: Bool {
        switch self {
        case .verified, nil: true
        case .failed, .retryLater: false
        }
    }
}

/// Checks transactions before the game hears of them: on the device (the JWS and its certificate chain),
/// or on the developer's server. With a verifier, a `purchased` event means "completed and verified" and a
/// transaction that fails becomes `verificationFailed`, neither granted nor finished.
public protocol TransactionVerifier: Sendable {
    /// Verifies one transaction; called on the store's worker, never on the game's thread.
    func verify(_ transaction: StoreTransaction) async -> VerificationOutcome
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
