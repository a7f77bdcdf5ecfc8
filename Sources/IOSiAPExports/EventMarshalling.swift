import CIOSiAP
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// Turns core values into the C structs of `iosiap.h`. Everything made lives in the arena, that is until
/// the callback returns.
enum EventMarshalling {
    static func transaction(_ transaction: StoreTransaction, in arena: CStringArena) -> iosiap_transaction {
        iosiap_transaction(
            size: MemoryLayout<iosiap_transaction>.size,
            id: transaction.id,
            original_id: transaction.originalID,
            product_id: arena.copy(transaction.productID),
            product_type: transaction.productType.rawValue,
            quantity: CInt(clamping: transaction.quantity),
            purchase_date_ms: milliseconds(transaction.purchaseDate),
            original_purchase_date_ms: milliseconds(transaction.originalPurchaseDate),
            expiration_date_ms: milliseconds(transaction.expirationDate),
            revocation_date_ms: milliseconds(transaction.revocationDate),
            revocation_reason: transaction.revocationReason?.rawValue ?? -1,
            app_account_token: arena.copy(transaction.appAccountToken?.uuidString),
            environment: constant(transaction.environment),
            storefront: arena.copy(transaction.storefront),
            ownership_type: constant(transaction.ownershipType),
            subscription_group_id: arena.copy(transaction.subscriptionGroupID),
            signed_jws: arena.copy(transaction.signedJWS),
            signed_renewal_info: arena.copy(transaction.signedRenewalInfo),
            reason: constant(transaction.reason),
            offer_type: transaction.offer.map { $0.type.rawValue } ?? 0,
            offer_id: arena.copy(transaction.offer?.id))
    }

