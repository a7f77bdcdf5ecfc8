import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// Input a control cannot take (a missing or malformed value): `iosiap-store` exits 2 with it, the page shows
/// it. Thrown before the store is touched, so bad input changes nothing.
public struct ControlInputError: Error, Sendable, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
}

/// What a control did, in a sentence, and the transaction it made or changed, if any.
public struct ControlResult: Sendable, Equatable {
    public let message: String
    public let transactionID: UInt64?
    init(_ message: String, transactionID: UInt64? = nil) {
        self.message = message
        self.transactionID = transactionID
    }
}

/// One control of the transaction manager (refund, approve, a setting…): the single implementation behind the
/// `iosiap-store` command of that name and the page's button or form. Its values arrive by parameter: the
/// command line gives them in order, a form by field name.
public struct StoreControl: Sendable {
    /// One value a control takes.
    public struct Parameter: Sendable {
        /// How usage lines show it, e.g. `TRANSACTION_ID`.
        public let usage: String
        /// The form field carrying it, e.g. `transactionId`.
        public let field: String
        public let isOptional: Bool
        /// What the command line takes when the value is left out; a form must give every value it needs (the
        /// page asks the tester to choose), so a form without it is refused.
        public let commandLineDefault: String?
    }

    /// The command's name and the page's action name, e.g. `refund`.
    public let name: String
    public let parameters: [Parameter]
    /// The switches it takes: `--NAME` on the command line, a field `NAME` set to `on` in a form (e.g. `family`).
    public let flags: [String]
    /// The usage line's arguments, when they say more than the parameters' names.
    public let arguments: String
    public let help: String
    private let perform: @Sendable (LocalStore, ControlValues) throws -> ControlResult

    init(_ name: String, _ parameters: [(String, String)], flags: [String] = [], arguments: String? = nil,
         commandLineDefaults: [String: String] = [:], help: String,
         perform: @escaping @Sendable (LocalStore, ControlValues) throws -> ControlResult) {
        self.name = name
        self.parameters = parameters.map { usage, field in
            Parameter(usage: usage.hasSuffix("?") ? String(usage.dropLast()) : usage, field: field, isOptional: usage.hasSuffix("?"),
                      commandLineDefault: commandLineDefaults[field])
        }
        self.flags = flags
        self.arguments = arguments ?? (flags.map { "[--\($0)]" } + self.parameters.map { $0.isOptional ? "[\($0.usage)]" : $0.usage })
            .joined(separator: " ")
        self.help = help
        self.perform = perform
    }

    /// Runs the control with values given in order (the command line), its switches (`--NAME`) anywhere among
    /// them. More values than parameters, or a switch it does not take, is bad input.
    public func run(_ store: LocalStore, arguments: [String]) throws -> ControlResult {
        var switches: [String: String] = [:]
        var values: [String] = []
        for argument in arguments {
            // Every "--" word is an option (a bare "--" too): never taken for a value, which would shift the others.
            guard argument.hasPrefix("--") else {
                // An empty word ("") is a value left blank by mistake, not one left out: never its default.
                if argument.allSatisfy(\.isWhitespace), values.count < parameters.count {
                    throw ControlInputError("\(parameters[values.count].usage) is empty")
                }
                values.append(argument)
                continue
            }
            let flag = String(argument.dropFirst(2))
            guard !flag.isEmpty, flags.contains(flag) else { throw ControlInputError("unknown option '\(argument)'") }
            switches[flag] = "on"
        }
        guard values.count <= parameters.count else { throw ControlInputError("unexpected '\(values[parameters.count])'") }
        var given = Dictionary(uniqueKeysWithValues: zip(parameters.map(\.field), values))
        for parameter in parameters.dropFirst(values.count) {
            if let value = parameter.commandLineDefault { given[parameter.field] = value }
        }
        return try perform(store, ControlValues(given, from: .commandLine).merging(switches) { value, _ in value })
    }

    /// Runs the control with values given by field name (a form); fields it does not take are ignored.
    public func run(_ store: LocalStore, fields: [String: String]) throws -> ControlResult {
        try perform(store, ControlValues(fields, from: .form))
    }

    /// The control named `name`, if any.
    public static func named(_ name: String) -> StoreControl? {
        all.first { $0.name == name }
    }
}

/// A control's values by field name, with the parsers every control shares: each throws `ControlInputError`
/// naming the parameter and what it expected, as its source names it (`TRANSACTION_ID` on the command line's
/// usage line, "transaction id" for the page's tester).
struct ControlValues {
    enum Source { case commandLine, form }
    private let values: [String: String]
    private let source: Source
    init(_ values: [String: String], from source: Source) {
        self.values = values
        self.source = source
    }

