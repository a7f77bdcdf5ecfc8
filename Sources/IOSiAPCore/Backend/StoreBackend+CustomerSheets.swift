extension StoreBackend {
    /// A store without a refund request sheet (a test double) refuses it.
    public func beginRefundRequest(transactionID: UInt64, uiContext: UIContext?) async throws(StoreError) -> RefundRequestOutcome {
        throw StoreError(.unsupportedPlatform, "this store has no refund request sheet")
    }

    /// A store without a manage subscriptions sheet (a test double) refuses it.
    public func showManageSubscriptions(uiContext: UIContext?) async throws(StoreError) {
        throw StoreError(.unsupportedPlatform, "this store has no manage subscriptions sheet")
    }
}
