import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTransactionManager
import IOSiAPVerification

/// A command of the transaction manager: its usage line, help and what it does.
struct Command: Sendable {
    let name: String
    let arguments: String
    let help: String
    let run: @Sendable (LocalStore, [String], Output) throws -> Void
    /// Instead of `run`, for the commands that also need the state directory (ServerCommands.swift).
    var runInDirectory: (@Sendable (LocalStore, StateDirectory, [String], Output) throws -> Void)? = nil
    /// A control: it may change the history, which is then looked at for notifications (main.swift).
    var isControl = false
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

extension Command {
    /// The command of a control: the arguments in order, the control's own implementation (the page's buttons
    /// run the same one), its sentence printed.
    init(_ control: StoreControl) {
        self.init(name: control.name, arguments: control.arguments, help: control.help) { store, args, out in
            let result = try control.run(store, arguments: args)
            out.done(result.message, result.transactionID.map { ["transactionId": $0] } ?? [:])
        }
        isControl = true
    }
}

let commands: [Command] = [
    Command(name: "products", arguments: "",
            help: "Lists the catalog's products with their prices in the current storefront, family sharing and offers\n"
                + "(with --json each offer whole: kind, id, payment mode, period, count, price; and the group id).") { store, _, out in
        let products = try StoreSnapshot(store).products
        if out.json { return out.encoded(products) }
        out.table(["id", "type", "price", "family", "subscription", "offers"], products.map { product in
            let offers = product.offers.map { $0.id.isEmpty ? $0.kind : "\($0.kind) \($0.id)" }.joined(separator: ", ")
            return [product.id, product.type, product.price, product.familyShareable ? "yes" : "", product.subscription, offers]
        })
    },
    Command(name: "transactions", arguments: "", help: "Lists every transaction: id, product, type, state, dates, finished or not, owned or family-shared.") { store, _, out in
        out.table(["id", "original", "product", "type", "qty", "state", "purchased", "expires", "finished", "renews", "offer", "ownership"],
                  try StoreSnapshot(store).transactions.reversed().map { t in
            [String(t.id), String(t.originalId), t.productId, t.type, String(t.quantity), t.state, t.purchaseDate, t.expirationDate,
             t.finished ? "yes" : "no", t.renews, t.offer, t.ownership]
        })
    },
    Command(name: "pending", arguments: "", help: "Lists the purchases waiting for Ask to Buy approval.") { store, _, out in
        out.table(["id", "waits for", "product", "qty", "asked"], try StoreSnapshot(store).pending.map {
            [String($0.id), $0.waitsFor, $0.productId, String($0.quantity), $0.requestDate]
        })
    },
    Command(name: "refund-requests", arguments: "",
            help: "Lists the refund requests the game made: pending ones wait for approve-refund or decline-refund.") { store, _, out in
        out.table(["id", "transaction", "product", "state", "requested", "resolved"], try StoreSnapshot(store).refundRequests.map {
            [String($0.id), String($0.transactionId), $0.productId, $0.state, $0.requestDate, $0.resolutionDate]
        })
    },
    Command(name: "messages", arguments: "", help: "Lists the App Store messages raised (message) and when the game displayed them.") { store, _, out in
        let kinds = Dictionary(uniqueKeysWithValues: StoreControl.messageReasons.map { ($0.value, $0.key) })
        let date = { (date: Date) in ISO8601DateFormatter().string(from: date) }
        out.table(["id", "kind", "product", "offer", "raised", "displayed"], try store.messages().map {
            [String($0.id), kinds[$0.reason] ?? "\($0.reason)", $0.productID, $0.offerID ?? "", date($0.created), $0.displayed.map(date) ?? "waiting"]
        })
    },
    Command(name: "settings", arguments: "", help: "Shows the settings in force.") { store, _, out in
        out.table(["setting", "value"], try StoreSnapshot(store).settings)
    },
    Command(name: "sign-offer", arguments: "[--jws] PRODUCT OFFER [ACCOUNT_TOKEN | TRANSACTION_ID]",
            help: "Signs a promotional offer (--jws: as a JWS) with the catalog's subscriptionOffersKeyPair, as the game's server would;\n"
                + "prints what a payment redeeming it passes (the signature is good for 24 hours, its nonce once).\n"
                + "Without --jws: the older signature (StoreKit's promotionalOffer(offerID:signature:)), for ACCOUNT_TOKEN if given;\n"
                + "it prints offerId, keyId, nonce, timestamp and signature.\n"
                + "With --jws: the offer signed as a JWS (StoreKit's promotionalOffer(_:compactJWS:), iOS 26 SDK; Apple's\n"
                + "PromotionalOfferV2SignatureCreator), naming TRANSACTION_ID if given (a transaction of the user, or its app\n"
                + "transaction id); it prints the compact JWS. Its iss is the placeholder 00000000-0000-0000-0000-000000000000.") { store, args, out in
        if args.first == "--jws" {
            guard args.count <= 4 else { throw UsageError(message: "unexpected '\(args[4])'") }
            out.value("jws", try store.signPromotionalOfferJWS(productID: try argument(args, 1, "PRODUCT"), offerID: try argument(args, 2, "OFFER"),
                                                               transactionID: args.count > 3 ? args[3] : nil))
            return
        }
        guard args.count <= 3 else { throw UsageError(message: "unexpected '\(args[3])'") }
        let token = try args.count > 2 ? uuid(args[2], "ACCOUNT_TOKEN") : nil
        let offer = try store.signPromotionalOffer(productID: try argument(args, 0, "PRODUCT"),
                                                   offerID: try argument(args, 1, "OFFER"), appAccountToken: token)
        out.table(["offerId", "keyId", "nonce", "timestamp", "signature"],
                  [[offer.offerID, offer.keyID, offer.nonce.uuidString.lowercased(), String(offer.timestamp),
                    offer.signature.base64EncodedString()]])
    },
    Command(name: "sign-intro-eligibility", arguments: "PRODUCT allow|deny TRANSACTION_ID",
            help: "Signs, with the catalog's subscriptionOffersKeyPair, whether a purchase of PRODUCT gets its introductory offer\n"
                + "(allow) or not (deny), whatever the App Store's rule says, as the game's server would (StoreKit's\n"
                + "introductoryOfferEligibility(compactJWS:), iOS 26 SDK; Apple's IntroductoryOfferEligibilitySignatureCreator).\n"
                + "TRANSACTION_ID: a transaction of the user, or its app transaction id (app-transaction shows it).\n"
                + "Prints the compact JWS (good for 24 hours, its nonce once). Its iss is as sign-offer --jws's.") { store, args, out in
        guard args.count <= 3 else { throw UsageError(message: "unexpected '\(args[3])'") }
        let decision = try argument(args, 1, "allow|deny")
        guard decision == "allow" || decision == "deny" else { throw UsageError(message: "say allow or deny, not '\(decision)'") }
        out.value("jws", try store.signIntroductoryOfferEligibility(productID: try argument(args, 0, "PRODUCT"), allow: decision == "allow",
                                                                    transactionID: try argument(args, 2, "TRANSACTION_ID")))
    },
    Command(name: "verify", arguments: "JWS", help: "Verifies a signed transaction with this store's root and bundle id; prints the payload.") { store, args, out in
        guard args.count <= 1 else { throw UsageError(message: "unexpected '\(args[1])'") }
        let payload = try store.makeVerifier().verifyTransaction(try argument(args, 0, "JWS"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(payload), as: UTF8.self))
    },
] + StoreControl.all.map(Command.init) + serverAPICommands + appTransactionCommands
