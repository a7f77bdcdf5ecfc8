import CIOSiAP
import IOSiAPCore

// The App Store's sheets where the user asks for a refund or manages subscriptions, in C: each queues its work
// (PurchaseStore.beginRefundRequest, .showManageSubscriptions) and ends in one event.

@c(iosiap_begin_refund_request)
public func iosiap_begin_refund_request(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                        _ transactionID: UInt64, _ uiContext: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let requestID = try HandleRegistry.handle(store).store.beginRefundRequest(transactionID: transactionID,
                                                                                  uiContext: uiContext.map(UIContext.init))
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_show_manage_subscriptions)
public func iosiap_show_manage_subscriptions(_ outRequestID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                             _ uiContext: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let requestID = try HandleRegistry.handle(store).store.showManageSubscriptions(uiContext: uiContext.map(UIContext.init))
        outRequestID?.pointee = requestID
        return IOSIAP_OK.rawValue
    }
}
