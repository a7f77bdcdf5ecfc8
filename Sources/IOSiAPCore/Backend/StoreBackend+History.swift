extension StoreBackend {
    /// A store that keeps no history (a test double) cannot list it.
    public func transactionHistory() async throws(StoreError) -> [StoreTransaction] {
        throw StoreError(.unsupportedPlatform, "this store keeps no transaction history")
    }

    /// A store that knows no subscription groups (a test double) cannot tell.
    public func isEligibleForIntroOffer(groupID: String) async throws(StoreError) -> Bool {
        throw StoreError(.unsupportedPlatform, "this store cannot tell introductory offer eligibility")
    }
}