    /// The C event for `event`; products are the store's handles, the rest is in the arena.
    /// `verified`: the store verifies transactions, so those it delivers passed.
    static func event(_ event: StoreEvent, in arena: CStringArena, verified: Bool,
                      productHandle: (StoreProduct) -> OpaquePointer) -> iosiap_event {
        var result = iosiap_event()
        result.size = MemoryLayout<iosiap_event>.size
        result.request_id = event.requestID ?? 0
        result.status = IOSIAP_OK.rawValue
        func kind(_ kind: iosiap_event_kind) -> CInt { Int32(kind.rawValue) }
        func fail(_ error: StoreError) {
            result.status = error.code.rawValue
            result.message = arena.copy(error.message)
        }
        func carry(_ transaction: StoreTransaction, passedVerification: Bool = verified) {
            result.verified = passedVerification ? 1 : 0
            result.product_id = arena.copy(transaction.productID)
            result.quantity = CInt(clamping: transaction.quantity)
            result.transaction = arena.value(Self.transaction(transaction, in: arena))
        }
        switch event {
        case .refundRequestFinished(_, let transactionID, let outcome):
            result.kind = kind(IOSIAP_EVENT_REFUND_REQUEST_FINISHED)
            result.refund_transaction_id = transactionID
            switch outcome {
            case .success(.submitted): result.refund_request_outcome = Int32(IOSIAP_REFUND_REQUEST_SUBMITTED.rawValue)
            case .success(.cancelled): result.refund_request_outcome = Int32(IOSIAP_REFUND_REQUEST_CANCELLED.rawValue)
            case .failure(let error):
                result.refund_request_outcome = Int32(IOSIAP_REFUND_REQUEST_FAILED.rawValue)
                fail(error)
            }
        case .manageSubscriptionsClosed(_, let error):
            result.kind = kind(IOSIAP_EVENT_MANAGE_SUBSCRIPTIONS_CLOSED)
            if let error { fail(error) }
        case .productsReceived(_, let products, let invalid):
            result.kind = kind(IOSIAP_EVENT_PRODUCTS_RECEIVED)
            result.products = arena.array(products.map { Optional(productHandle($0)) })
            result.product_count = products.count
            result.invalid_product_ids = arena.array(invalid.map { Optional(arena.copy($0)) })
            result.invalid_product_id_count = invalid.count
        case .productsFailed(_, let error):
            result.kind = kind(IOSIAP_EVENT_PRODUCTS_FAILED)
            fail(error)
        case .purchasing(_, let productID, let quantity):
            result.kind = kind(IOSIAP_EVENT_PURCHASING)
            result.product_id = arena.copy(productID)
            result.quantity = CInt(clamping: quantity)
        case .purchased(_, let transaction):
            result.kind = kind(IOSIAP_EVENT_PURCHASED)
            carry(transaction)
        case .granted(_, let transaction, let grant):
            result.kind = kind(IOSIAP_EVENT_GRANTED)
            carry(transaction)
            switch grant {
            case .currency(let name, _):
                result.grant_currency = arena.copy(name)
                result.grant_amount = (try? grant.amount(for: transaction)) ?? 0  // granted: in range
            case .entitlement(let name):
                result.grant_entitlement = arena.copy(name)
            }
        case .verificationFailed(_, let transaction, let error):
            result.kind = kind(IOSIAP_EVENT_VERIFICATION_FAILED)
            carry(transaction, passedVerification: false)
            fail(error)
        case .cancelled(_, let productID):
            result.kind = kind(IOSIAP_EVENT_CANCELLED)
            result.product_id = arena.copy(productID)
        case .failed(_, let productID, let error):
            result.kind = kind(IOSIAP_EVENT_FAILED)
            result.product_id = arena.copy(productID)
            fail(error)
        case .deferred(_, let productID):
            result.kind = kind(IOSIAP_EVENT_DEFERRED)
            result.product_id = arena.copy(productID)
        case .declined(let productID):
            result.kind = kind(IOSIAP_EVENT_DECLINED)
            result.product_id = arena.copy(productID)
        case .restored(_, let transaction):
            result.kind = kind(IOSIAP_EVENT_RESTORED)
            carry(transaction)
        case .restoreFinished(_, .success(let count)):
            result.kind = kind(IOSIAP_EVENT_RESTORE_FINISHED)
            result.restored_count = count
        case .restoreFinished(_, .failure(let error)):
            result.kind = kind(IOSIAP_EVENT_RESTORE_FINISHED)
            fail(error)
        case .revoked(let transaction):
            result.kind = kind(IOSIAP_EVENT_REVOKED)
            carry(transaction, passedVerification: false)
        case .expired(let transaction):
            result.kind = kind(IOSIAP_EVENT_EXPIRED)
            carry(transaction, passedVerification: false)
        case .purchaseIntent(let product, let offer):
            result.kind = kind(IOSIAP_EVENT_PURCHASE_INTENT)
            result.product_id = arena.copy(Optional(product.id))
            result.products = arena.array([Optional(productHandle(product))])
            result.product_count = 1
            result.intent_offer_type = offer.map { $0.type.rawValue } ?? 0
            result.intent_offer_id = arena.copy(offer?.id)
        case .journalRowUnreadable(_, let productID, let error):
            // No transaction: the journal could not decode one. The message names its id.
            result.kind = kind(IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE)
            result.product_id = arena.copy(productID)
            fail(error)
        case .storeKitMessage(let message):
            result.kind = kind(IOSIAP_EVENT_STOREKIT_MESSAGE)
            result.message_id = arena.copy(message.id)
            result.message_reason = message.reason.rawValue
        case .storefrontChanged(let storefront):
            result.kind = kind(IOSIAP_EVENT_STOREFRONT_CHANGED)
            result.storefront = arena.copy(storefront)
        }
        return result
    }

    /// The fixed texts of enumerations, from static storage: nothing to copy for each event.
    private static func constant(_ environment: StoreEnvironment) -> UnsafePointer<CChar> {
        switch environment {
        case .production: pointer("Production")
        case .sandbox: pointer("Sandbox")
        case .xcode: pointer("Xcode")
        case .localTesting: pointer("LocalTesting")
        }
    }

    private static func constant(_ ownership: OwnershipType) -> UnsafePointer<CChar> {
        switch ownership {
        case .purchased: pointer("PURCHASED")
        case .familyShared: pointer("FAMILY_SHARED")
        case .assigned: pointer("ASSIGNED")
        }
    }

    private static func constant(_ reason: TransactionReason) -> UnsafePointer<CChar> {
        switch reason {
        case .purchase: pointer("PURCHASE")
        case .renewal: pointer("RENEWAL")
        }
    }

    private static func pointer(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// Unix milliseconds; a date beyond Int64's range is clamped to it (NaN: 0), never a trap.
    static func milliseconds(_ date: Date?) -> Int64 {
        guard let date else { return 0 }
        let value = (date.timeIntervalSince1970 * 1000).rounded(.down)
        if let exact = Int64(exactly: value) { return exact }
        return value.isNaN ? 0 : value < 0 ? .min : .max
    }
}
