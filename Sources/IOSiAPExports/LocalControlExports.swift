import CIOSiAP
import IOSiAPCore
#if IOSIAP_LOCAL_STORE
import IOSiAPLocalStore

// The local store's controls in C: convert and forward to LocalStore. Only on the platforms that have it
// (LocalStoreSupport.swift); elsewhere UnavailableExports.swift exports the same functions.

/// The local store behind a handle, or `wrongState` for a StoreKit store (every local control's, in this file and
/// beside it).
func localStore(_ store: OpaquePointer?) throws(StoreError) -> LocalStore {
    guard let local = try HandleRegistry.handle(store).localStore else {
        throw StoreError(.wrongState, "this store is not a local store: its controls do not apply")
    }
    return local
}

/// Runs a control on the local store behind `store`: `IOSIAP_OK`, or the status of what it threw.
private func withLocalStore(_ store: OpaquePointer?, _ control: (LocalStore) throws(StoreError) -> Void) -> CInt {
    withStatus { () throws(StoreError) in
        try control(try localStore(store))
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_set_ask_to_buy)
public func iosiap_local_set_ask_to_buy(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setAskToBuyEnabled(enabled != 0) }
}

@c(iosiap_local_set_notification_url)
public func iosiap_local_set_notification_url(_ store: OpaquePointer?, _ url: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        let text = try CStringInput.optional(url, "url", maximumLength: 2048)
        try localStore(store).setNotificationURL(text)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_pending_purchases)
public func iosiap_local_pending_purchases(_ store: OpaquePointer?, _ visit: iosiap_pending_callback?,
                                           _ userData: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let pending = try localStore(store).pendingPurchases()
        for purchase in pending {
            purchase.productID.withCString { visit?(purchase.id, $0, CInt(clamping: purchase.quantity), userData) }
        }
        return CInt(clamping: pending.count)
    }
}

@c(iosiap_local_approve_ask_to_buy)
public func iosiap_local_approve_ask_to_buy(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.approveAskToBuy(pendingID) }
}

@c(iosiap_local_decline_ask_to_buy)
public func iosiap_local_decline_ask_to_buy(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.declineAskToBuy(pendingID) }
}

@c(iosiap_local_set_simulated_error)
public func iosiap_local_set_simulated_error(_ store: OpaquePointer?, _ api: CInt, _ status: CInt) -> CInt {
    withStatus { () throws(StoreError) in
        guard let failable = FailableAPI(rawValue: api) else {
            throw StoreError(.invalidArgument, "api \(api) is not an iosiap_failable_api")
        }
        var code: StoreErrorCode?
        if status != IOSIAP_OK.rawValue {
            guard let known = StoreErrorCode(rawValue: status) else {
                throw StoreError(.invalidArgument, "status \(status) is not an iosiap_status")
            }
            code = known
        }
        try localStore(store).setSimulatedError(code, for: failable)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_set_purchase_cancelled)
public func iosiap_local_set_purchase_cancelled(_ store: OpaquePointer?, _ cancel: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setPurchaseDialogResponse(cancel != 0 ? .cancel : .confirm) }
}

@c(iosiap_local_refund)
public func iosiap_local_refund(_ store: OpaquePointer?, _ transactionID: UInt64, _ reason: CInt) -> CInt {
    withStatus { () throws(StoreError) in
        // The local store refunds as a user or a developer asks; a move to a bundle is StoreKit's alone.
        guard let why = RevocationReason(rawValue: reason), why != .upgradedToBundle else {
            throw StoreError(.invalidArgument, "reason \(reason) is neither 0 (other) nor 1 (an issue)")
        }
        try localStore(store).refund(transactionID: transactionID, reason: why)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_expire_subscription)
public func iosiap_local_expire_subscription(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.expireSubscription(productID: try CStringInput.productID(productID)) }
}

@c(iosiap_local_force_renewal)
public func iosiap_local_force_renewal(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.forceRenewal(productID: try CStringInput.productID(productID)) }
}

@c(iosiap_local_set_auto_renew)
public func iosiap_local_set_auto_renew(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?, _ enabled: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setAutoRenew(productID: try CStringInput.productID(productID), enabled: enabled != 0) }
}

@c(iosiap_local_set_time_rate)
public func iosiap_local_set_time_rate(_ store: OpaquePointer?, _ rate: CInt) -> CInt {
    withStatus { () throws(StoreError) in
        guard let timeRate = TimeRate(rawValue: Int(rate)) else {
            throw StoreError(.invalidArgument, "time rate \(rate) is not one of SKTestSession.TimeRate's values")
        }
        try localStore(store).setTimeRate(timeRate)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_set_storefront)
public func iosiap_local_set_storefront(_ store: OpaquePointer?, _ storefront: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setStorefront(try CStringInput.required(storefront, "storefront", maximumLength: 8)) }
}

