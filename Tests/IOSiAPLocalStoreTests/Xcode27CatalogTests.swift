import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// Format 6.3, Xcode 27's: the public files of `Tests/Fixtures/xcode27` load, a subscription suite's subscriptions
/// are sold as auto-renewable subscriptions in the suite's group, and subscription bundles, whose keys no public
/// file shows, are refused naming their key path rather than left out unseen.
struct Xcode27CatalogTests {
    @Test func anEmptyConfigurationAsXcode27CreatesItLoads() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__storeKit.3a8ae71.storekit"))
        #expect(catalog.formatVersion == "6.3")
        #expect(catalog.products.isEmpty)
    }

    @Test func aSubscriptionGroupBesideEmptySuiteAndBundleGroupsLoads() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__Configuration.eb67044.storekit"))
        #expect(catalog.formatVersion == "6.3")
        #expect(catalog.products.map(\.id) == ["ekme.TenScrolls.plus.monthly"])
        #expect(catalog.product(id: "ekme.TenScrolls.plus.monthly")?.subscription?.period == StoreSubscriptionPeriod(value: 1, unit: .month))
    }

    @Test func aSuitesSubscriptionIsAnAutoRenewableSubscriptionInTheSuitesGroup() throws {
        let catalog = try Catalog.load(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__Configuration.3a8ae71.storekit"))
        let yearly = try #require(catalog.product(id: "ekme.Tenscrolls.plus.yearly"))
        #expect(yearly.type == .autoRenewable)
        #expect(yearly.price == Decimal(string: "99.99"))
        #expect(yearly.familyShareable == false)
        let subscription = try #require(yearly.subscription)
        #expect(subscription.groupID == "E6F94E48" && subscription.groupName == "Yearly Plan" && subscription.level == 1)
        #expect(subscription.period == StoreSubscriptionPeriod(value: 1, unit: .year))
        #expect(catalog.product(id: "ekme.TenScrolls.plus.monthly")?.subscription?.groupID != "E6F94E48")
    }

    @Test func aSuitesSubscriptionIsBoughtAndExpiresLikeAnyAutoRenewable() throws {
        let folder = TemporaryDirectory()
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__Configuration.3a8ae71.storekit")),
                                   stateDirectory: folder.state)
        let bought = try store.buyProduct("ekme.Tenscrolls.plus.yearly")
        #expect(bought.productType == .autoRenewable && bought.subscriptionGroupID == "E6F94E48")
        let end = try #require(bought.expirationDate)
        #expect(end > bought.purchaseDate)
    }

    @Test func aNonEmptyBundleGroupIsRefusedNamingItsKeyPath() throws {
        var json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__storeKit.3a8ae71.storekit"))) as? [String: Any])
        json["subscriptionBundleGroups"] = [["id": "B1", "name": "Bundle", "subscriptions": []]]
        let data = try JSONSerialization.data(withJSONObject: json)
        let error = #expect(throws: StoreError.self) { try Catalog(data: data, fileName: "bundle.storekit") }
        #expect(error?.code == .invalidCatalog)
        #expect(error?.message.hasPrefix("bundle.storekit: .subscriptionBundleGroups: the local store cannot sell subscription bundles") == true)
    }

    @Test func aSubscriptionWithoutAPeriodIsRefusedNamingItsKeyPath() throws {
        var json = try #require(try JSONSerialization.jsonObject(
            with: Data(contentsOf: Fixtures.xcode27StoreKit("TenScrolls__Configuration.3a8ae71.storekit"))) as? [String: Any])
        var suites = try #require(json["subscriptionSuiteGroups"] as? [[String: Any]])
        var subscriptions = try #require(suites[0]["subscriptions"] as? [[String: Any]])
        subscriptions[0]["duration"] = nil
        suites[0]["subscriptions"] = subscriptions
        json["subscriptionSuiteGroups"] = suites
        let error = #expect(throws: StoreError.self) {
            try Catalog(data: JSONSerialization.data(withJSONObject: json), fileName: "suite.storekit")
        }
        #expect(error?.message == "suite.storekit: .subscriptionSuiteGroups[0].subscriptions[0].duration: "
                + "a subscription needs its period, like P1W, P1M or P1Y")
    }
}
