// Plays one whole purchase session against the local App Store, the way a game would: a frame loop that
// polls once per frame, grants what was bought, then finishes it. Each event is printed on one line.
import Foundation
import IOSiAPCore
import IOSiAPLocalStore

struct Options {
    var catalog = "Examples/Products.storekit"
    var stateDirectory: String?
    var locale: String?
    var storefront: String?

    static let usage = """
        usage: iosiap-example-session [--catalog FILE] [--state DIR] [--locale ID] [--storefront CODE]
          --catalog FILE      the .storekit catalog (default: Examples/Products.storekit)
          --state DIR         where the store keeps its state (default: a new temporary folder)
          --locale ID         locale for titles and prices, e.g. de_DE (default: the catalog's)
          --storefront CODE   storefront, e.g. DEU or JPN (default: the catalog's)
        """

    init(_ arguments: [String]) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { print(Self.usage); exit(0) }
            guard let value = rest.popFirst() else { throw UsageError("\(flag) needs a value") }
            switch flag {
            case "--catalog": catalog = value
            case "--state": stateDirectory = value
            case "--locale": locale = value
            case "--storefront": storefront = value
            default: throw UsageError("unknown option \(flag)")
            }
        }
    }
}

struct UsageError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The game: a frame loop over the store, and a coin balance it grants from purchases.
final class Game {
    let store: PurchaseStore
    var coins = 0

    init(store: PurchaseStore) { self.store = store }

    /// Runs frames (polling once each) until `requestID`'s terminal event, or until `done` says so.
    @discardableResult
    func runFrames(until requestID: RequestID?, or done: (StoreEvent) -> Bool = { _ in false }) throws -> [StoreEvent] {
        var seen: [StoreEvent] = []
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            var finished = false
            store.poll { event in
                print("  event: \(event)")
                seen.append(event)
                handle(event)
                if (event.requestID == requestID && requestID != nil && event.isTerminal) || done(event) { finished = true }
            }
            if finished { return seen }
            Thread.sleep(forTimeInterval: 1.0 / 60)  // one frame
        }
        throw UsageError("no answer within 10 seconds")
    }

    /// Grants, then finishes: a crash in between redelivers the transaction at the next launch.
    private func handle(_ event: StoreEvent) {
        guard case .purchased(_, let transaction) = event else { return }
        if transaction.productID.hasSuffix("coins_100") {
            coins += 100 * transaction.quantity
            print("  grant: +\(100 * transaction.quantity) coins, balance \(coins)")
        } else {
            print("  grant: \(transaction.productID)")
        }
        do {
            try store.finish(transactionID: transaction.id)
            print("  finish: transaction \(transaction.id)")
        } catch {
            print("  finish failed: \(error)")
        }
    }
}

func step(_ title: String) { print("\n== \(title)") }

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let statePath = options.stateDirectory
        ?? FileManager.default.temporaryDirectory.appendingPathComponent("iosiap-session-\(UUID().uuidString)").path
    let directory = try StateDirectory(path: statePath)
    let catalog = try Catalog.load(contentsOf: URL(fileURLWithPath: options.catalog))
    let localStore = try LocalStore(catalog: catalog, stateDirectory: directory, bundleID: "com.iosiap.example")
    if let locale = options.locale { try localStore.setLocale(locale) }
    if let storefront = options.storefront { try localStore.setStorefront(storefront) }
    let store = try PurchaseStore(backend: localStore, stateDirectory: directory)
    let game = Game(store: store)
    let settings = try localStore.currentSettings()
    print("IOSiAP example session: catalog \(options.catalog) (format \(catalog.formatVersion ?? "?")), "
          + "state \(statePath), storefront \(settings.storefront.code), locale \(settings.locale)")

    let prefix = "com.iosiap.example."
    let ids = ["coins_100", "pro_upgrade", "club_gold_monthly", "club_silver_monthly", "season_pass", "no_such_product"]
        .map { prefix + $0 }

    step("fetch products (one id is invalid)")
    let request = try store.requestProducts(ids)
    try game.runFrames(until: request)
    for id in ids {
        guard let product = store.product(id: id) else { continue }
        print("  \(product.displayName) — \(product.displayPrice)"
              + (product.subscription.map { " every \($0.period), level \($0.level) of \($0.groupName)" } ?? ""))
    }

    step("buy 3 x 100 coins")
    try game.runFrames(until: try store.requestPayment(productID: prefix + "coins_100", quantity: 3))

    step("buy the pro upgrade")
    try game.runFrames(until: try store.requestPayment(productID: prefix + "pro_upgrade"))

    step("the user cancels the season pass")
    try localStore.setPurchaseDialogResponse(.cancel)
    try game.runFrames(until: try store.requestPayment(productID: prefix + "season_pass"))
    try localStore.setPurchaseDialogResponse(.confirm)

    step("Ask to Buy: the child asks for Club Gold, the parent approves")
    try localStore.setAskToBuyEnabled(true)
    try game.runFrames(until: try store.requestPayment(productID: prefix + "club_gold_monthly"))
    for pending in try localStore.pendingPurchases() {
        print("  parent approves \(pending.productID)")
        try localStore.approveAskToBuy(pending.id)
    }
    try game.runFrames(until: nil) { if case .purchased = $0 { true } else { false } }
    try localStore.setAskToBuyEnabled(false)

    step("a purchase fails (payment not allowed)")
    try localStore.setSimulatedError(.paymentNotAllowed, for: .purchase)
    try game.runFrames(until: try store.requestPayment(productID: prefix + "coins_100"))
    try localStore.setSimulatedError(nil, for: .purchase)

    step("restore purchases")
    try game.runFrames(until: try store.requestRestore())

    step("Club Gold lapses; the game's server offers it back at the win-back price")
    let gold = prefix + "club_gold_monthly"
    try localStore.expireSubscription(productID: gold)
    try game.runFrames(until: nil) { if case .expired = $0 { true } else { false } }
    // What the game's server sends, signed with its In-App Purchase key (here the catalog's key).
    let offer = try localStore.signPromotionalOffer(productID: gold, offerID: "club_gold_winback")
    print("  server signed offer \(offer.offerID) with key \(offer.keyID)")
    try game.runFrames(until: try store.requestPayment(productID: gold, promotionalOffer: offer))

    step("entitlements")
    for transaction in try store.currentEntitlements() {
        print("  owns \(transaction.summary)")
    }
    print("  coins: \(game.coins)")
    store.close()
} catch {
    FileHandle.standardError.write(Data("iosiap-example-session: \(error)\n".utf8))
    exit(1)
}
