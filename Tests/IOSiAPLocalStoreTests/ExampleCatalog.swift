import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport

/// The example catalog with keys set on one of its subscriptions (offer codes, win-back offers, …), and the
/// local store and game a suite opens on it: what the offer suites share.
enum ExampleCatalog {
    /// `Examples/Products.storekit` with `keys` set on the subscription `productID`, named `fileName`.
    static func with(_ keys: [String: Any], onSubscription productID: String, fileName: String) throws -> Catalog {
        var json = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.exampleCatalog)) as! [String: Any]
        var groups = json["subscriptionGroups"] as! [[String: Any]]
        for g in groups.indices {
            var subscriptions = groups[g]["subscriptions"] as! [[String: Any]]
            for s in subscriptions.indices where subscriptions[s]["productID"] as? String == productID {
                subscriptions[s].merge(keys) { $1 }
            }
            groups[g]["subscriptions"] = subscriptions
        }
        json["subscriptionGroups"] = groups
        return try Catalog(data: try JSONSerialization.data(withJSONObject: json), fileName: fileName)
    }

    /// A local store on `catalog` at a month every five minutes, on `clock`, and a game with `productID` loaded.
    static func open(_ catalog: Catalog, in folder: TemporaryDirectory, clock: TestClock,
                     loading productID: String) async throws -> (LocalStore, PurchaseStore) {
        let local = try LocalStore(catalog: catalog, stateDirectory: folder.state, now: { clock.now })
        try local.setTimeRate(.monthlyRenewalEveryFiveMinutes)  // a month is 300 s, a week 70 s
        let store = try PurchaseStore(backend: local, stateDirectory: folder.state, now: { clock.now })
        _ = try await store.pollUntilTerminal(of: try store.requestProducts([productID]))
        return (local, store)
    }
}
