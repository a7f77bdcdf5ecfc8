/// How a subscription goes on after its current period: what its signed renewal info reports.
struct RenewalState: Sendable, Equatable {
    /// Whether it renews (`autoRenewStatus`).
    var autoRenew = true
    /// The product it renews into, if not the current one (a downgrade waiting for the renewal).
    var renewProductID: String?
    /// Whether its last renewal failed to charge (`isInBillingRetryPeriod`).
    var inBillingRetry = false
}
