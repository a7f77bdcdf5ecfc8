import Foundation
import IOSiAPCore
import Testing

@Suite struct EntitlementsTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func transaction(_ id: UInt64, _ product: String, _ type: ProductType, purchased: TimeInterval = -86_400,
                     expires: TimeInterval? = nil, revoked: Bool = false, original: UInt64? = nil, group: String? = nil,
                     ownership: OwnershipType = .purchased) -> StoreTransaction {
        StoreTransaction(id: id, originalID: original ?? id, productID: product, productType: type, quantity: 1,
                         purchaseDate: now.addingTimeInterval(purchased), originalPurchaseDate: now.addingTimeInterval(purchased),
                         expirationDate: expires.map { now.addingTimeInterval($0) },
                         revocationDate: revoked ? now.addingTimeInterval(-60) : nil,
                         revocationReason: revoked ? .refundedDueToIssue : nil,
                         environment: .localTesting, storefront: "USA", ownershipType: ownership, subscriptionGroupID: group)
    }

    @Test func ownedNonConsumablesAndActiveSubscriptionsCount() {
        let all = [
            transaction(1, "coins", .consumable),
            transaction(2, "pro", .nonConsumable),
            transaction(3, "monthly", .autoRenewable, expires: 3600),
            transaction(4, "season", .nonRenewing),
        ]
        #expect(Entitlements.current(from: all, at: now).map(\.id) == [2, 3, 4])
    }

    @Test func expiredSubscriptionsAreExcluded() {
        let all = [transaction(1, "monthly", .autoRenewable, purchased: -40 * 86_400, expires: -10 * 86_400),
                   transaction(2, "weekly", .autoRenewable, expires: -1)]
        #expect(Entitlements.current(from: all, at: now).isEmpty)
    }

    @Test func revokedTransactionsAreExcluded() {
        let all = [transaction(1, "pro", .nonConsumable, revoked: true),
                   transaction(2, "monthly", .autoRenewable, expires: 3600, revoked: true)]
        #expect(Entitlements.current(from: all, at: now).isEmpty)
    }

    @Test func theLatestTransactionOfAProductIsKept() {
        let all = [transaction(1, "monthly", .autoRenewable, purchased: -100, expires: 100),
                   transaction(2, "monthly", .autoRenewable, purchased: -50, expires: 200)]
        #expect(Entitlements.current(from: all, at: now).map(\.id) == [2])
    }

    /// A subscription is decided by the newest transaction of its chain (StoreKit's `currentEntitlements`): a
    /// renewal that expired, or was refunded, ends it, although an older period's copy (its end never re-learned)
    /// still says it runs.
    @Test(arguments: [false, true])
    func theNewestTransactionOfASubscriptionDecides(refunded: Bool) {
        let all = [transaction(1, "monthly", .autoRenewable, purchased: -20 * 86_400, expires: 10 * 86_400),
                   transaction(2, "monthly", .autoRenewable, purchased: -86_400, expires: refunded ? 29 * 86_400 : -60,
                               revoked: refunded, original: 1)]
        #expect(Entitlements.current(from: all, at: now).isEmpty)
    }

    /// A newest transaction that may not entitle (a verifier failed it) still decides its subscription: the older
    /// period does not keep it.
    @Test func aNewestTransactionThatMayNotEntitleStillDecides() {
        let all = [transaction(1, "monthly", .autoRenewable, purchased: -20 * 86_400, expires: 10 * 86_400),
                   transaction(2, "monthly", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, original: 1)]
        #expect(Entitlements.current(from: all, at: now) { $0.id != 2 }.isEmpty)
        #expect(Entitlements.current(from: all, at: now) { $0.id != 1 }.map(\.id) == [2])
    }

    /// A transaction that may not entitle decides its subscription only from its purchase date on: its dates are
    /// unchecked, and a copy dated in the future (forged, or from a wrong clock) must not end the subscription now.
    @Test func aTransactionThatMayNotEntitleDecidesOnlyFromItsPurchaseDate() {
        let all = [transaction(1, "monthly", .autoRenewable, purchased: -20 * 86_400, expires: 10 * 86_400),
                   transaction(2, "monthly", .autoRenewable, purchased: 5 * 86_400, expires: 3_650 * 86_400, original: 1)]
        #expect(Entitlements.current(from: all, at: now) { $0.id != 2 }.map(\.id) == [1])
        #expect(Entitlements.current(from: all, at: now.addingTimeInterval(6 * 86_400)) { $0.id != 2 }.isEmpty)
        // From its purchase date itself on: the instant it is dated, it decides.
        #expect(Entitlements.current(from: all, at: now.addingTimeInterval(5 * 86_400)) { $0.id != 2 }.isEmpty)
        // A passed copy dated days ahead (a downgrade StoreKit dates at the next renewal) decides nothing before
        // its date either: the current period runs to its end.
        #expect(Entitlements.current(from: all, at: now).map(\.id) == [1])
        #expect(Entitlements.current(from: all, at: now.addingTimeInterval(5 * 86_400)).map(\.id) == [2])
    }

    /// A passed copy dated a little ahead (a device clock behind the App Store's) counts at once: a purchase just
    /// made is not hidden, and it replaces the level it upgrades.
    @Test func aPassedCopyALittleAheadOfTheClockCountsAtOnce() {
        let silver = transaction(1, "silver", .autoRenewable, purchased: -10 * 86_400, expires: 20 * 86_400, group: "club")
        let gold = transaction(2, "gold", .autoRenewable, purchased: 90, expires: 30 * 86_400, group: "club")
        #expect(Entitlements.current(from: [silver, gold], at: now).map(\.id) == [2])
        // Not so for one the check has not passed: it waits for its date.
        #expect(Entitlements.current(from: [silver, gold], at: now) { $0.id != 2 }.map(\.id) == [1])
        // A downgrade dated at the next renewal, in another chain of the group, leaves the current level until then.
        let downgrade = transaction(3, "bronze", .autoRenewable, purchased: 20 * 86_400, expires: 50 * 86_400, group: "club")
        #expect(Entitlements.current(from: [silver, downgrade], at: now).map(\.id) == [1])
        #expect(Entitlements.current(from: [silver, downgrade], at: now.addingTimeInterval(20 * 86_400 + 1)).map(\.id) == [3])
    }

    /// A passed copy dated far ahead with nothing of its subscription running counts at once: the device's clock is
    /// a day behind the App Store's (set back by hand, say), and the purchase just made must not wait a day for it.
    @Test func aPassedCopyFarAheadWithNothingRunningCountsAtOnce() {
        let gold = transaction(1, "gold", .autoRenewable, purchased: 86_400, expires: 31 * 86_400, group: "club")
        #expect(Entitlements.current(from: [gold], at: now).map(\.id) == [1])
        // Nor when what ran has ended: a lapsed level does not hold a new purchase back.
        let lapsed = transaction(2, "silver", .autoRenewable, purchased: -40 * 86_400, expires: -10 * 86_400, group: "club")
        #expect(Entitlements.current(from: [lapsed, gold], at: now).map(\.id) == [1])
        // One the check has not passed still waits for its date.
        #expect(Entitlements.current(from: [gold], at: now) { $0.id != 1 }.isEmpty)
    }

    /// A chain's group is the one any of its copies names: a renewal copy that names none still takes part in the
    /// one-level-per-group rule, and an upgrade in the group ends it.
    @Test func aChainsGroupIsTheOneAnyOfItsCopiesNames() {
        let silver = transaction(1, "silver", .autoRenewable, purchased: -40 * 86_400, expires: -10 * 86_400, group: "club")
        let renewal = transaction(2, "silver", .autoRenewable, purchased: -10 * 86_400, expires: 20 * 86_400, original: 1)
        let gold = transaction(3, "gold", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, group: "club")
        #expect(Entitlements.current(from: [silver, renewal, gold], at: now).map(\.id) == [3])
        #expect(Entitlements.current(from: [silver, renewal], at: now).map(\.id) == [2])
    }

    /// A downgrade that took effect at a renewal keeps the new level only.
    @Test func aDowngradeAtARenewalKeepsOnlyTheNewLevel() {
        let all = [transaction(1, "gold", .autoRenewable, purchased: -20 * 86_400, expires: 10 * 86_400),
                   transaction(2, "silver", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, original: 1),
                   transaction(3, "bronze", .autoRenewable, purchased: -86_400, expires: 29 * 86_400)]
        #expect(Entitlements.current(from: all, at: now).map(\.id) == [2, 3])
    }

    /// An upgrade ends the level it replaced, though StoreKit's copy of the replaced transaction keeps its date (it
    /// only says `isUpgraded`), and a new chain began: one subscription of the user's own per group. Family members'
    /// subscriptions shared in the same group are others, beside it and beside each other.
    @Test func anUpgradeEndsTheReplacedLevelWhateverItsCopySays() {
        let silver = transaction(1, "silver", .autoRenewable, purchased: -10 * 86_400, expires: 20 * 86_400, group: "club")
        let gold = transaction(2, "gold", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, group: "club")
        let shared = transaction(3, "silver", .autoRenewable, purchased: -2 * 86_400, expires: 28 * 86_400, group: "club",
                                 ownership: .familyShared)
        #expect(Entitlements.current(from: [silver, gold], at: now).map(\.id) == [2])
        #expect(Entitlements.current(from: [silver, gold, shared], at: now).map(\.id) == [3, 2])
        // Two family members each sharing one in the group: both entitle, and one refunded hides not the other.
        let otherShared = transaction(4, "gold", .autoRenewable, purchased: -3600, expires: 29 * 86_400, group: "club",
                                      ownership: .familyShared)
        #expect(Entitlements.current(from: [shared, otherShared], at: now).map(\.id) == [3, 4])
        var otherRevoked = otherShared
        otherRevoked.revocationDate = now.addingTimeInterval(-60)
        #expect(Entitlements.current(from: [shared, otherRevoked], at: now).map(\.id) == [3])
        // The upgrade refunded: the replaced level does not come back.
        var refunded = gold
        refunded.revocationDate = now.addingTimeInterval(-60)
        #expect(Entitlements.current(from: [silver, refunded], at: now).isEmpty)
    }

    /// Only a copy that entitles decides the user's own group: an upgrade whose check has not passed (or a forged
    /// copy of another level, whatever its date) leaves the level the user verifiably holds, and once it passes the
    /// replaced level ends.
    @Test func aCopyThatMayNotEntitleEndsNoOtherLevelOfItsGroup() {
        let silver = transaction(1, "silver", .autoRenewable, purchased: -10 * 86_400, expires: 20 * 86_400, group: "club")
        let gold = transaction(2, "gold", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, group: "club")
        let futureGold = transaction(3, "gold", .autoRenewable, purchased: 86_400, expires: 3_650 * 86_400, group: "club")
        #expect(Entitlements.current(from: [silver, gold], at: now) { $0.id != 2 }.map(\.id) == [1])
        #expect(Entitlements.current(from: [silver, futureGold], at: now) { $0.id != 3 }.map(\.id) == [1])
        #expect(Entitlements.current(from: [silver, futureGold], at: now.addingTimeInterval(2 * 86_400)) { $0.id != 3 }
            .map(\.id) == [1])
        #expect(Entitlements.current(from: [silver, gold], at: now).map(\.id) == [2])
    }

    /// Within one chain the newest copy still decides: the upgrade's renewal failing its check ends the upgrade, and
    /// the level it replaced does not come back.
    @Test func aRenewalThatMayNotEntitleEndsItsChainAndBringsNoReplacedLevelBack() {
        let silver = transaction(1, "silver", .autoRenewable, purchased: -40 * 86_400, expires: 20 * 86_400, group: "club")
        let gold = transaction(2, "gold", .autoRenewable, purchased: -31 * 86_400, expires: -86_400, group: "club")
        let renewal = transaction(3, "gold", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, original: 2,
                                  group: "club")
        #expect(Entitlements.current(from: [silver, gold, renewal], at: now) { $0.id != 3 }.isEmpty)
        #expect(Entitlements.current(from: [silver, gold, renewal], at: now).map(\.id) == [3])
    }

    /// Copies of one chain that differ in naming the group (one recorded before the group was known) are still one
    /// chain: the newest decides.
    @Test func copiesOfOneChainWithAndWithoutAGroupAreOneChain() {
        let first = transaction(1, "gold", .autoRenewable, purchased: -20 * 86_400, expires: 10 * 86_400)
        var refunded = transaction(2, "gold", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, original: 1,
                                   group: "club")
        refunded.revocationDate = now.addingTimeInterval(-60)
        #expect(Entitlements.current(from: [first, refunded], at: now).isEmpty)
        let renewed = transaction(3, "gold", .autoRenewable, purchased: -3600, expires: 30 * 86_400, original: 1)
        #expect(Entitlements.current(from: [first, refunded, renewed], at: now).map(\.id) == [3])
    }

    /// A forged copy naming another group does not move its chain there: the user's two subscriptions in two
    /// groups both stay.
    @Test func aForgedCopyMovesNoChainIntoAnotherGroup() {
        let music = transaction(1, "music", .autoRenewable, purchased: -86_400, expires: 29 * 86_400, group: "music")
        let club = transaction(2, "gold", .autoRenewable, purchased: -3600, expires: 30 * 86_400, group: "club")
        let forged = transaction(3, "music", .autoRenewable, purchased: -2 * 86_400, expires: 29 * 86_400, original: 1, group: "club")
        #expect(Entitlements.current(from: [music, club, forged], at: now) { $0.id != 3 }.map(\.id) == [1, 2])
    }
}
