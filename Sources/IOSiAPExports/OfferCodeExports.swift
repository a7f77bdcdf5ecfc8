import CIOSiAP
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore
#endif

// Offer codes in C: the App Store's redemption sheet (PurchaseStore.presentOfferCodeRedeemSheet), and the local
// store's control that plays the user redeeming a code (LocalStore.redeemOfferCode), which answers
// IOSIAP_E_UNSUPPORTED_PLATFORM where the library has no local store (iOS, tvOS, visionOS).

@c(iosiap_present_offer_code_redeem_sheet)
public func iosiap_present_offer_code_redeem_sheet(_ store: OpaquePointer?, _ uiContext: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        try HandleRegistry.handle(store).store.presentOfferCodeRedeemSheet(uiContext: uiContext.map(UIContext.init))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_redeem_offer_code)
public func iosiap_local_redeem_offer_code(_ outTransactionID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                                           _ productID: UnsafePointer<CChar>?, _ offerCode: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        #if IOSIAP_LOCAL_STORE
        guard let local = try HandleRegistry.handle(store).localStore else {
            throw StoreError(.wrongState, "this store is not a local store: its controls do not apply")
        }
        let transaction = try local.redeemOfferCode(productID: try CStringInput.productID(productID),
                                                    referenceName: try CStringInput.required(offerCode, "offer_code", maximumLength: 255))
        outTransactionID?.pointee = transaction.id
        return IOSIAP_OK.rawValue
        #else
        throw LocalStoreSupport.unavailable("iosiap_local_redeem_offer_code")
        #endif
    }
}
