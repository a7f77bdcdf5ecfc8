import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport

extension PurchaseStore {
    /// `pollSettled()` once `local`, this store's backend, has looked at its state (what its watcher does every
    /// `externalChangeInterval`: time moving on, other processes' writes) in a look that started after the call: the
    /// positive sign that nothing more comes of what happened before, where the local store's own clock or another
    /// process (the transaction manager) may make news. No time is waited in the hope that a tick came.
    func pollSettled(after local: LocalStore) async -> [StoreEvent] {
        await local.lookNow()
        return await pollSettled()
    }
}
