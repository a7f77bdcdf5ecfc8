import IOSiAPCore

/// Where the local store's updates go: the stream a listening game reads (`LocalStore.updates()`), or nowhere once
/// the store was told that no game will read it (`LocalStore.discardUpdates()`): the transaction manager's
/// `serve` runs for hours, and an unread stream would keep every update in memory.
struct LocalStoreUpdateSink: Sendable {
    let continuation: AsyncStream<StoreUpdate>.Continuation
    let discards = Locked(false)

    func yield(_ update: StoreUpdate) {
        guard !discards.withLock({ $0 }) else { return }
        continuation.yield(update)
    }

    func finish() {
        continuation.finish()
    }
}
