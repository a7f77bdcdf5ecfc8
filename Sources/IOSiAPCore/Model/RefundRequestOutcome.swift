/// How a refund request ended when it did not fail (StoreKit 2: `Transaction.RefundRequestStatus`;
/// C: `iosiap_refund_request_outcome`).
public enum RefundRequestOutcome: Sendable, Equatable {
    /// The user sent the request. Apple decides later: a refund granted reaches the game as `revoked`.
    case submitted
    /// The user closed the sheet without sending it. Not a failure.
    case cancelled
}
