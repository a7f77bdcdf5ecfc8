import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTestSupport
import IOSiAPVerification
import Testing

/// A game's backend verifying an App Store Server Notification V2 in Swift, as Apple's libraries'
/// `verifyAndDecodeNotification` does: the notifications the local store records verify against its root, and
/// a notification for another app, from another environment, signed by another chain, tampered with or
/// hostile is refused with a clear error, never a trap.
@Suite struct NotificationVerificationTests {
    let folder = TemporaryDirectory()
    static let gold = "com.iosiap.example.club_gold_monthly"
    static let bundleID = "com.iosiap.tests"
    /// Inside a new test chain's validity, which starts a day ago.
    static let now = String(Int64(Date().timeIntervalSince1970 * 1000))

    func openStore(bundleID: String = "com.example.game", environment: StoreEnvironment = .sandbox) throws -> LocalStore {
        let store = try LocalStore(catalog: Catalog.load(contentsOf: Fixtures.exampleCatalog), stateDirectory: try folder.state,
                                   bundleID: bundleID, environment: environment)
        try store.setNotificationURL("http://127.0.0.1:1/n")
        return store
    }

    /// What `body` threw: a `StoreError`, or `nil` when it did not throw one.
    func error(_ body: () throws -> Void) -> StoreError? {
        do { try body(); return nil } catch { return error as? StoreError }
    }

    /// A verifier trusting `chain`'s root, expecting the test bundle id.
    func verifier(trusting chain: SigningChain, environment: StoreEnvironment = .sandbox,
                  appAppleID: UInt64? = nil) throws -> SignedDataVerifier {
        try SignedDataVerifier(trustedRoots: [chain.root.der], bundleID: Self.bundleID, environment: environment, appAppleID: appAppleID)
    }

    // MARK: - What the local store records

    @Test func aSubscriptionsNotificationVerifiesWithTheStoresRootAndSaysWhatTheRecordSays() throws {
        let store = try openStore()
        let bought = try store.buyProduct(Self.gold)
        #expect(try store.recordNotifications() == 1)
        let record = try #require(try store.notificationRecords().first)
        let verifier = try SignedDataVerifier(trustedRoots: [store.signingRootCertificate], bundleID: store.bundleID,
                                              environment: store.environment)
        let payload = try verifier.verifyNotification(record.signedPayload)
        #expect(payload.notificationType == "SUBSCRIBED" && payload.subtype == "INITIAL_BUY")
        #expect(payload.notificationType == record.notificationType && payload.subtype == record.subtype)
        #expect(payload.notificationUUID == record.notificationUUID && payload.version == "2.0")
        #expect(payload.signedDate.map { Int64($0.value) } == record.signedDate)
        #expect(payload.summary == nil && payload.externalPurchaseToken == nil)
        let data = try #require(payload.data)
        #expect(data.bundleId == "com.example.game" && data.environment == "Sandbox" && data.status == 1)
        let transaction = try verifier.verifyTransaction(try #require(data.signedTransactionInfo))
        #expect(transaction.transactionId == String(bought.id) && transaction.productId == Self.gold)
        let renewal = try verifier.verifyRenewalInfo(try #require(data.signedRenewalInfo))
        #expect(renewal.originalTransactionId == String(bought.originalID))
    }

    @Test func aTestNotificationVerifiesWithNoTransaction() throws {
        let store = try openStore()
        let requested = try store.requestTestNotification()
        let record = try #require(try store.notificationRecords().first)
        let payload = try store.makeVerifier().verifyNotification(record.signedPayload)
        #expect(payload.notificationType == "TEST" && payload.subtype == nil)
        #expect(payload.notificationUUID == requested.notificationUUID && payload.signedDate.map { Int64($0.value) } == requested.signedDate)
        #expect(payload.data?.signedTransactionInfo == nil && payload.data?.bundleId == "com.example.game")
    }

    /// A RENEWAL_EXTENSION SUMMARY carries `summary` in place of `data`: its bundle id and environment are checked.
    @Test func aSummaryNotificationVerifiesThroughItsSummary() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.gold)
        try store.forceRenewal(productID: Self.gold)
        let done = try store.extendRenewalDates(productID: Self.gold, days: 3, requestIdentifier: "mass-1")
        let record = try #require(try store.notificationRecords().first { $0.subtype == "SUMMARY" })
        let payload = try store.makeVerifier().verifyNotification(record.signedPayload)
        #expect(payload.data == nil)
        let summary = try #require(payload.summary)
        #expect(summary.requestIdentifier == "mass-1" && summary.productId == Self.gold)
        #expect(summary.bundleId == "com.example.game" && summary.environment == "Sandbox")
        #expect(summary.succeededCount == Int64(done.succeededCount) && summary.failedCount == 0)
        let other = try SignedDataVerifier(trustedRoots: [store.signingRootCertificate], bundleID: "com.other.game", environment: .sandbox)
        #expect(error { _ = try other.verifyNotification(record.signedPayload) }?.code == .verificationInvalidAppIdentifier)
    }

