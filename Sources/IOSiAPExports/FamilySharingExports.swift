import CIOSiAP
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
#endif

// Family Sharing's controls in C: the local store plays a family member who shares a purchase, then stops.
// Where the platform has no local store they answer IOSIAP_E_UNSUPPORTED_PLATFORM.

@c(iosiap_local_buy_family_shared)
public func iosiap_local_buy_family_shared(_ outTransactionID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                           _ productID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        #if IOSIAP_LOCAL_STORE
        let transaction = try localStore(store).buyFamilySharedProduct(try CStringInput.productID(productID))
        outTransactionID?.pointee = transaction.id
        return IOSIAP_OK.rawValue
        #else
        throw LocalStoreSupport.unavailable("iosiap_local_buy_family_shared")
        #endif
    }
}

@c(iosiap_local_stop_family_sharing)
public func iosiap_local_stop_family_sharing(_ store: OpaquePointer?, _ transactionID: UInt64) -> CInt {
    withStatus { () throws(StoreError) in
        #if IOSIAP_LOCAL_STORE
        try localStore(store).stopFamilySharing(transactionID: transactionID)
        return IOSIAP_OK.rawValue
        #else
        throw LocalStoreSupport.unavailable("iosiap_local_stop_family_sharing")
        #endif
    }
}
