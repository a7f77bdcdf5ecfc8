import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import Testing

/// A look told which transactions were written since the last one (the game's sender, after each purchase)
/// compares only those, their subscriptions and the grace periods time ends, and finds what a look comparing the
/// whole history finds.
@Suite struct StoreChangeDetectorTests {
    let folder = TemporaryDirectory()
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let silver = "com.iosiap.example.club_silver_monthly"

    /// Two detectors over one store: `whole` compares the whole history at each look, `incremental` only the
    /// transactions that differ from the history of its last look.
    struct Pair {
        var whole = StoreChangeDetector()
        var incremental = StoreChangeDetector()
        var last: [UInt64: StoreTransaction] = [:]

        mutating func look(_ history: [StoreTransaction], at now: Date) -> (whole: [String], incremental: [String]) {
            let touched = Set(history.filter { last[$0.id] != $0 }.map(\.id)).union(last.keys.filter { id in !history.contains { $0.id == id } })
            last = Dictionary(uniqueKeysWithValues: history.map { ($0.id, $0) })
            func names(_ found: [(type: String, subtype: String?, transaction: StoreTransaction)]) -> [String] {
                found.map { "\($0.type)/\($0.subtype ?? "")/\($0.transaction.id)" }
            }
            return (names(whole.changes(in: history, at: now)), names(incremental.changes(in: history, touched: touched, at: now)))
        }
    }

    @Test func comparingWhatWasWrittenFindsWhatComparingEverythingFinds() throws {
        let clock = Locked(Date(timeIntervalSince1970: 1_767_225_600))
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state,
                                   now: { clock.withLock { $0 } })
        var pair = Pair()
        func look(expecting expected: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let found = pair.look(try store.allTransactions(), at: clock.withLock { $0 })
            #expect(found.whole == expected, sourceLocation: sourceLocation)
            #expect(found.incremental == expected, sourceLocation: sourceLocation)
        }
        _ = try store.buyProduct(Self.coins)
        try look(expecting: [])  // the baseline
        let gold = try store.buyProduct(Self.gold)
        let coins = try store.buyProduct(Self.coins)
        try look(expecting: ["SUBSCRIBED/INITIAL_BUY/\(gold.id)", "ONE_TIME_CHARGE//\(coins.id)"])
        try store.setAutoRenew(productID: Self.gold, enabled: false)
        try look(expecting: ["DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED/\(gold.id)"])
        try store.setAutoRenew(productID: Self.gold, enabled: true)
        try store.forceRenewal(productID: Self.gold)
        let renewal = try #require(try store.allTransactions().last)
        try look(expecting: ["DID_RENEW//\(renewal.id)", "DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED/\(renewal.id)"])
        // Silver while gold is active: a downgrade at gold's next renewal, on gold's newest transaction.
        _ = try store.buyProduct(Self.silver)
        try look(expecting: ["DID_CHANGE_RENEWAL_PREF/DOWNGRADE/\(renewal.id)"])
        // A refund of the chain's newest transaction: its plan is its older transaction's again.
        _ = try store.refund(transactionID: renewal.id)
        let afterRefund = pair.look(try store.allTransactions(), at: clock.withLock { $0 })
        #expect(afterRefund.incremental == afterRefund.whole)
        #expect(afterRefund.whole.contains("REFUND//\(renewal.id)"))
        try look(expecting: [])
        // A renewal that fails to charge, in a grace period that time alone ends (16 days), with nothing written.
        try store.setBillingIssuesEnabled(true)
        try store.setBillingGracePeriodEnabled(true)
        _ = try store.buyProduct(Self.gold)
        _ = pair.look(try store.allTransactions(), at: clock.withLock { $0 })
        try store.forceRenewal(productID: Self.gold)
        let retrying = try #require(try store.allTransactions().last { $0.productID == Self.gold })
        try look(expecting: ["DID_FAIL_TO_RENEW/GRACE_PERIOD/\(retrying.id)"])
        clock.withLock { $0 = $0.addingTimeInterval(20 * 86_400) }
        try look(expecting: ["GRACE_PERIOD_EXPIRED//\(retrying.id)"])
        try look(expecting: [])
    }

    @Test func aLookToldOfNoWriteComparesNothing() throws {
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state)
        var detector = StoreChangeDetector()
        _ = detector.changes(in: try store.allTransactions(), at: Date())
        let coins = try store.buyProduct(Self.coins)
        // Told that nothing was written, it does not find the purchase; told of it, it does, once.
        #expect(detector.changes(in: try store.allTransactions(), touched: [], at: Date()).isEmpty)
        #expect(detector.changes(in: try store.allTransactions(), touched: [coins.id], at: Date()).map(\.type) == ["ONE_TIME_CHARGE"])
        #expect(detector.changes(in: try store.allTransactions(), touched: [coins.id], at: Date()).isEmpty)
    }
}