    /// A parameter's usage name (`TRANSACTION_ID`) as this source's user knows it.
    private func name(_ usage: String) -> String {
        source == .commandLine ? usage : usage.lowercased().replacingOccurrences(of: "_", with: " ")
    }

    /// The value of `field`, trimmed; nil when missing or empty.
    func optional(_ field: String) -> String? {
        guard let value = values[field]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        return value
    }

    func text(_ field: String, _ usage: String) throws -> String {
        guard let value = optional(field) else { throw ControlInputError("missing \(name(usage))") }
        return value
    }

    /// A whole number, within `allowed` if given (`why` says whose limit it is).
    func number<T: FixedWidthInteger>(_ field: String, _ usage: String, allowed: ClosedRange<T>? = nil, why: String = "") throws -> T {
        let text = try text(field, usage)
        let outOfRange = ControlInputError("\(name(usage)) must be \((allowed ?? T.min...T.max).lowerBound) to "
            + "\((allowed ?? T.min...T.max).upperBound)\(why.isEmpty ? "" : " (\(why))"), not \(text)")
        guard let value = T(text) else {
            // Digits that do not fit are a number out of range, not "not a number".
            let digits = text.hasPrefix("-") || text.hasPrefix("+") ? text.dropFirst() : Substring(text)
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) { throw outOfRange }
            throw ControlInputError("\(name(usage)) must be a number, not '\(text)'")
        }
        if let allowed, !allowed.contains(value) { throw outOfRange }
        return value
    }

    /// A switch: on when the field is `on` (a command line's `--NAME`, a form's checked box).
    func flag(_ field: String) -> Bool {
        optional(field) == "on"
    }

    /// These values with `other`'s added (a value given twice keeps this one).
    func merging(_ other: [String: String], _ combine: (String, String) -> String) -> ControlValues {
        ControlValues(values.merging(other, uniquingKeysWith: combine), from: source)
    }

    func onOff(_ field: String) throws -> Bool {
        switch try text(field, "on|off") {
        case "on": return true
        case "off": return false
        case let other: throw ControlInputError("expected on or off, not '\(other)'")
        }
    }
}

extension StoreControl {
    /// The names the controls and the page use for the APIs that can be made to fail.
    public static let apiNames: [String: FailableAPI] = [
        "load-products": .loadProducts, "purchase": .purchase, "verification": .verification, "app-store-sync": .appStoreSync,
        "subscription-status": .subscriptionStatus, "app-transaction": .appTransaction,
        "manage-subscriptions": .manageSubscriptions, "refund-request": .refundRequest, "offer-code-redeem": .offerCodeRedeem,
    ]

    /// The kinds of App Store message `message` raises, by the name the command and the page use.
    public static let messageReasons: [String: StoreMessage.Reason] = [
        "price-increase": .priceIncreaseConsent, "billing-issue": .billingIssue, "win-back": .winBackOffer, "generic": .generic,
    ]

    /// An error code by status number (`-104`) or name (`payment-not-allowed`, `paymentNotAllowed`).
    static func errorCode(_ text: String) throws -> StoreErrorCode {
        if let raw = Int32(text), let code = StoreErrorCode(rawValue: raw) { return code }
        let wanted = text.replacingOccurrences(of: "-", with: "").lowercased()
        guard let code = StoreErrorCode.allCases.first(where: { "\($0)".lowercased() == wanted }) else {
            throw ControlInputError("unknown error '\(text)': give a status number (e.g. -104) or a name: "
                + StoreErrorCode.allCases.map { "\(kebabCase("\($0)")) (\($0.rawValue))" }.joined(separator: ", "))
        }
        return code
    }

    /// `paymentNotAllowed` as `payment-not-allowed`.
    /// (`invalidUTF8` as `invalid-utf8`: a run of capitals is one word.)
    static func kebabCase(_ name: String) -> String {
        var result = ""
        var previous: Character?
        for character in name {
            if character.isUppercase, let previous, !previous.isUppercase { result += "-" }
            result += character.lowercased()
            previous = character
        }
        return result
    }

    /// Why a refund was made: `issue` (an issue in the app) or `other`.
    static func revocationReason(_ values: ControlValues) throws -> RevocationReason {
        switch try values.text("reason", "REASON (issue or other)") {
        case "issue": return .refundedDueToIssue
        case "other": return .refundedForOtherReason
        default: throw ControlInputError("reason must be issue or other")
        }
    }

