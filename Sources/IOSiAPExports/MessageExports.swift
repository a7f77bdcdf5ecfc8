import CIOSiAP
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
#endif

// App Store messages in C: showing one the game was told of (PurchaseStore.displayMessage), and the local
// store's control that raises one (LocalStore.sendMessage), which answers IOSIAP_E_UNSUPPORTED_PLATFORM where
// the library has no local store (iOS, tvOS, visionOS).

@c(iosiap_display_message)
public func iosiap_display_message(_ store: OpaquePointer?, _ messageID: UnsafePointer<CChar>?,
                                   _ uiContext: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let purchaseStore = try HandleRegistry.handle(store).store
        try purchaseStore.displayMessage(id: try CStringInput.required(messageID, "message_id", maximumLength: 64),
                                         uiContext: uiContext.map(UIContext.init))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_send_message)
public func iosiap_local_send_message(_ store: OpaquePointer?, _ reason: CInt, _ productID: UnsafePointer<CChar>?,
                                      _ offerID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        #if IOSIAP_LOCAL_STORE
        guard let local = try HandleRegistry.handle(store).localStore else {
            throw StoreError(.wrongState, "this store is not a local store: its controls do not apply")
        }
        guard let messageReason = StoreMessage.Reason(rawValue: reason) else {
            throw StoreError(.invalidArgument, "reason \(reason) is not an iosiap_message_reason (0...3)")
        }
        try local.sendMessage(messageReason, productID: try CStringInput.productID(productID),
                              offerID: try CStringInput.optional(offerID, "offer_id", maximumLength: 255))
        return IOSIAP_OK.rawValue
        #else
        throw LocalStoreSupport.unavailable("iosiap_local_send_message")
        #endif
    }
}
