import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// What an `iosiap_store *` stands for: the core's store, the game's callbacks, the product handles C
/// holds, and in thread mode the library's delivery thread.
package final class StoreHandle: Sendable {
    package let store: PurchaseStore
    /// The local App Store, for the `iosiap_local_*` controls; nil for a StoreKit store.
    let localStore: LocalStoreSupport.Store?
    private let callbacks: Callbacks
    private let usesDeliveryThread: Bool
    /// Current product handles by id, and replaced ones, which C may still hold until close.
    private let products = Locked<(current: [String: ProductHandle], retired: [ProductHandle])>(([:], []))
    private let deliveryThread = Locked<EventDeliveryThread?>(nil)
    private let inCallback = EventsInCallback()

    init(store: PurchaseStore, localStore: LocalStoreSupport.Store?, callbacks: Callbacks, usesDeliveryThread: Bool) {
        self.store = store
        self.localStore = localStore
        self.callbacks = callbacks
        self.usesDeliveryThread = usesDeliveryThread
    }

    /// Whether `delivery` (an `iosiap_delivery_mode`) asks for the delivery thread; anything but the two
    /// modes is refused.
    static func usesDeliveryThread(_ delivery: CInt) throws(StoreError) -> Bool {
        switch delivery {
        case CInt(IOSIAP_DELIVERY_POLL.rawValue): return false
        case CInt(IOSIAP_DELIVERY_THREAD.rawValue): return true
        default: throw StoreError(.invalidArgument, "delivery \(delivery) is neither IOSIAP_DELIVERY_POLL nor IOSIAP_DELIVERY_THREAD")
        }
    }

    /// Registers the handle, stores it in `out` and calls the game's `on_open`, then, in thread mode, starts
    /// delivering: no event reaches the game before C holds the handle and `on_open` (where the game registers
    /// the ledger's grants) has returned. Returns `IOSIAP_OK`, or the status of an open `on_open` refused (or
    /// closed the store in): the store is then closed before any event, `out` is NULL and the thread's last
    /// error message says why.
    func open(into out: UnsafeMutablePointer<OpaquePointer?>) -> CInt {
        let pointer = HandleRegistry.register(self)
        out.pointee = pointer
        if let refusal = callOnOpen(pointer) {
            out.pointee = nil
            return refusal
        }
        if usesDeliveryThread {
            let thread = EventDeliveryThread(handlingEventsOf: store) { [self] in deliver($0) }
            deliveryThread.withLock { $0 = thread }
        }
        return IOSIAP_OK.rawValue
    }

    /// Calls `on_open`; nil when the open goes on, else the status the open returns.
    private func callOnOpen(_ pointer: OpaquePointer) -> CInt? {
        let failuresBefore = LastError.count
        let answer = callbacks.opened(pointer)
        guard store.isOpen else {
            // iosiap_store_close from on_open, a caller error: it removed and closed the handle already.
            LastError.set("on_open closed the store it was opening (iosiap_store_close must not be called from it)")
            return IOSIAP_E_STORE_NOT_OPEN.rawValue
        }
        guard answer != IOSIAP_OK.rawValue else { return nil }
        let inside = LastError.count != failuresBefore ? "; the last call that failed in it: \(String(cString: LastError.message))" : ""
        HandleRegistry.remove(pointer)?.close()
        LastError.set("on_open refused the open (it returned \(answer)); the store was closed before any event\(inside)")
        return answer < 0 ? answer : IOSIAP_E_INVALID_ARGUMENT.rawValue
    }

    /// Delivers queued events on the calling thread (poll mode).
    func poll(limit: Int) throws(StoreError) -> Int {
        guard !usesDeliveryThread else {
            throw StoreError(.wrongState, "this store delivers events on its own thread (IOSIAP_DELIVERY_THREAD); do not poll it")
        }
        return store.deliverEvents(limit: limit) { deliver($0) }
    }

    /// `iosiap_event_not_handled`: the callback handling `event` says it could not; the event is then not noted
    /// told (a refund is told again at the next launch). `wrongState` unless `event` is being handed to it.
    func markNotHandled(_ event: UnsafePointer<iosiap_event>?) throws(StoreError) {
        guard let event else { throw StoreError(.invalidArgument, "event is NULL") }
        guard inCallback.markNotHandled(UnsafeRawPointer(event)) else {
            throw StoreError(.wrongState, "iosiap_event_not_handled is for the event on_event is handling, called from inside it")
        }
    }

    /// The handle C gets for a product; a product whose details changed gets a new handle.
    func productHandle(for product: StoreProduct) -> OpaquePointer {
        products.withLock { products in
            if let existing = products.current[product.id] {
                if existing.product == product { return existing.opaque }
                products.retired.append(existing)
            }
            let handle = ProductHandle(product)
            products.current[product.id] = handle
            return handle.opaque
        }
    }

    /// The handle of a loaded product.
    func loadedProduct(_ id: String) throws(StoreError) -> OpaquePointer {
        guard let product = store.product(id: id) else {
            throw StoreError(.unknownProduct, "product '\(id)' is not among the products loaded by a products request")
        }
        return productHandle(for: product)
    }

    /// Stops the store and waits (a while) for its worker thread to end, so that nothing of it runs after
    /// `iosiap_store_close`; in thread mode, waits until the delivery thread has ended: a callback in
    /// progress finishes, queued events are dropped (as in poll mode, where the handle is dead after close).
    /// Closing from the callback is a documented caller error; it does not wait for itself.
    func close() {
        store.closeAndWaitForWorker(timeout: .seconds(2))
        deliveryThread.withLock { $0 }?.waitUntilEnded()
    }

    /// Hands `event` to the game's callback; says whether it handled it (it did not call `iosiap_event_not_handled`).
    private func deliver(_ event: StoreEvent) -> Bool {
        let arena = CStringArena()
        var cEvent = EventMarshalling.event(event, in: arena, verified: store.verifiesTransactions) { productHandle(for: $0) }
        return withUnsafePointer(to: &cEvent) { pointer in
            inCallback.enter(UnsafeRawPointer(pointer))
            callbacks.event(pointer)
            return inCallback.leave(UnsafeRawPointer(pointer))
        }
    }
}
