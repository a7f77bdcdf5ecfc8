import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPVerification

/// A command of the transaction manager: its usage line, help and what it does.
struct Command: Sendable {
    let name: String
    let arguments: String
    let help: String
    let run: @Sendable (LocalStore, [String], Output) throws -> Void
    /// Instead of `run`, for the commands that also need the state directory (ServerCommands.swift).
    var runInDirectory: (@Sendable (LocalStore, StateDirectory, [String], Output) throws -> Void)? = nil
}

/// Bad arguments: exit status 2.
struct UsageError: Error {
    let message: String
}

func argument(_ arguments: [String], _ index: Int, _ name: String) throws -> String {
    guard arguments.indices.contains(index) else { throw UsageError(message: "missing \(name)") }
    return arguments[index]
}

func number<T: FixedWidthInteger>(_ text: String, _ name: String) throws -> T {
    guard let value = T(text) else { throw UsageError(message: "\(name) must be a number, not '\(text)'") }
    return value
}

func uuid(_ text: String, _ name: String) throws -> UUID {
    guard let value = UUID(uuidString: text) else { throw UsageError(message: "\(name) must be a UUID, not '\(text)'") }
    return value
}

func onOff(_ text: String) throws -> Bool {
    switch text {
    case "on": true
    case "off": false
    default: throw UsageError(message: "expected on or off, not '\(text)'")
    }
}

let apiNames: [String: FailableAPI] = [
    "load-products": .loadProducts, "purchase": .purchase, "verification": .verification, "app-store-sync": .appStoreSync,
    "subscription-status": .subscriptionStatus, "app-transaction": .appTransaction,
    "manage-subscriptions": .manageSubscriptions, "refund-request": .refundRequest, "offer-code-redeem": .offerCodeRedeem,
]

func errorCode(_ text: String) throws -> StoreErrorCode {
    if let raw = Int32(text), let code = StoreErrorCode(rawValue: raw) { return code }
    let wanted = text.replacingOccurrences(of: "-", with: "").lowercased()
    guard let code = StoreErrorCode.allCases.first(where: { "\($0)".lowercased() == wanted }) else {
        throw UsageError(message: "unknown error '\(text)': give a status number (e.g. -104) or a name (e.g. payment-not-allowed)")
    }
    return code
}

