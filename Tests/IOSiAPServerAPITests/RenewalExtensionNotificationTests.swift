import Foundation
import IOSiAPCore
import IOSiAPLocalStore
@testable import IOSiAPServerAPI
import IOSiAPSignedData
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// The RENEWAL_EXTENSION notifications of Extend Subscription Renewal Dates for All Active Subscribers, made over
/// the Server API: a SUMMARY when the request completes (the local store completes it at once), and a FAILURE for
/// each subscriber it could not extend. Nothing is sent here (no sender runs): the outbox is what a sender sends.
@Suite struct RenewalExtensionNotificationTests {
    let base: ServerAPITests
    var store: LocalStore { base.store }
    static let gold = ServerAPITests.gold

    init() throws {
        base = try ServerAPITests()
    }

    /// Asks for every active subscriber of `product` to be extended by 5 days; the answer's status.
    func extendAll(_ id: String, product: String = Self.gold, storefronts: [String]? = nil) throws -> Int {
        var more: [String: Any] = ["productId": product]
        if let storefronts { more["storefrontCountryCodes"] = storefronts }
        return try base.post("/inApps/v1/subscriptions/extend/mass", try ServerAPITests.extensionBody(5, 3, id, more: more)).status
    }

    /// What Get Status of Subscription Renewal Date Extensions answers.
    func status(_ id: String) throws -> [String: Any] {
        try base.json(try base.get("/inApps/v1/subscriptions/extend/mass/\(Self.gold)/\(id)"))
    }

    func renewalExtensionRecords() throws -> [ServerNotificationRecord] {
        try store.notificationRecords().filter { $0.notificationType == "RENEWAL_EXTENSION" }
    }

    /// The payload of a notification, verified as a backend verifies it: the store's chain, its signature, and the
    /// bundle id and environment of its `data` or `summary`.
    func verifiedPayload(_ signed: String) throws -> NotificationPayload {
        try store.makeVerifier().verifyNotification(signed)
    }

