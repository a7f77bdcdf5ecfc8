import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

// The store's C functions: each converts its arguments, calls the core, and turns a thrown StoreError
// into a status code and the thread's last error message. No logic of their own. The local App Store's
// are in LocalStoreExports.swift and LocalControlExports.swift.

@c(iosiap_store_close)
public func iosiap_store_close(_ store: OpaquePointer?) {
    HandleRegistry.remove(store)?.close()
}

@c(iosiap_request_products)
public func iosiap_request_products(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                    _ productIDs: UnsafePointer<UnsafePointer<CChar>?>?, _ count: UInt) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        guard count > 0 else { throw StoreError(.invalidArgument, "count is 0: no product ids to request") }
        guard count <= UInt(IOSIAP_MAX_PRODUCTS_PER_REQUEST) else {
            throw StoreError(.invalidArgument, "count \(count) is above \(IOSIAP_MAX_PRODUCTS_PER_REQUEST) ids per request")
        }
        guard let productIDs else { throw StoreError(.invalidArgument, "product_ids is NULL but count is \(count)") }
        var ids: [String] = []
        for index in 0..<Int(count) {
            ids.append(try CStringInput.productID(productIDs[index], "product_ids[\(index)]"))
        }
        let requestID = try handle.store.requestProducts(ids)
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_request_payment)
public func iosiap_request_payment(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                   _ productID: UnsafePointer<CChar>?, _ quantity: CInt,
                                   _ appAccountToken: UUIDText?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        let id = try CStringInput.productID(productID)
        let token = try CStringInput.uuid(appAccountToken, "app_account_token")
        let requestID = try handle.store.requestPayment(productID: id, quantity: Int(quantity), appAccountToken: token)
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_request_payment_with_options)
public func iosiap_request_payment_with_options(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                                _ productID: UnsafePointer<CChar>?,
                                                _ options: UnsafePointer<iosiap_payment_options>?) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        let request = try PaymentOptions.request(productID: try CStringInput.productID(productID), options)
        let requestID = try handle.store.requestPayment(request)
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}

/// A C string holding a UUID, as `iosiap_request_payment` takes it.
public typealias UUIDText = UnsafePointer<CChar>

@c(iosiap_request_restore)
public func iosiap_request_restore(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let requestID = try HandleRegistry.handle(store).store.requestRestore()
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_finish_transaction)
public func iosiap_finish_transaction(_ store: OpaquePointer?, _ transactionID: UInt64) -> CInt {
    withStatus { () throws(StoreError) in
        try HandleRegistry.handle(store).store.finish(transactionID: transactionID)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_event_not_handled)
public func iosiap_event_not_handled(_ store: OpaquePointer?, _ event: UnsafePointer<iosiap_event>?) -> CInt {
    withStatus { () throws(StoreError) in
        try HandleRegistry.handle(store).markNotHandled(event)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_poll)
public func iosiap_poll(_ store: OpaquePointer?, _ maxEvents: UInt) -> CInt {
    withStatus { () throws(StoreError) in
        let handle = try HandleRegistry.handle(store)
        let limit = maxEvents == 0 ? Int(CInt.max) : Int(min(maxEvents, UInt(CInt.max)))
        return CInt(clamping: try handle.poll(limit: limit))
    }
}

@c(iosiap_store_product)
public func iosiap_store_product(_ out: UnsafeMutablePointer<OpaquePointer?>?, _ store: OpaquePointer?,
                                 _ productID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        let handle = try HandleRegistry.handle(store)
        out.pointee = try handle.loadedProduct(try CStringInput.productID(productID))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_is_entitled)
public func iosiap_is_entitled(_ outEntitled: UnsafeMutablePointer<CInt>?, _ store: OpaquePointer?,
                               _ productID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outEntitled else { throw StoreError(.invalidArgument, "out_entitled is NULL") }
        let handle = try HandleRegistry.handle(store)
        outEntitled.pointee = try handle.store.isEntitled(to: try CStringInput.productID(productID)) ? 1 : 0
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_store_verifies)
public func iosiap_store_verifies(_ outVerifies: UnsafeMutablePointer<CInt>?, _ store: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outVerifies else { throw StoreError(.invalidArgument, "out_verifies is NULL") }
        outVerifies.pointee = try HandleRegistry.handle(store).store.verifiesTransactions ? 1 : 0
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_entitlements)
public func iosiap_entitlements(_ store: OpaquePointer?, _ visit: iosiap_transaction_callback?,
                                _ userData: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let entitlements = try HandleRegistry.handle(store).store.currentEntitlements()
        for transaction in entitlements {
            let arena = CStringArena()
            var cTransaction = EventMarshalling.transaction(transaction, in: arena)
            withUnsafePointer(to: &cTransaction) { visit?($0, userData) }
        }
        return CInt(clamping: entitlements.count)
    }
}

@c(iosiap_can_make_payments)
public func iosiap_can_make_payments(_ store: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        try HandleRegistry.handle(store).store.canMakePayments ? 1 : 0
    }
}