    /// A time rate by raw value (`13`) or name (`monthlyRenewalEveryFiveMinutes`).
    static func timeRate(_ text: String) throws -> TimeRate {
        guard let rate = Int(text).flatMap(TimeRate.init(rawValue:)) ?? TimeRate.allCases.first(where: { "\($0)" == text }) else {
            throw ControlInputError("unknown time rate '\(text)'; known: \(TimeRate.allCases.map { "\($0.rawValue) \($0)" }.joined(separator: ", "))")
        }
        return rate
    }

    /// Every control, in the order `iosiap-store help` lists them.
    public static let all: [StoreControl] = [
        StoreControl("buy", [("PRODUCT", "product"), ("QUANTITY?", "quantity")], flags: ["family"],
                     help: "Buys a product from outside the game; the game receives it as a purchase.\n"
                         + "--family: a family member buys it and shares it (Family Sharing; the catalog's familyShareable\n"
                         + "products only): it reaches the game owned FAMILY_SHARED; stop-family-sharing takes it back.") { store, values in
            let product = try values.text("product", "PRODUCT")
            if values.flag("family") {
                guard values.optional("quantity") == nil else { throw ControlInputError("a family member shares one: no QUANTITY with --family") }
                let shared = try store.buyFamilySharedProduct(product)
                return ControlResult("a family member bought \(shared.productID) and shares it: transaction \(shared.id)",
                                     transactionID: shared.id)
            }
            let quantity: Int = values.optional("quantity") == nil ? 1
                : try values.number("quantity", "QUANTITY", allowed: PaymentRequest.allowedQuantities, why: "StoreKit's limit")
            let transaction = try store.buyProduct(product, quantity: quantity)
            return ControlResult("bought \(transaction.productID) x\(transaction.quantity): transaction \(transaction.id)",
                                 transactionID: transaction.id)
        },
        StoreControl("redeem-code", [("PRODUCT", "product"), ("OFFER", "offer")],
                     help: "Redeems offer code OFFER (its codeOffers reference name) of subscription PRODUCT, as the user would in\n"
                         + "the App Store: the game receives a purchase with offer type 3. Refused, charging nothing, when the\n"
                         + "code's eligibility (new, existing or expired subscribers of the group) does not fit this user.") { store, values in
            let product = try values.text("product", "PRODUCT")
            let offer = try values.text("offer", "OFFER")
            let transaction = try store.redeemOfferCode(productID: product, referenceName: offer)
            return ControlResult("redeemed offer code \(offer) of \(product): transaction \(transaction.id)", transactionID: transaction.id)
        },
        StoreControl("intent", [("PRODUCT", "product"), ("OFFER?", "offer")],
                     help: "Starts a purchase in the App Store, outside the game; the game decides whether to pay.\n"
                         + "OFFER: the user redeems that win-back offer of subscription PRODUCT there (StoreKit: PurchaseIntent.offer);\n"
                         + "refused, sending nothing, unless the user is a lapsed subscriber the offer is for.") { store, values in
            let product = try values.text("product", "PRODUCT")
            let offer = values.optional("offer")
            try store.requestPurchaseIntent(productID: product, offerID: offer)
            return ControlResult("purchase intent for \(product)" + (offer.map { " with win-back offer \($0)" } ?? "") + " sent")
        },
        StoreControl("message", [("KIND", "kind"), ("PRODUCT", "product"), ("OFFER?", "offer")],
                     help: "Raises an App Store message (KIND: price-increase, billing-issue, win-back, generic) about PRODUCT.\n"
                         + "StoreKit: Message. The game receives it as an event and shows it when it chooses; with no game\n"
                         + "running it waits for the next one. win-back may name one of PRODUCT's win-back offers (OFFER).\n"
                         + "`messages` lists them and when the game displayed them.") { store, values in
            let kind = try values.text("kind", "KIND")
            guard let reason = messageReasons[kind] else {
                throw ControlInputError("unknown message kind '\(kind)'; known: \(messageReasons.keys.sorted().joined(separator: ", "))")
            }
            let message = try store.sendMessage(reason, productID: try values.text("product", "PRODUCT"), offerID: values.optional("offer"))
            return ControlResult("\(kind) message \(message.id) about \(message.productID) sent")
        },
        StoreControl("approve", [("PENDING_ID", "pendingId")],
                     help: "Approves a deferred (Ask to Buy) purchase: it is charged and reaches the game.") { store, values in
            let transaction = try store.approveAskToBuy(try values.number("pendingId", "PENDING_ID"))
            return ControlResult("approved: transaction \(transaction.id)", transactionID: transaction.id)
        },
        StoreControl("decline", [("PENDING_ID", "pendingId")],
                     help: "Declines a deferred (Ask to Buy) purchase: nothing is charged.") { store, values in
            try store.declineAskToBuy(try values.number("pendingId", "PENDING_ID"))
            return ControlResult("declined")
        },
        StoreControl("interrupted", [("on|off", "value")], arguments: "on|off",
                     help: "Interrupts purchases until the user resolves them (resolve PENDING_ID).") { store, values in
            try store.setInterruptedPurchasesEnabled(try values.onOff("value"))
            return ControlResult("interrupted purchases set")
        },
        StoreControl("resolve", [("PENDING_ID", "pendingId")],
                     help: "The user resolves an interrupted purchase: it is charged and reaches the game.") { store, values in
            let transaction = try store.resolveInterruptedPurchase(try values.number("pendingId", "PENDING_ID"))
            return ControlResult("resolved: transaction \(transaction.id)", transactionID: transaction.id)
        },
        StoreControl("refund", [("TRANSACTION_ID", "transactionId"), ("REASON?", "reason")], arguments: "TRANSACTION_ID [issue|other]",
                     commandLineDefaults: ["reason": "other"],
                     help: "Refunds a transaction (REASON: issue, or other by default); the game receives a revoked event.") { store, values in
            let id: UInt64 = try values.number("transactionId", "TRANSACTION_ID")
            let transaction = try store.refund(transactionID: id, reason: try revocationReason(values))
            return ControlResult("refunded transaction \(transaction.id)", transactionID: transaction.id)
        },
        StoreControl("approve-refund", [("TRANSACTION_ID", "transactionId"), ("REASON?", "reason")], arguments: "TRANSACTION_ID [issue|other]",
                     commandLineDefaults: ["reason": "other"],
                     help: "Approves the game's pending refund request for a transaction (listed by refund-requests): it is refunded\n"
                         + "and the game receives a revoked event, at its next launch if it is not running.") { store, values in
            let id: UInt64 = try values.number("transactionId", "TRANSACTION_ID")
            let transaction = try store.approveRefundRequest(transactionID: id, reason: try revocationReason(values))
            return ControlResult("approved the refund request: refunded transaction \(transaction.id)", transactionID: transaction.id)
        },
        StoreControl("decline-refund", [("TRANSACTION_ID", "transactionId")],
                     help: "Declines the game's pending refund request for a transaction: nothing changes, the game hears nothing.") { store, values in
            let id: UInt64 = try values.number("transactionId", "TRANSACTION_ID")
            try store.declineRefundRequest(transactionID: id)
            return ControlResult("declined the refund request for transaction \(id)", transactionID: id)
        },
        StoreControl("stop-family-sharing", [("TRANSACTION_ID", "transactionId")],
                     help: "Ends the Family Sharing of a transaction (the member stops sharing, or the user leaves the family):\n"
                         + "it is revoked and the game receives a revoked event, at its next launch if it is not running.") { store, values in
            let id: UInt64 = try values.number("transactionId", "TRANSACTION_ID")
            let revoked = try store.stopFamilySharing(transactionID: id)
            return ControlResult("family sharing ended: revoked transaction \(revoked.id)", transactionID: revoked.id)
        },
        StoreControl("expire", [("PRODUCT", "product")], help: "Ends an active subscription now, without renewing.") { store, values in
            try store.expireSubscription(productID: try values.text("product", "PRODUCT"))
            return ControlResult("expired")
        },
        StoreControl("renew", [("PRODUCT", "product")], help: "Renews an active subscription now (a forced renewal).") { store, values in
            try store.forceRenewal(productID: try values.text("product", "PRODUCT"))
            return ControlResult("renewed")
        },
        StoreControl("extend", [("ORIGINAL_TRANSACTION_ID", "originalTransactionId"), ("DAYS", "days")],
                     help: "Extends an active subscription's renewal date by DAYS (1 to 90) calendar days, as the App Store Server\n"
                         + "API's Extend a Subscription Renewal Date does (at most twice a year): the game receives its transaction\n"
                         + "with the new end.") { store, values in
            let original: UInt64 = try values.number("originalTransactionId", "ORIGINAL_TRANSACTION_ID")
            let extended = try store.extendRenewalDate(originalTransactionID: original, days: try values.number("days", "DAYS"))
            return ControlResult("extended: transaction \(extended.id) ends \(extended.expirationDate.map { "\($0)" } ?? "never")",
                                 transactionID: extended.id)
        },
        StoreControl("auto-renew", [("PRODUCT", "product"), ("on|off", "value")],
                     help: "Turns an active subscription's auto-renew on or off.") { store, values in
            let product = try values.text("product", "PRODUCT")
            try store.setAutoRenew(productID: product, enabled: try values.onOff("value"))
            return ControlResult("auto-renew set")
        },
        StoreControl("billing-issues", [("on|off", "value")],
                     help: "Makes renewals fail to charge: subscriptions enter billing retry.") { store, values in
            try store.setBillingIssuesEnabled(try values.onOff("value"))
            return ControlResult("billing issues set")
        },
        StoreControl("grace-period", [("on|off", "value")],
                     help: "Keeps a subscription in billing retry active through a grace period.") { store, values in
            try store.setBillingGracePeriodEnabled(try values.onOff("value"))
            return ControlResult("grace period set")
        },
        StoreControl("resolve-billing", [("PRODUCT", "product")],
                     help: "The user fixes the payment of a subscription in billing retry: it renews now.") { store, values in
            try store.resolveBillingIssue(productID: try values.text("product", "PRODUCT"))
            return ControlResult("billing issue resolved")
        },
        StoreControl("ask-to-buy", [("on|off", "value")], help: "Turns Ask to Buy on or off.") { store, values in
            try store.setAskToBuyEnabled(try values.onOff("value"))
            return ControlResult("ask to buy set")
        },
        StoreControl("dialog", [("confirm|cancel", "value")],
                     help: "What the simulated user answers in the purchase sheet (and the refund request sheet).") { store, values in
            guard let response = PurchaseDialogResponse(rawValue: try values.text("value", "confirm|cancel")) else {
                throw ControlInputError("expected confirm or cancel")
            }
            try store.setPurchaseDialogResponse(response)
            return ControlResult("purchase dialog answers \(response.rawValue)")
        },
        StoreControl("error", [("set|clear", "action"), ("API", "api"), ("ERROR?", "error")], arguments: "set API ERROR | clear API",
                     help: "Makes an API fail with an error (a status like -104 or a name like payment-not-allowed), or stops it.\n"
                         + "APIs: " + apiNames.keys.sorted().joined(separator: ", ")) { store, values in
            let action = try values.text("action", "set|clear")
            let name = try values.text("api", "API")
            guard let api = apiNames[name] else {
                throw ControlInputError("unknown API '\(name)'; known: \(apiNames.keys.sorted().joined(separator: ", "))")
            }
            switch action {
            case "set": try store.setSimulatedError(try errorCode(try values.text("error", "ERROR")), for: api)
            case "clear": try store.setSimulatedError(nil, for: api)
            default: throw ControlInputError("expected set or clear, not '\(action)'")
            }
            return ControlResult("\(name): \(action == "set" ? "fails" : "works")")
        },
        StoreControl("time-rate", [("RATE", "value")],
                     help: "Sets how fast subscription time runs: a number or a name, e.g. 13 or monthlyRenewalEveryFiveMinutes.\n"
                         + "Rates: " + TimeRate.allCases.map { "\($0.rawValue) \($0)" }.joined(separator: ", ")) { store, values in
            let rate = try timeRate(try values.text("value", "RATE"))
            try store.setTimeRate(rate)
            return ControlResult("time rate \(rate)")
        },
        StoreControl("storefront", [("CODE", "value")], help: "Sets the storefront (ISO 3166-1 alpha-3, e.g. DEU).") { store, values in
            try store.setStorefront(try values.text("value", "CODE"))
            return ControlResult("storefront set")
        },
        StoreControl("locale", [("ID", "value")], help: "Sets the locale titles and prices are shown in (e.g. de_DE).") { store, values in
            try store.setLocale(try values.text("value", "ID"))
            return ControlResult("locale set")
        },
        StoreControl("app-version", [("ORIGINAL", "original"), ("CURRENT?", "current")],
                     help: "Sets the app version the user first got (App Transactions' originalAppVersion), and the current one.") { store, values in
            let original = try values.text("original", "ORIGINAL")
            try store.setOriginalAppVersion(original, appVersion: values.optional("current"))
            return ControlResult("original app version \(original)")
        },
        StoreControl("delete", [("TRANSACTION_ID", "transactionId")], help: "Removes one transaction from the history.") { store, values in
            try store.deleteTransaction(try values.number("transactionId", "TRANSACTION_ID"))
            return ControlResult("deleted")
        },
        StoreControl("clear", [], help: "Removes every transaction and waiting purchase.") { store, _ in
            try store.clearTransactions()
            return ControlResult("cleared")
        },
        StoreControl("reset", [], help: "Clears the history and every setting override: the catalog's defaults apply.") { store, _ in
            try store.resetToDefaultState()
            return ControlResult("reset")
        },
    ]
}
