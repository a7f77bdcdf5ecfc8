#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension StoreEvent: CustomStringConvertible {
    /// One readable line, e.g. `purchased #3 com.example.coins x3 (transaction 7)`.
    public var description: String {
        switch self {
        case .refundRequestFinished(let id, let transactionID, .success(let outcome)):
            return "refund request #\(id) for transaction \(transactionID): "
                + (outcome == .submitted ? "submitted (Apple decides; a refund arrives as revoked)" : "cancelled by the user")
        case .refundRequestFinished(let id, let transactionID, .failure(let error)):
            return "refund request #\(id) for transaction \(transactionID) failed: \(error)"
        case .manageSubscriptionsClosed(_, let error):
            return "manage subscriptions closed" + (error.map { ": \($0)" } ?? "")
        case .productsReceived(let id, let products, let invalid):
            let found = products.map { "\($0.id) \($0.displayPrice)" }.joined(separator: ", ")
            let invalidText = invalid.isEmpty ? "" : "; invalid: \(invalid.joined(separator: ", "))"
            return "products #\(id): \(products.count) found [\(found)]\(invalidText)"
        case .productsFailed(let id, let error):
            return "products #\(id) failed: \(error)"
        case .purchasing(let id, let productID, let quantity):
            return "purchasing #\(id) \(productID) x\(quantity)"
        case .purchased(let id, let transaction):
            return "purchased \(id.map { "#\($0)" } ?? "(no request)") \(transaction.summary)"
        case .granted(let id, let transaction, let grant):
            let what = switch grant {
            case .currency(let name, _): "+\((try? grant.amount(for: transaction)) ?? 0) \(name)"
            case .entitlement(let name): "entitlement \(name)"
            }
            return "granted \(id.map { "#\($0)" } ?? "(no request)") \(transaction.summary): \(what)"
        case .verificationFailed(let id, let transaction, let error):
            return "verification failed \(id.map { "#\($0)" } ?? "(no request)") \(transaction.summary): \(error)"
        case .cancelled(let id, let productID):
            return "cancelled #\(id) \(productID) (by the user; nothing charged)"
        case .failed(let id, let productID, let error):
            return "failed #\(id) \(productID): \(error)"
        case .deferred(let id, let productID):
            return "deferred #\(id) \(productID) (waiting for approval)"
        case .declined(let productID):
            return "declined \(productID) (Ask to Buy declined; nothing charged)"
        case .restored(let id, let transaction):
            return "restored #\(id) \(transaction.summary)"
        case .restoreFinished(let id, .success(let count)):
            return "restore finished #\(id): \(count) restored"
        case .restoreFinished(let id, .failure(let error)):
            return "restore failed #\(id): \(error)"
        case .revoked(let transaction):
            return "revoked \(transaction.summary)"
        case .expired(let transaction):
            return "expired \(transaction.summary)"
        case .purchaseIntent(let product, let offer):
            let redeeming = offer.map { ", \($0.type) offer" + ($0.id.map { " \($0)" } ?? "") } ?? ""
            return "purchase intent \(product.id) \(product.displayPrice)\(redeeming) (started in the App Store)"
        case .journalRowUnreadable(let transactionID, let productID, let error):
            return "journal row unreadable: transaction \(transactionID) of \(productID) (kept, not delivered): \(error)"
        case .storeKitMessage(let message):
            return "App Store message \(message.id): \(message.reason) (shown when the game displays it)"
        case .storefrontChanged(let storefront):
            return "storefront changed to \(storefront)"
        }
    }
}

extension StoreTransaction {
    /// The product, quantity, id and, for subscriptions, the offer used and the expiration, on one line.
    public var summary: String {
        var text = "\(productID) x\(quantity) (transaction \(id)"
        if let offer {
            text += ", \(offer.type) offer" + (offer.id.map { " \($0)" } ?? "")
        }
        if let expirationDate { text += ", expires \(expirationDate.formatted(.iso8601))" }
        if let revocationDate { text += ", revoked \(revocationDate.formatted(.iso8601))" }
        return text + ")"
    }
}
