import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPSignedData
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// A revision token kept at the end of the history brings, asked again later, every transaction written or changed
/// since, whatever its dates: renewals the store's clock writes late with past purchase dates, a refund dated earlier
/// than what was already served. Both the store read a page at a time and the whole history in memory answer.
@Suite struct HistoryRevisionTests {
    /// The store's clock, moved by hand (backwards too).
    final class Clock: Sendable {
        private let current = Locked(Date(timeIntervalSince1970: 1_767_225_600))  // 2026-01-01T00:00:00Z
        var now: Date { current.withLock { $0 } }
        func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
    }

    let folder = TemporaryDirectory()
    let clock = Clock()
    let credentials: ServerAPICredentials
    let store: LocalStore
    /// `serve`'s: pages read from the store.
    let paged: ServerAPI
    /// The reference: the whole history read at each request.
    let whole: ServerAPI
    static let coins = "com.iosiap.example.coins_100"
    static let gold = "com.iosiap.example.club_gold_monthly"

    init() throws {
        let directory = try folder.state
        let clock = self.clock
        store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: directory,
                               bundleID: ServerAPICredentials.bundleID, now: { clock.now })
        credentials = try ServerAPICredentials(addedTo: directory)
        paged = ServerAPICredentials.api(over: store, in: directory, pages: store)
        whole = ServerAPICredentials.api(over: store, in: directory)
    }

    func token() throws -> String { try credentials.token() }

    /// One page from both servers, which must answer alike: its transactions decoded, the revision, hasMore.
    func page(_ path: String, _ query: [(String, String)] = [], revision: String? = nil,
              sourceLocation: SourceLocation = #_sourceLocation) throws -> (transactions: [SignedTransactionPayload], revision: String, hasMore: Bool) {
        let request = ServerAPIRequest(method: "GET", path: path, query: (query + (revision.map { [("revision", $0)] } ?? [])).map { .init($0.0, $0.1) },
                                       authorization: try token())
        let response = paged.handle(request)
        #expect(response == whole.handle(request), "\(path) \(query)", sourceLocation: sourceLocation)
        #expect(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))", sourceLocation: sourceLocation)
        let body = try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], sourceLocation: sourceLocation)
        let verifier = try store.makeVerifier()
        let transactions = try (body["signedTransactions"] as? [String] ?? []).map { try verifier.verifyTransaction($0) }
        return (transactions, try #require(body["revision"] as? String, sourceLocation: sourceLocation), body["hasMore"] as? Bool == true)
    }

    /// Pages from `revision` (the start: nil) to the end as a backend does: the ids seen, in order, and the last revision.
    func pageToTheEnd(_ path: String, _ query: [(String, String)] = [], from revision: String? = nil,
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (ids: [String], revision: String) {
        var ids: [String] = []
        var revision = revision
        for _ in 0..<50 {
            let page = try page(path, query, revision: revision, sourceLocation: sourceLocation)
            ids += page.transactions.compactMap(\.transactionId)
            revision = page.revision
            if !page.hasMore { break }
        }
        return (ids, try #require(revision, sourceLocation: sourceLocation))
    }

    static let histories = ["/inApps/v1/history/1", "/inApps/v2/history/1"]

    @Test func aKeptRevisionBringsTheRenewalsTheClockWroteLaterWithPastPurchaseDates() async throws {
        try store.setTimeRate(.monthlyRenewalEveryFiveMinutes)
        let gold = try store.buyProduct(Self.gold)
        // Time runs on while nothing looks at the subscription: its renewals fall due but are not written yet.
        clock.advance(by: 1000)
        for _ in 0..<22 { _ = try store.buyProduct(Self.coins) }
        var kept: [String: String] = [:]
        for path in Self.histories {
            let all = try pageToTheEnd(path)
            #expect(all.ids.count == 23, "\(path)")
            kept[path] = all.revision
        }
        // The clock catches up: the renewals are written now, each dated when it fell due, before the coins.
        _ = try await store.transactionHistory()
        let renewals = try store.history().map(\.transaction).filter { $0.originalID == gold.id && $0.id != gold.id }
        #expect(renewals.count >= 3)
        #expect(renewals.allSatisfy { $0.purchaseDate < clock.now.addingTimeInterval(-1) })
        for path in Self.histories {
            let later = try pageToTheEnd(path, from: kept[path])
            #expect(Set(renewals.map { String($0.id) }).isSubset(of: Set(later.ids)), "\(path): \(later.ids)")
            // What was served and did not change does not come again.
            #expect(Set(later.ids).isDisjoint(with: (2...23).map(String.init)), "\(path): \(later.ids)")
            // Filters apply to what comes after a kept revision as to the first pages.
            let subscriptions = try pageToTheEnd(path, [("productType", "AUTO_RENEWABLE")], from: kept[path])
            #expect(Set(subscriptions.ids) == Set(later.ids).intersection(renewals.map { String($0.id) } + [String(gold.id)]))
        }
    }

    @Test func aRefundDatedEarlierThanWhatWasServedComesAgainWithItsNewState() throws {
        let first = try store.buyProduct(Self.coins)
        clock.advance(by: 100)
        let second = try store.buyProduct(Self.coins)
        clock.advance(by: 100)
        let third = try store.buyProduct(Self.coins)
        clock.advance(by: 100)
        _ = try store.refund(transactionID: third.id)  // revoked at +300
        var kept: [String: String] = [:]
        for path in Self.histories + ["/inApps/v2/refund/lookup/1"] {
            kept[path] = try pageToTheEnd(path).revision
        }
        // A refund dated before the last transaction served (its purchase at +200, the other refund at +300).
        clock.advance(by: -250)
        _ = try store.refund(transactionID: first.id)
        for path in Self.histories + ["/inApps/v2/refund/lookup/1"] {
            let later = try page(path, revision: kept[path])
            #expect(later.transactions.compactMap(\.transactionId) == [String(first.id)], "\(path)")
            #expect(later.transactions.first?.revocationDate == Milliseconds(clock.now), "\(path)")
            #expect(!later.hasMore)
            // Asked again with the newest revision: nothing new.
            #expect(try page(path, revision: later.revision).transactions.isEmpty, "\(path)")
        }
        // In the order of their last change: the untouched one, then the refunds as they were made.
        #expect(try pageToTheEnd("/inApps/v2/history/1").ids == [second, third, first].map { String($0.id) })
    }

    @Test func aDescendingHistoryIsTheAscendingOneReversed() throws {
        for index in 0..<45 {
            let bought = try store.buyProduct(Self.coins)
            clock.advance(by: index % 2 == 0 ? 60 : -30)
            if index % 5 == 0 { _ = try store.refund(transactionID: bought.id) }
        }
        for path in Self.histories {
            let ascending = try pageToTheEnd(path)
            let descending = try pageToTheEnd(path, [("sort", "DESCENDING")])
            #expect(ascending.ids.count == 45 && Set(ascending.ids).count == 45)
            #expect(descending.ids == ascending.ids.reversed())
        }
    }

    @Test func revisionTokens() throws {
        for _ in 0..<25 { _ = try store.buyProduct(Self.coins) }
        let start = try page("/inApps/v2/history/1")
        // A token of an earlier version (the last transaction's modified date and id) reads from the start:
        // nothing is skipped, what was served comes again.
        let old = Base64URL.encode(Array("v1:1767225600000:20".utf8))
        let fromOld = try page("/inApps/v2/history/1", revision: old)
        #expect(fromOld.transactions.compactMap(\.transactionId) == start.transactions.compactMap(\.transactionId))
        #expect(fromOld.revision == start.revision)
        // Tokens this server did not make: Apple's 4000005.
        for text in ["v1:x:1", "v2:", "v2:x", "v2:-1", "v2:1:2", "v3:1", "v2:99999999999999999999"] {
            let request = ServerAPIRequest(method: "GET", path: "/inApps/v2/history/1",
                                           query: [.init("revision", Base64URL.encode(Array(text.utf8)))], authorization: try token())
            let response = paged.handle(request)
            #expect(response.status == 400, "\(text)")
            #expect(String(decoding: response.body, as: UTF8.self).contains("4000005"), "\(text)")
            #expect(response == whole.handle(request))
        }
        // The start's token, and an empty history's, reads from the start.
        #expect(try page("/inApps/v2/history/1", revision: Base64URL.encode(Array("v2:start".utf8))).transactions.count == 20)
    }
}
