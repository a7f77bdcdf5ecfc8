import CIOSiAP
import IOSiAPCore

// Where the library is built without the local App Store and OpenSSL (iOS, tvOS, visionOS; see
// LocalStoreSupport.swift), the functions that need them still exist, so that the header and the exported
// symbols are the same on every platform, and each answers IOSIAP_E_UNSUPPORTED_PLATFORM whatever its
// arguments, setting its out-pointer to NULL where it returns one. The same signatures as
// LocalStoreExports.swift, LocalControlExports.swift and VerificationExports.swift: scripts/check-apple-graph.sh
// fails on a missing or extra symbol and compares these declarations with iosiap.h.
#if !IOSIAP_LOCAL_STORE

private func unavailable(_ function: String) -> CInt {
    withStatus { () throws(StoreError) in throw LocalStoreSupport.unavailable(function) }
}

@c(iosiap_store_open_local)
public func iosiap_store_open_local(_ out: UnsafeMutablePointer<OpaquePointer?>?,
                                    _ options: UnsafePointer<iosiap_local_store_options>?,
                                    _ callbacks: UnsafePointer<iosiap_callbacks>?) -> CInt {
    out?.pointee = nil
    return unavailable("iosiap_store_open_local")
}

@c(iosiap_verify_transaction)
public func iosiap_verify_transaction(_ outPayloadJSON: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                                      _ jws: UnsafePointer<CChar>?, _ trustedRootDER: UnsafePointer<UInt8>?,
                                      _ trustedRootDERLength: UInt, _ bundleID: UnsafePointer<CChar>?,
                                      _ environment: UnsafePointer<CChar>?) -> CInt {
    outPayloadJSON?.pointee = nil
    return unavailable("iosiap_verify_transaction")
}

@c(iosiap_local_set_ask_to_buy)
public func iosiap_local_set_ask_to_buy(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    unavailable("iosiap_local_set_ask_to_buy")
}

@c(iosiap_local_set_notification_url)
public func iosiap_local_set_notification_url(_ store: OpaquePointer?, _ url: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_set_notification_url")
}

@c(iosiap_local_pending_purchases)
public func iosiap_local_pending_purchases(_ store: OpaquePointer?, _ visit: iosiap_pending_callback?,
                                           _ userData: UnsafeMutableRawPointer?) -> CInt {
    unavailable("iosiap_local_pending_purchases")
}

@c(iosiap_local_approve_ask_to_buy)
public func iosiap_local_approve_ask_to_buy(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    unavailable("iosiap_local_approve_ask_to_buy")
}

@c(iosiap_local_decline_ask_to_buy)
public func iosiap_local_decline_ask_to_buy(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    unavailable("iosiap_local_decline_ask_to_buy")
}

@c(iosiap_local_set_simulated_error)
public func iosiap_local_set_simulated_error(_ store: OpaquePointer?, _ api: CInt, _ status: CInt) -> CInt {
    unavailable("iosiap_local_set_simulated_error")
}

@c(iosiap_local_set_purchase_cancelled)
public func iosiap_local_set_purchase_cancelled(_ store: OpaquePointer?, _ cancel: CInt) -> CInt {
    unavailable("iosiap_local_set_purchase_cancelled")
}

@c(iosiap_local_refund)
public func iosiap_local_refund(_ store: OpaquePointer?, _ transactionID: UInt64, _ reason: CInt) -> CInt {
    unavailable("iosiap_local_refund")
}

@c(iosiap_local_expire_subscription)
public func iosiap_local_expire_subscription(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_expire_subscription")
}

@c(iosiap_local_force_renewal)
public func iosiap_local_force_renewal(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_force_renewal")
}

@c(iosiap_local_set_auto_renew)
public func iosiap_local_set_auto_renew(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?, _ enabled: CInt) -> CInt {
    unavailable("iosiap_local_set_auto_renew")
}

@c(iosiap_local_set_time_rate)
public func iosiap_local_set_time_rate(_ store: OpaquePointer?, _ rate: CInt) -> CInt {
    unavailable("iosiap_local_set_time_rate")
}

@c(iosiap_local_set_storefront)
public func iosiap_local_set_storefront(_ store: OpaquePointer?, _ storefront: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_set_storefront")
}

@c(iosiap_local_set_locale)
public func iosiap_local_set_locale(_ store: OpaquePointer?, _ locale: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_set_locale")
}

@c(iosiap_local_buy)
public func iosiap_local_buy(_ outTransactionID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                             _ productID: UnsafePointer<CChar>?, _ quantity: CInt) -> CInt {
    unavailable("iosiap_local_buy")
}

@c(iosiap_local_request_purchase_intent)
public func iosiap_local_request_purchase_intent(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_request_purchase_intent")
}

@c(iosiap_local_request_purchase_intent_with_offer)
public func iosiap_local_request_purchase_intent_with_offer(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?,
                                                            _ offerID: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_request_purchase_intent_with_offer")
}

@c(iosiap_local_reset)
public func iosiap_local_reset(_ store: OpaquePointer?) -> CInt {
    unavailable("iosiap_local_reset")
}

@c(iosiap_local_sign_promotional_offer)
public func iosiap_local_sign_promotional_offer(_ out: UnsafeMutablePointer<iosiap_offer_signature>?, _ store: OpaquePointer?,
                                                _ productID: UnsafePointer<CChar>?, _ offerID: UnsafePointer<CChar>?,
                                                _ appAccountToken: UUIDText?) -> CInt {
    unavailable("iosiap_local_sign_promotional_offer")  // nothing is written to *out
}

@c(iosiap_local_set_interrupted_purchases)
public func iosiap_local_set_interrupted_purchases(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    unavailable("iosiap_local_set_interrupted_purchases")
}

@c(iosiap_local_resolve_interrupted_purchase)
public func iosiap_local_resolve_interrupted_purchase(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    unavailable("iosiap_local_resolve_interrupted_purchase")
}

@c(iosiap_local_set_billing_issues)
public func iosiap_local_set_billing_issues(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    unavailable("iosiap_local_set_billing_issues")
}

@c(iosiap_local_set_billing_grace_period)
public func iosiap_local_set_billing_grace_period(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    unavailable("iosiap_local_set_billing_grace_period")
}

@c(iosiap_local_resolve_billing_issue)
public func iosiap_local_resolve_billing_issue(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    unavailable("iosiap_local_resolve_billing_issue")
}
#endif