    @Test func aNotificationForAnotherAppIsRefused() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.gold)
        try store.recordNotifications()
        let record = try #require(try store.notificationRecords().first)
        let verifier = try SignedDataVerifier(trustedRoots: [store.signingRootCertificate], bundleID: "com.other.game", environment: .sandbox)
        let refused = try #require(error { _ = try verifier.verifyNotification(record.signedPayload) })
        #expect(refused.code == .verificationInvalidAppIdentifier)
        #expect(refused.message.contains("com.example.game") && refused.message.contains("com.other.game"), "\(refused.message)")
    }

    @Test func aNotificationFromAnotherEnvironmentIsRefused() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.gold)
        try store.recordNotifications()
        let record = try #require(try store.notificationRecords().first)
        let verifier = try SignedDataVerifier(trustedRoots: [store.signingRootCertificate], bundleID: store.bundleID, environment: .xcode)
        let refused = try #require(error { _ = try verifier.verifyNotification(record.signedPayload) })
        #expect(refused.code == .verificationInvalidEnvironment && refused.message.contains("Sandbox"), "\(refused.message)")
    }

    @Test func aNotificationResignedByAnotherChainOrTamperedWithIsRefused() throws {
        let store = try openStore()
        _ = try store.buyProduct(Self.gold)
        try store.recordNotifications()
        let signed = try #require(try store.notificationRecords().first).signedPayload
        let parts = signed.split(separator: ".").map(String.init)
        let json = try #require(Base64URL.decode(parts[1]))
        // The same payload signed by a chain the verifier does not trust.
        let forged = try SigningChain.create().sign(json)
        #expect(error { _ = try store.makeVerifier().verifyNotification(forged) }?.code == .verificationUntrustedChain)
        // The store's signature over a changed payload.
        let changed = Array(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "SUBSCRIBED", with: "DID_RENEW").utf8)
        let tampered = [parts[0], Base64URL.encode(changed), parts[2]].joined(separator: ".")
        #expect(error { _ = try store.makeVerifier().verifyNotification(tampered) }?.code == .verificationInvalidSignature)
        // A signed transaction is not a notification: no data, summary or token says which app it is for.
        let transaction = try #require(try store.allTransactions().first?.signedJWS)
        #expect(error { _ = try store.makeVerifier().verifyNotification(transaction) }?.code == .verificationInvalidAppIdentifier)
    }

    // MARK: - Apple's order: data, else summary, else externalPurchaseToken, else appData

    @Test func whereTheAppIsNamedFollowsApplesOrder() throws {
        let chain = try SigningChain.create()
        let verifier = try verifier(trusting: chain)
        func verify(_ body: String) throws -> NotificationPayload {
            try verifier.verifyNotification(try chain.sign(Array(#"{"notificationType":"X","signedDate":\#(Self.now),\#(body)}"#.utf8)))
        }
        let app = #""bundleId":"\#(Self.bundleID)""#
        // `data` wins over a `summary` naming another app.
        let both = try verify(#""data":{\#(app),"environment":"Sandbox"},"summary":{"bundleId":"x","environment":"Production"}"#)
        #expect(both.data?.bundleId == Self.bundleID && both.summary?.bundleId == "x")
        #expect(error { _ = try verify(#""data":{"bundleId":"x","environment":"Sandbox"},"summary":{\#(app),"environment":"Sandbox"}"#) }?
            .code == .verificationInvalidAppIdentifier)
        // An external purchase token's environment is its id's prefix: SANDBOX, else Production.
        let token = try verify(#""externalPurchaseToken":{\#(app),"externalPurchaseId":"SANDBOX_123","tokenCreationDate":1700000000000}"#)
        #expect(token.externalPurchaseToken?.externalPurchaseId == "SANDBOX_123")
        #expect(token.externalPurchaseToken?.tokenCreationDate?.value == 1_700_000_000_000)
        #expect(error { _ = try verify(#""externalPurchaseToken":{\#(app),"externalPurchaseId":"123"}"#) }?.code == .verificationInvalidEnvironment)
        let appData = try verify(#""appData":{\#(app),"environment":"Sandbox","signedAppTransactionInfo":"a.b.c"}"#)
        #expect(appData.appData?.signedAppTransactionInfo == "a.b.c")
        // None of them: nothing says which app it is for.
        let none = try #require(error { _ = try verify(#""version":"2.0""#) })
        #expect(none.code == .verificationInvalidAppIdentifier, "\(none.message)")
        // Unknown types, subtypes and fields are kept or ignored, not refused.
        let unknown = try verify(#""subtype":"SOMETHING_NEW","future":{"a":[1]},"data":{\#(app),"environment":"Sandbox","status":9,"consumptionRequestReason":"NEW"}"#)
        #expect(unknown.notificationType == "X" && unknown.subtype == "SOMETHING_NEW" && unknown.data?.status == 9)
        #expect(unknown.data?.consumptionRequestReason == "NEW")
    }

    /// In Production, as for an App Transaction, the notification's App Store id must be the app's.
    @Test func productionChecksTheAppsAppStoreID() throws {
        let chain = try SigningChain.create()
        let signed = try chain.sign(Array(#"""
            {"notificationType":"TEST","signedDate":\#(Self.now),
             "data":{"bundleId":"\#(Self.bundleID)","environment":"Production","appAppleId":1234}}
            """#.utf8))
        #expect(try verifier(trusting: chain, environment: .production, appAppleID: 1234).verifyNotification(signed).data?.appAppleId == 1234)
        for wrong in [nil, UInt64(99)] {
            let refused = error { _ = try verifier(trusting: chain, environment: .production, appAppleID: wrong).verifyNotification(signed) }
            #expect(refused?.code == .verificationInvalidAppIdentifier)
        }
        // Elsewhere the App Store signs no App Store id, and none is asked for.
        #expect(error { _ = try verifier(trusting: chain, environment: .sandbox).verifyNotification(signed) }?.code == .verificationInvalidEnvironment)
    }

    /// The verifier reads payloads with its fast decoder first: a notification's nested objects are read by it
    /// (it does not give up on them) and exactly as JSONDecoder reads them.
    @Test func theFastDecoderReadsANotificationAsJSONDecoderDoes() throws {
        let json = Array(#"""
            {"notificationType":"RENEWAL_EXTENSION","subtype":"SUMMARY","notificationUUID":"u","version":"2.0",
             "signedDate":1767225600000.5,"future":{"x":[1,{"y":null}]},
             "data":{"appAppleId":18446744073709551615,"bundleId":"b","bundleVersion":"1","environment":"Sandbox",
                     "signedTransactionInfo":"a.b.c","signedRenewalInfo":"d.e.f","status":5,"consumptionRequestReason":"LEGAL"},
             "summary":{"requestIdentifier":"r","environment":"Sandbox","appAppleId":1,"bundleId":"b","productId":"p",
                        "storefrontCountryCodes":["CAN","USA"],"failedCount":0,"succeededCount":9223372036854775807},
             "externalPurchaseToken":{"externalPurchaseId":"SANDBOX_1","tokenCreationDate":1767225600000,"appAppleId":1,
                                      "bundleId":"b","tokenType":"SERVICES","tokenExpirationDate":1767225600000},
             "appData":{"appAppleId":1,"bundleId":"b","environment":"Sandbox","signedAppTransactionInfo":"g.h.i"}}
            """#.utf8)
        let fast = try PayloadDecoder.decode(NotificationPayload.self, from: json)
        #expect(fast == (try JSONDecoder().decode(NotificationPayload.self, from: Data(json))))
        #expect(fast.data?.appAppleId == .max && fast.summary?.succeededCount == .max && fast.appData?.signedAppTransactionInfo == "g.h.i")
        #expect(fast.externalPurchaseToken?.tokenType == "SERVICES" && fast.summary?.storefrontCountryCodes == ["CAN", "USA"])
    }

    // MARK: - Hostile payloads, genuinely signed

    static let hostile: [(String, String)] = [
        ("signedDate", #""signedDate":1e300,"data":{"bundleId":"B","environment":"Sandbox"}"#),
        ("signedDate", #""signedDate":99999999999999999999999,"data":{"bundleId":"B","environment":"Sandbox"}"#),
        ("signedDate", #""signedDate":-1,"data":{"bundleId":"B","environment":"Sandbox"}"#),
        ("status", #""signedDate":NOW,"data":{"bundleId":"B","environment":"Sandbox","status":4294967296}"#),
        ("appAppleId", #""signedDate":NOW,"data":{"bundleId":"B","environment":"Sandbox","appAppleId":-5}"#),
        ("failedCount", #""signedDate":NOW,"summary":{"bundleId":"B","environment":"Sandbox","failedCount":1e30}"#),
        ("succeededCount", #""signedDate":NOW,"summary":{"bundleId":"B","environment":"Sandbox","succeededCount":9223372036854775808}"#),
        ("tokenCreationDate", #""signedDate":NOW,"externalPurchaseToken":{"bundleId":"B","tokenCreationDate":1e400}"#),
        ("data", #""signedDate":NOW,"data":"B""#),
        ("summary", #""signedDate":NOW,"summary":[1,2]"#),
        ("notificationType", #""signedDate":NOW,"notificationType":7,"data":{"bundleId":"B","environment":"Sandbox"}"#),
        ("storefrontCountryCodes", #""signedDate":NOW,"summary":{"bundleId":"B","environment":"Sandbox","storefrontCountryCodes":"USA"}"#),
        ("bundleId", #""signedDate":NOW,"data":{"bundleId":true,"environment":"Sandbox"}"#),
    ]

    @Test(arguments: hostile)
    func aHostileFieldIsAFormatErrorNamingIt(field: String, body: String) throws {
        let chain = try SigningChain.create()
        let json = "{" + body.replacingOccurrences(of: "NOW", with: Self.now).replacingOccurrences(of: #""B""#, with: "\"\(Self.bundleID)\"") + "}"
        let refused = try #require(error { _ = try verifier(trusting: chain).verifyNotification(try chain.sign(Array(json.utf8))) })
        #expect(refused.code == .verificationInvalidFormat, "\(refused.message)")
        #expect(refused.message.contains(field), "\(refused.message)")
    }

    @Test func deepNestingIsAFormatError() throws {
        let chain = try SigningChain.create()
        for depth in [20, 600, 100_000] {
            let json = #"{"signedDate":\#(Self.now),"data":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}"
            let refused = error { _ = try verifier(trusting: chain).verifyNotification(try chain.sign(Array(json.utf8))) }
            #expect(refused?.code == .verificationInvalidFormat || refused?.code == .verificationInputTooLarge, "\(String(describing: refused))")
        }
    }
}
