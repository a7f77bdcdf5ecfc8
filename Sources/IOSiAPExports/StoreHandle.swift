import CIOSiAP
import Foundation
import IOSiAPCore

/// What an `iosiap_store *` stands for: the core's store, the game's callback, the product handles C
/// holds, and in thread mode the library's delivery thread.
package final class StoreHandle: Sendable {
    package let store: PurchaseStore
    /// The local App Store, for the `iosiap_local_*` controls; nil for a StoreKit store.
    let localStore: LocalStoreSupport.Store?
    private let callback: EventCallback
    private let usesDeliveryThread: Bool
    /// Current product handles by id, and replaced ones, which C may still hold until close.
    private let products = Locked<(current: [String: ProductHandle], retired: [ProductHandle])>(([:], []))
    private let deliveryThread = Locked<EventDeliveryThread?>(nil)

    init(store: PurchaseStore, localStore: LocalStoreSupport.Store?, callback: EventCallback, usesDeliveryThread: Bool) {
        self.store = store
        self.localStore = localStore
        self.callback = callback
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

    /// Registers the handle and stores it in `out`, then, in thread mode, starts delivering: no callback
    /// runs before C holds the handle.
    func open(into out: UnsafeMutablePointer<OpaquePointer?>) {
        out.pointee = HandleRegistry.register(self)
        guard usesDeliveryThread else { return }
        let thread = EventDeliveryThread(store: store) { [self] in deliver($0) }
        deliveryThread.withLock { $0 = thread }
    }

    /// Delivers queued events on the calling thread (poll mode).
    func poll(limit: Int) throws(StoreError) -> Int {
        guard !usesDeliveryThread else {
            throw StoreError(.wrongState, "this store delivers events on its own thread (IOSIAP_DELIVERY_THREAD); do not poll it")
        }
        return store.poll(limit: limit) { deliver($0) }
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

    private func deliver(_ event: StoreEvent) {
        let arena = CStringArena()
        var cEvent = EventMarshalling.event(event, in: arena, verified: store.verifiesTransactions) { productHandle(for: $0) }
        withUnsafePointer(to: &cEvent) { callback($0) }
    }
}
