import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore

// What the store knows about the user, in C: PurchaseStore's async queries, each waited for on the calling
// thread (BlockingCall.swift), as iosiap_app_transaction is.

@c(iosiap_storefront)
public func iosiap_storefront(_ out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ store: OpaquePointer?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out_storefront is NULL") }
        out.pointee = nil
        let purchaseStore = try HandleRegistry.handle(store).store
        let storefront = try waitFor { () async throws(StoreError) in try await purchaseStore.storefront() }
        out.pointee = strdup(storefront)
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_subscription_status)
public func iosiap_subscription_status(_ out: UnsafeMutablePointer<UnsafeMutablePointer<iosiap_subscription_status_info>?>?,
                                       _ store: OpaquePointer?, _ groupID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let out else { throw StoreError(.invalidArgument, "out is NULL") }
        out.pointee = nil
        let purchaseStore = try HandleRegistry.handle(store).store
        let group = try CStringInput.productID(groupID, "group_id")  // group ids follow product ids' rules
        guard let status = try waitFor({ () async throws(StoreError) in try await purchaseStore.subscriptionStatus(groupID: group) }) else {
            return IOSIAP_OK.rawValue  // never subscribed in the group
        }
        out.pointee = OwnedCopy.make { arena in
            iosiap_subscription_status_info(
                size: MemoryLayout<iosiap_subscription_status_info>.size, state: status.state.rawValue,
                transaction: arena.value(EventMarshalling.transaction(status.transaction, in: arena)),
                will_auto_renew: status.willAutoRenew ? 1 : 0, auto_renew_product_id: arena.copy(status.autoRenewProductID),
                expiration_reason: status.expirationReason?.rawValue ?? 0, is_in_billing_retry: status.isInBillingRetry ? 1 : 0,
                grace_period_expiration_date_ms: EventMarshalling.milliseconds(status.gracePeriodExpirationDate),
                signed_renewal_info: arena.copy(status.signedRenewalInfo))
        }
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_subscription_status_free)
public func iosiap_subscription_status_free(_ status: UnsafeMutablePointer<iosiap_subscription_status_info>?) {
    OwnedCopy.free(status)
}

@c(iosiap_is_eligible_for_intro_offer)
public func iosiap_is_eligible_for_intro_offer(_ outEligible: UnsafeMutablePointer<CInt>?, _ store: OpaquePointer?,
                                               _ groupID: UnsafePointer<CChar>?) -> CInt {
    withStatus { () throws(StoreError) in
        guard let outEligible else { throw StoreError(.invalidArgument, "out_eligible is NULL") }
        let purchaseStore = try HandleRegistry.handle(store).store
        let group = try CStringInput.productID(groupID, "group_id")  // group ids follow product ids' rules
        let eligible = try waitFor { () async throws(StoreError) in try await purchaseStore.isEligibleForIntroOffer(groupID: group) }
        outEligible.pointee = eligible ? 1 : 0
        return IOSIAP_OK.rawValue
    }
}

@c(iosiap_transaction_history)
public func iosiap_transaction_history(_ store: OpaquePointer?, _ visit: iosiap_transaction_callback?,
                                       _ userData: UnsafeMutableRawPointer?) -> CInt {
    withStatus { () throws(StoreError) in
        let purchaseStore = try HandleRegistry.handle(store).store
        let history = try waitFor { () async throws(StoreError) in try await purchaseStore.transactionHistory() }
        for transaction in history {
            let arena = CStringArena()
            var cTransaction = EventMarshalling.transaction(transaction, in: arena)
            withUnsafePointer(to: &cTransaction) { visit?($0, userData) }
        }
        return CInt(clamping: history.count)
    }
}
