extension StoreBackend {
    /// A store without an offer code sheet (a test double) refuses it.
    public func presentOfferCodeRedeemSheet(uiContext: UIContext?) throws(StoreError) {
        throw StoreError(.unsupportedPlatform, "this store has no offer code redemption sheet")
    }
}
