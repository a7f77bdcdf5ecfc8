import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// Get All Subscription Statuses (developer.apple.com/documentation/appstoreserverapi/get-all-subscription-statuses):
/// for each subscription group, the newest transaction of each subscription in it (one per original
/// transaction id) with its status and signed renewal info.
enum SubscriptionStatuses {
    static func response(_ transactions: [StoreTransaction], wanted: Set<Int>, bundleID: String,
                         environment: StoreEnvironment, at now: Date) -> StatusResponse {
        var latest: [UInt64: StoreTransaction] = [:]
        for transaction in transactions where transaction.productType == .autoRenewable {
            if let known = latest[transaction.originalID], known.id > transaction.id { continue }
            latest[transaction.originalID] = transaction
        }
        var groups: [String: [LastTransactionsItem]] = [:]
        for transaction in latest.values.sorted(by: { $0.originalID < $1.originalID }) {
            let status = SubscriptionStatusValue.of(transaction, at: now)
            guard wanted.isEmpty || wanted.contains(status) else { continue }
            groups[transaction.subscriptionGroupID ?? "", default: []].append(LastTransactionsItem(
                status: status, originalTransactionId: String(transaction.originalID),
                signedTransactionInfo: transaction.signedJWS ?? "", signedRenewalInfo: transaction.signedRenewalInfo ?? ""))
        }
        return StatusResponse(
            environment: environment.rawValue, bundleId: bundleID,
            data: groups.keys.sorted().map { SubscriptionGroupIdentifierItem(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? []) })
    }
}

// Apple's StatusResponse, SubscriptionGroupIdentifierItem and LastTransactionsItem.

struct StatusResponse: Encodable {
    var environment: String
    var bundleId: String
    var data: [SubscriptionGroupIdentifierItem]
}

struct SubscriptionGroupIdentifierItem: Encodable {
    var subscriptionGroupIdentifier: String
    var lastTransactions: [LastTransactionsItem]
}

struct LastTransactionsItem: Encodable {
    var status: Int
    var originalTransactionId: String
    var signedTransactionInfo: String
    var signedRenewalInfo: String
}