@c(iosiap_local_set_locale)
public func iosiap_local_set_locale(_ store: OpaquePointer?, _ locale: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setLocale(try CStringInput.required(locale, "locale", maximumLength: 64)) }
}

@c(iosiap_local_buy)
public func iosiap_local_buy(_ outTransactionID: UnsafeMutablePointer<UInt64>?, _ store: OpaquePointer?,
                             _ productID: UnsafePointer<CChar>?, _ quantity: CInt) -> CInt {
    withStatus { () throws(StoreError) in
        let transaction = try localStore(store).buyProduct(try CStringInput.productID(productID), quantity: Int(quantity))
        outTransactionID?.pointee = transaction.id
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_local_request_purchase_intent)
public func iosiap_local_request_purchase_intent(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    iosiap_local_request_purchase_intent_with_offer(store, productID, nil)
}

@c(iosiap_local_request_purchase_intent_with_offer)
public func iosiap_local_request_purchase_intent_with_offer(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?,
                                                            _ offerID: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in
        try local.requestPurchaseIntent(productID: try CStringInput.productID(productID),
                                        offerID: try CStringInput.optional(offerID, "offer_id", maximumLength: 255))
    }
}

@c(iosiap_local_reset)
public func iosiap_local_reset(_ store: OpaquePointer?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.resetToDefaultState() }
}

@c(iosiap_local_sign_promotional_offer)
public func iosiap_local_sign_promotional_offer(_ out: UnsafeMutablePointer<iosiap_offer_signature>?, _ store: OpaquePointer?,
                                                _ productID: UnsafePointer<CChar>?, _ offerID: UnsafePointer<CChar>?,
                                                _ appAccountToken: UUIDText?) -> CInt {
    withStatus { () throws(StoreError) in
        let minimumSize = OutStruct.offerSignatureMinimumSize
        _ = try OutStruct.declaredSize(out, minimumSize: minimumSize, "iosiap_offer_signature")
        let signed = try localStore(store).signPromotionalOffer(
            productID: try CStringInput.productID(productID),
            offerID: try CStringInput.required(offerID, "offer_id", maximumLength: 255),
            appAccountToken: try CStringInput.uuid(appAccountToken, "app_account_token"))
        var result = iosiap_offer_signature()
        result.size = MemoryLayout<iosiap_offer_signature>.size
        try copy(signed.keyID, into: &result.key_id, "the catalog's key id")
        try copy(signed.nonce.uuidString.lowercased(), into: &result.nonce, "nonce")
        try copy(signed.signature.base64EncodedString(), into: &result.signature, "signature")
        result.timestamp_ms = signed.timestamp
        try OutStruct.write(result, to: out, minimumSize: minimumSize, "iosiap_offer_signature")
        return IOSIAP_OK.rawValue
    }
}

/// Copies `text` and its terminator into a fixed `char[N]` field of a C struct.
private func copy<Field>(_ text: String, into field: inout Field, _ name: String) throws(StoreError) {
    let bytes = Array(text.utf8)
    let fits = withUnsafeMutableBytes(of: &field) { buffer in
        guard bytes.count < buffer.count else { return false }
        buffer.copyBytes(from: bytes + [0])
        return true
    }
    guard fits else { throw StoreError(.stringTooLong, "\(name) is \(bytes.count) bytes; the field holds \(MemoryLayout<Field>.size - 1)") }
}

@c(iosiap_local_set_interrupted_purchases)
public func iosiap_local_set_interrupted_purchases(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setInterruptedPurchasesEnabled(enabled != 0) }
}

@c(iosiap_local_resolve_interrupted_purchase)
public func iosiap_local_resolve_interrupted_purchase(_ store: OpaquePointer?, _ pendingID: Int64) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.resolveInterruptedPurchase(pendingID) }
}

@c(iosiap_local_set_billing_issues)
public func iosiap_local_set_billing_issues(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setBillingIssuesEnabled(enabled != 0) }
}

@c(iosiap_local_set_billing_grace_period)
public func iosiap_local_set_billing_grace_period(_ store: OpaquePointer?, _ enabled: CInt) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.setBillingGracePeriodEnabled(enabled != 0) }
}

@c(iosiap_local_resolve_billing_issue)
public func iosiap_local_resolve_billing_issue(_ store: OpaquePointer?, _ productID: UnsafePointer<CChar>?) -> CInt {
    withLocalStore(store) { local throws(StoreError) in try local.resolveBillingIssue(productID: try CStringInput.productID(productID)) }
}
#endif