    @Test func aCompletedRequestIsSummarizedOnce() throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        _ = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)  // a paid month: it can be extended
        let id = UUID().uuidString.lowercased()
        #expect(try extendAll(id, storefronts: ["USA", "CAN"]) == 200)
        let answered = try status(id)
        #expect(answered["succeededCount"] as? Int == 1 && answered["failedCount"] as? Int == 0)

        let records = try renewalExtensionRecords()
        #expect(records.map { $0.subtype } == ["SUMMARY"])
        let record = try #require(records.first)
        #expect(record.transactionID == nil)
        #expect(record.isPending && !record.isDelivered)  // due at once, for the sender
        let payload = try verifiedPayload(record.signedPayload)
        #expect(payload.notificationType == "RENEWAL_EXTENSION" && payload.subtype == "SUMMARY")
        #expect(payload.version == "2.0" && payload.notificationUUID == record.notificationUUID)
        #expect(payload.signedDate.map { Int64($0.value) } == record.signedDate)
        #expect(payload.data == nil)  // Apple: `data` and `summary` never both
        let summary = try #require(payload.summary)
        #expect(summary.requestIdentifier == id)
        #expect(summary.productId == Self.gold)
        #expect(summary.bundleId == ServerAPITests.bundleID)
        #expect(summary.environment == "Sandbox")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA"])
        #expect(summary.succeededCount == (answered["succeededCount"] as? Int).map(Int64.init))
        #expect(summary.failedCount == (answered["failedCount"] as? Int).map(Int64.init))

        // The same request again, in capitals too: answered, not done again, not summarized again.
        #expect(try extendAll(id) == 200)
        #expect(try extendAll(id.uppercased()) == 200)
        #expect(try renewalExtensionRecords().count == 1)
    }

    /// A subscriber that cannot be extended (here in its free trial) fails: one FAILURE about it, with its
    /// signed transaction, renewal info and status, then the SUMMARY counting it. A request for every storefront
    /// names none.
    @Test func aSubscriberThatFailsIsNotifiedWithItsData() throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        let trial = try store.buyProduct(Self.gold)
        let id = UUID().uuidString.lowercased()
        #expect(try extendAll(id) == 200)
        let records = try renewalExtensionRecords()
        #expect(records.map { $0.subtype } == ["FAILURE", "SUMMARY"])
        let failure = try #require(records.first)
        #expect(failure.transactionID == trial.id)
        let payload = try verifiedPayload(failure.signedPayload)
        #expect(payload.summary == nil)
        let data = try #require(payload.data)
        #expect(data.bundleId == ServerAPITests.bundleID && data.environment == "Sandbox")
        #expect(data.status == 1)  // still active: only its extension failed
        let signedTransaction = try #require(data.signedTransactionInfo)
        let transaction = try store.makeVerifier().verifyTransaction(signedTransaction)
        #expect(transaction.transactionId == String(trial.id) && transaction.productId == Self.gold)
        let signedRenewal = try #require(data.signedRenewalInfo)
        let renewal = try store.makeVerifier().verifyRenewalInfo(signedRenewal)
        #expect(renewal.originalTransactionId == String(trial.originalID))

        let last = try #require(records.last)
        let summary = try #require(try verifiedPayload(last.signedPayload).summary)
        #expect(summary.succeededCount == 0 && summary.failedCount == 1)
        #expect(summary.requestIdentifier == id && summary.storefrontCountryCodes == nil)
        #expect(try extendAll(id) == 200)
        #expect(try renewalExtensionRecords().count == 2)
    }

    /// A subscription that one extension request already extended, named again by a request for every
    /// subscriber with the same identifier, is not extended twice, and counts as extended, not as failed.
    @Test func aSubscriptionTheSameIdentifierExtendedIsNoFailure() throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        let trial = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)
        let id = UUID().uuidString.lowercased()
        guard case .extended(let once) = try store.extendRenewalDate(originalTransactionID: trial.originalID, days: 5, requestIdentifier: id) else {
            Issue.record("not extended")
            return
        }
        #expect(try extendAll(id) == 200)
        let answered = try status(id)
        #expect(answered["succeededCount"] as? Int == 1 && answered["failedCount"] as? Int == 0)
        #expect(try store.allTransactions().last?.expirationDate == once.effectiveDate)
        #expect(try renewalExtensionRecords().map { $0.subtype } == ["SUMMARY"])
    }

    /// Apple sends one RENEWAL_EXTENDED per extension: two extensions of one subscription made between two looks are
    /// two notifications, not one merged; each is told once.
    @Test func eachExtensionIsNotifiedOnceEvenWithinOneLook() throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        let trial = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)  // a paid month: it can be extended
        try store.recordNotifications()
        func recorded() throws -> [String] {
            try store.notificationRecords().map { "\($0.notificationType)/\($0.subtype ?? "")/\($0.transactionID.map(String.init) ?? "")" }
        }
        let before = try recorded().count
        let renewal = try #require(try store.allTransactions().last)
        for id in ["first", "second"] {
            guard case .extended = try store.extendRenewalDate(originalTransactionID: trial.originalID, days: 3, requestIdentifier: id) else {
                Issue.record("not extended")
                return
            }
        }
        #expect(try store.recordNotifications() == 2)
        #expect(try recorded().dropFirst(before) == ["RENEWAL_EXTENDED//\(renewal.id)", "RENEWAL_EXTENDED//\(renewal.id)"])
        #expect(try store.recordNotifications() == 0)

        // A request repeated answers the first result: nothing extended, nothing told.
        _ = try store.extendRenewalDate(originalTransactionID: trial.originalID, days: 3, requestIdentifier: "first")
        #expect(try store.recordNotifications() == 0)
    }

    /// An extension for all subscribers and one for a subscription, then its refund, within one look: both
    /// extensions are told, before the refund.
    @Test func extensionsBeforeARefundInOneLook() throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        let trial = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)
        try store.recordNotifications()
        let renewal = try #require(try store.allTransactions().last)
        #expect(try extendAll(UUID().uuidString.lowercased()) == 200)
        _ = try store.extendRenewalDate(originalTransactionID: trial.originalID, days: 2, requestIdentifier: "one")
        _ = try store.refund(transactionID: renewal.id)
        try store.recordNotifications()
        let told = try store.notificationRecords().filter { $0.transactionID == renewal.id }.map(\.notificationType)
        #expect(told.suffix(3) == ["RENEWAL_EXTENDED", "RENEWAL_EXTENDED", "REFUND"], "\(told)")
    }

    @Test func nothingIsRecordedWithoutAURL() throws {
        _ = try store.buyProduct(Self.gold)  // a free trial: it fails
        #expect(try extendAll(UUID().uuidString) == 200)
        try store.forceRenewal(productID: Self.gold)
        #expect(try extendAll(UUID().uuidString) == 200)
        #expect(try store.notificationRecords().isEmpty)
    }

    /// Two processes' stores asking for the same request at once: one extension, one summary (the summary is
    /// written in the SQL transaction that records the request).
    @Test func racingStoresSummarizeARequestOnce() async throws {
        try store.setNotificationURL("http://127.0.0.1:1/notifications")
        _ = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)
        let id = UUID().uuidString.lowercased()
        let stores = try (0..<4).map { _ in
            try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try base.folder.state,
                           bundleID: ServerAPITests.bundleID)
        }
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for other in stores {
                group.addTask { try other.extendRenewalDates(productID: Self.gold, days: 3, requestIdentifier: id).succeededCount }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == [1, 1, 1, 1])
        #expect(try renewalExtensionRecords().map { $0.subtype } == ["SUMMARY"])
        stores.forEach { $0.close() }
    }
}
