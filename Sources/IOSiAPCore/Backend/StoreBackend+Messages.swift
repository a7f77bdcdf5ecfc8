extension StoreBackend {
    /// A store that delivers no messages (a test double) has none to show.
    public func displayMessage(id: String, uiContext: UIContext?) throws(StoreError) {
        throw StoreError(.invalidArgument, "no App Store message '\(id)': this store delivers none")
    }
}