let commands: [Command] = [
    Command(name: "products", arguments: "", help: "Lists the catalog's products with their prices in the current storefront.") { store, _, out in
        let settings = try store.currentSettings()
        out.table(["id", "type", "price", "subscription"], store.catalog.products.map { product in
            [product.id, "\(product.type)",
             PriceFormatter.format(product.price, currencyCode: settings.storefront.currencyCode, locale: settings.locale),
             product.subscription.map { "\($0.period) level \($0.level) of \($0.groupName)" } ?? ""]
        })
    },
    Command(name: "transactions", arguments: "", help: "Lists every transaction: id, product, type, state, dates, finished or not.") { store, _, out in
        let now = Date()
        let formatter = ISO8601DateFormatter()
        out.table(["id", "original", "product", "type", "qty", "state", "purchased", "expires", "finished", "renews", "offer"],
                  try store.history().map { entry in
            let t = entry.transaction
            let state = t.isRevoked ? "revoked" : (t.productType == .consumable ? "consumed" :
                (Entitlements.isActive(t, at: now) ? "active" : "expired"))
            return [String(t.id), String(t.originalID), t.productID, "\(t.productType)", String(t.quantity), state,
                    formatter.string(from: t.purchaseDate), t.expirationDate.map(formatter.string) ?? "",
                    entry.isFinished ? "yes" : "no", t.productType == .autoRenewable ? (entry.autoRenews ? "yes" : "no") : "",
                    t.offer.map { offer in offer.id.map { "\(offer.type) \($0)" } ?? "\(offer.type)" } ?? ""]
        })
    },
    Command(name: "buy", arguments: "PRODUCT [QUANTITY]", help: "Buys a product from outside the game; the game receives it as a purchase.") { store, args, out in
        let quantity: Int = try args.count > 1 ? number(args[1], "QUANTITY") : 1
        let transaction = try store.buyProduct(try argument(args, 0, "PRODUCT"), quantity: quantity)
        out.done("bought \(transaction.productID) x\(transaction.quantity): transaction \(transaction.id)", ["transactionId": transaction.id])
    },
    Command(name: "intent", arguments: "PRODUCT", help: "Starts a purchase in the App Store, outside the game; the game decides whether to pay.") { store, args, out in
        try store.requestPurchaseIntent(productID: try argument(args, 0, "PRODUCT"))
        out.done("purchase intent for \(args[0]) sent", [:])
    },
    Command(name: "sign-offer", arguments: "PRODUCT OFFER [ACCOUNT_TOKEN]",
            help: "Signs a promotional offer with the catalog's subscriptionOffersKeyPair, as the game's server would;\n"
                + "prints what a payment redeeming it passes (the signature is good for 24 hours, its nonce once).") { store, args, out in
        let token = try args.count > 2 ? uuid(args[2], "ACCOUNT_TOKEN") : nil
        let offer = try store.signPromotionalOffer(productID: try argument(args, 0, "PRODUCT"),
                                                   offerID: try argument(args, 1, "OFFER"), appAccountToken: token)
        out.table(["offerId", "keyId", "nonce", "timestamp", "signature"],
                  [[offer.offerID, offer.keyID, offer.nonce.uuidString.lowercased(), String(offer.timestamp),
                    offer.signature.base64EncodedString()]])
    },
    Command(name: "pending", arguments: "", help: "Lists the purchases waiting for Ask to Buy approval.") { store, _, out in
        out.table(["id", "waits for", "product", "qty", "asked"], try store.pendingPurchases().map {
            [String($0.id), $0.kind == .askToBuy ? "approval" : "resolution", $0.productID, String($0.quantity),
             ISO8601DateFormatter().string(from: $0.requestDate)]
        })
    },
    Command(name: "approve", arguments: "PENDING_ID", help: "Approves a deferred (Ask to Buy) purchase: it is charged and reaches the game.") { store, args, out in
        let transaction = try store.approveAskToBuy(try number(try argument(args, 0, "PENDING_ID"), "PENDING_ID"))
        out.done("approved: transaction \(transaction.id)", ["transactionId": transaction.id])
    },
    Command(name: "decline", arguments: "PENDING_ID", help: "Declines a deferred (Ask to Buy) purchase: nothing is charged.") { store, args, out in
        try store.declineAskToBuy(try number(try argument(args, 0, "PENDING_ID"), "PENDING_ID"))
        out.done("declined", [:])
    },
    Command(name: "interrupted", arguments: "on|off", help: "Interrupts purchases until the user resolves them (resolve PENDING_ID).") { store, args, out in
        try store.setInterruptedPurchasesEnabled(try onOff(try argument(args, 0, "on|off")))
        out.done("interrupted purchases set", [:])
    },
    Command(name: "resolve", arguments: "PENDING_ID", help: "The user resolves an interrupted purchase: it is charged and reaches the game.") { store, args, out in
        let transaction = try store.resolveInterruptedPurchase(try number(try argument(args, 0, "PENDING_ID"), "PENDING_ID"))
        out.done("resolved: transaction \(transaction.id)", ["transactionId": transaction.id])
    },
    Command(name: "refund", arguments: "TRANSACTION_ID [issue|other]", help: "Refunds a transaction; the game receives a revoked event.") { store, args, out in
        let reason: RevocationReason = (args.count > 1 && args[1] == "issue") ? .refundedDueToIssue : .refundedForOtherReason
        if args.count > 1 && !["issue", "other"].contains(args[1]) { throw UsageError(message: "reason must be issue or other") }
        let transaction = try store.refund(transactionID: try number(try argument(args, 0, "TRANSACTION_ID"), "TRANSACTION_ID"), reason: reason)
        out.done("refunded transaction \(transaction.id)", ["transactionId": transaction.id])
    },
    Command(name: "expire", arguments: "PRODUCT", help: "Ends an active subscription now, without renewing.") { store, args, out in
        try store.expireSubscription(productID: try argument(args, 0, "PRODUCT"))
        out.done("expired", [:])
    },
    Command(name: "renew", arguments: "PRODUCT", help: "Renews an active subscription now (a forced renewal).") { store, args, out in
        try store.forceRenewal(productID: try argument(args, 0, "PRODUCT"))
        out.done("renewed", [:])
    },
    Command(name: "auto-renew", arguments: "PRODUCT on|off", help: "Turns an active subscription's auto-renew on or off.") { store, args, out in
        try store.setAutoRenew(productID: try argument(args, 0, "PRODUCT"), enabled: try onOff(try argument(args, 1, "on|off")))
        out.done("auto-renew set", [:])
    },
    Command(name: "billing-issues", arguments: "on|off", help: "Makes renewals fail to charge: subscriptions enter billing retry.") { store, args, out in
        try store.setBillingIssuesEnabled(try onOff(try argument(args, 0, "on|off")))
        out.done("billing issues set", [:])
    },
    Command(name: "grace-period", arguments: "on|off", help: "Keeps a subscription in billing retry active through a grace period.") { store, args, out in
        try store.setBillingGracePeriodEnabled(try onOff(try argument(args, 0, "on|off")))
        out.done("grace period set", [:])
    },
    Command(name: "resolve-billing", arguments: "PRODUCT", help: "The user fixes the payment of a subscription in billing retry: it renews now.") { store, args, out in
        try store.resolveBillingIssue(productID: try argument(args, 0, "PRODUCT"))
        out.done("billing issue resolved", [:])
    },
    Command(name: "ask-to-buy", arguments: "on|off", help: "Turns Ask to Buy on or off.") { store, args, out in
        try store.setAskToBuyEnabled(try onOff(try argument(args, 0, "on|off")))
        out.done("ask to buy set", [:])
    },
    Command(name: "dialog", arguments: "confirm|cancel", help: "What the simulated user answers in the purchase sheet.") { store, args, out in
        guard let response = PurchaseDialogResponse(rawValue: try argument(args, 0, "confirm|cancel")) else {
            throw UsageError(message: "expected confirm or cancel")
        }
        try store.setPurchaseDialogResponse(response)
        out.done("purchase dialog answers \(response.rawValue)", [:])
    },
    Command(name: "error", arguments: "set API ERROR | clear API",
            help: "Makes an API fail with an error (a status like -104 or a name like payment-not-allowed), or stops it.\n"
                + "APIs: " + apiNames.keys.sorted().joined(separator: ", ")) { store, args, out in
        let action = try argument(args, 0, "set|clear")
        let name = try argument(args, 1, "API")
        guard let api = apiNames[name] else { throw UsageError(message: "unknown API '\(name)'") }
        switch action {
        case "set": try store.setSimulatedError(try errorCode(try argument(args, 2, "ERROR")), for: api)
        case "clear": try store.setSimulatedError(nil, for: api)
        default: throw UsageError(message: "expected set or clear, not '\(action)'")
        }
        out.done("\(name): \(action == "set" ? "fails" : "works")", [:])
    },
    Command(name: "time-rate", arguments: "RATE", help: "Sets how fast subscription time runs: a number or a name, e.g. 13 or monthlyRenewalEveryFiveMinutes.") { store, args, out in
        let text = try argument(args, 0, "RATE")
        guard let rate = Int(text).flatMap(TimeRate.init(rawValue:)) ?? TimeRate.allCases.first(where: { "\($0)" == text }) else {
            throw UsageError(message: "unknown time rate '\(text)'; known: \(TimeRate.allCases.map { "\($0.rawValue) \($0)" }.joined(separator: ", "))")
        }
        try store.setTimeRate(rate)
        out.done("time rate \(rate)", [:])
    },
    Command(name: "storefront", arguments: "CODE", help: "Sets the storefront (ISO 3166-1 alpha-3, e.g. DEU).") { store, args, out in
        try store.setStorefront(try argument(args, 0, "CODE"))
        out.done("storefront set", [:])
    },
    Command(name: "locale", arguments: "ID", help: "Sets the locale titles and prices are shown in (e.g. de_DE).") { store, args, out in
        try store.setLocale(try argument(args, 0, "ID"))
        out.done("locale set", [:])
    },
    Command(name: "settings", arguments: "", help: "Shows the settings in force.") { store, _, out in
        let settings = try store.currentSettings()
        out.table(["setting", "value"], [
            ["storefront", settings.storefront.code], ["locale", settings.locale],
            ["ask to buy", settings.askToBuyEnabled ? "on" : "off"], ["time rate", "\(settings.timeRate)"],
            ["interrupted purchases", settings.interruptedPurchasesEnabled ? "on" : "off"],
            ["billing issues", settings.billingIssuesEnabled ? "on" : "off"],
            ["grace period", settings.billingGracePeriodEnabled ? "on" : "off"],
            ["purchase dialog", settings.purchaseDialogResponse.rawValue],
        ] + settings.simulatedErrors.sorted { $0.key.rawValue < $1.key.rawValue }.map { ["error: \($0.key.catalogName)", "\($0.value)"] })
    },
    Command(name: "verify", arguments: "JWS", help: "Verifies a signed transaction with this store's root and bundle id; prints the payload.") { store, args, out in
        let payload = try store.makeVerifier().verifyTransaction(try argument(args, 0, "JWS"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(payload), as: UTF8.self))
    },
    Command(name: "delete", arguments: "TRANSACTION_ID", help: "Removes one transaction from the history.") { store, args, out in
        try store.deleteTransaction(try number(try argument(args, 0, "TRANSACTION_ID"), "TRANSACTION_ID"))
        out.done("deleted", [:])
    },
    Command(name: "clear", arguments: "", help: "Removes every transaction and waiting purchase.") { store, _, out in
        try store.clearTransactions()
        out.done("cleared", [:])
    },
    Command(name: "reset", arguments: "", help: "Clears the history and every setting override: the catalog's defaults apply.") { store, _, out in
        try store.resetToDefaultState()
        out.done("reset", [:])
    },
] + serverAPICommands + appTransactionCommands
