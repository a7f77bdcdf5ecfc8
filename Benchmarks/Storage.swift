import Foundation
import IOSiAPCore
import IOSiAPLocalStore

/// Rows 5 and 6: durable commits, and how restore and launch grow with the journal.
enum StorageBenchmarks {
    /// The limit: one row inserted and committed per iteration, WAL and synchronous=FULL, as the journal.
    static func rawInsertRate(_ count: Int) throws -> Double {
        let folder = scratchDirectory("sqlite")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("raw.sqlite").path)
        try database.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;")
        try database.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, product_id TEXT, finished INTEGER, payload BLOB)")
        let payload = [UInt8](repeating: 0x61, count: 700)
        var id: Int64 = 0
        return try rate(count) {
            id += 1
            try database.query("INSERT INTO t VALUES (?, 'coins', 0, ?)", [.integer(id), .blob(payload)])
        }
    }

    /// Purchases per second, each charged, journaled, delivered and finished (no verification, no ledger), and the
    /// write transactions committed per purchase to each database file (each one disk sync).
    static func purchaseRate(_ count: Int, catalog: URL) async throws -> (rate: Double, commitsPerPurchase: [String: Double]) {
        let folder = scratchDirectory("durable")
        defer { try? FileManager.default.removeItem(at: folder) }
        SQLiteCommitCounter.start()
        let state = try StateDirectory(folder)
        let local = try LocalStore(catalog: Catalog.load(contentsOf: catalog), stateDirectory: state)
        let store = try PurchaseStore(backend: local, stateDirectory: state)
        try await CryptoBenchmarks.waitForTerminal(store, try store.requestProducts(["com.iosiap.example.coins_100"]))
        let commitsBefore = SQLiteCommitCounter.commits
        let start = ContinuousClock.now
        for _ in 0..<count {
            let events = try await CryptoBenchmarks.waitForTerminal(store, try store.requestPayment(productID: "com.iosiap.example.coins_100"))
            guard case .purchased(_, let transaction) = events.last else { throw StoreError(.systemError, "purchase failed") }
            try store.finish(transactionID: transaction.id)
        }
        let elapsed = (ContinuousClock.now - start).timeInterval
        let commits = SQLiteCommitCounter.commits.mapValues { Double($0) }
        store.close()
        let perPurchase = commits.map { ($0.key, ($0.value - Double(commitsBefore[$0.key] ?? 0)) / Double(count)) }
        return (Double(count) / elapsed, Dictionary(uniqueKeysWithValues: perPurchase))
    }

    /// A state directory whose journal and local store hold `count` transactions, all finished, each with a
    /// stand-in signature of `signedLength` bytes (a real signed transaction is about 3.7 KB): a third of them
    /// non-consumables and non-renewing subscriptions, or, with `entitling`, that many pro upgrades first and coins
    /// after them (a year of coin purchases).
    static func populatedState(_ count: Int, signedLength: Int = 600, entitling: Int? = nil) throws -> URL {
        let folder = scratchDirectory("scale-\(count)")
        let state = try StateDirectory(folder)
        _ = try Journal(directory: state)
        let journal = try SQLiteDatabase(path: state.file("journal.sqlite"))
        let store = try SQLiteDatabase(path: state.file("localstore.sqlite"))
        try store.migrate(LocalStoreStateMigrations.all)
        let encoder = JSONEncoder()
        let products = ["com.iosiap.example.coins_100", "com.iosiap.example.pro_upgrade", "com.iosiap.example.season_pass"]
        try journal.transaction { () throws(StoreError) in
            try store.transaction { () throws(StoreError) in
                for index in 1...count {
                    let product = if let entitling { products[index <= entitling ? 1 : 0] }
                        else { products[index % 3 == 0 ? (index % 9 == 0 ? 2 : 1) : 0] }
                    let type: ProductType = product.hasSuffix("coins_100") ? .consumable : (product.hasSuffix("pro_upgrade") ? .nonConsumable : .nonRenewing)
                    let date = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
                    let transaction = StoreTransaction(id: UInt64(index), originalID: UInt64(index), productID: product,
                                                       productType: type, quantity: 1, purchaseDate: date, originalPurchaseDate: date,
                                                       environment: .sandbox, storefront: "USA", signedJWS: String(repeating: "j", count: signedLength))
                    let payload = (try? encoder.encode(transaction)).map { Array($0) } ?? []
                    try journal.query("INSERT INTO transactions (id, product_id, finished, payload, consumable) VALUES (?, ?, 1, ?, ?)",
                                      [.integer(Int64(index)), .text(product), .blob(payload), .integer(type == .consumable ? 1 : 0)])
                    try store.query("""
                        INSERT INTO transactions (id, original_id, product_id, product_type, quantity, purchase_date,
                            original_purchase_date, storefront, reason, finished, signed_jws)
                        VALUES (?, ?, ?, ?, 1, ?, ?, 'USA', 'PURCHASE', 1, ?)
                        """, [.integer(Int64(index)), .integer(Int64(index)), .text(product), .integer(Int64(type.rawValue)),
                              .real(date.timeIntervalSince1970), .real(date.timeIntervalSince1970), .text(String(repeating: "j", count: signedLength))])
                }
            }
        }
        return folder
    }

    /// Seconds for one restore over a populated state.
    static func restoreSeconds(_ folder: URL, catalog: Catalog) async throws -> Double {
        let state = try StateDirectory(folder)
        let store = try PurchaseStore(backend: try LocalStore(catalog: catalog, stateDirectory: state), stateDirectory: state)
        defer { store.close() }
        let start = ContinuousClock.now
        let events = try await CryptoBenchmarks.waitForTerminal(store, try store.requestRestore())
        guard case .restoreFinished(_, .success) = events.last else { throw StoreError(.systemError, "restore failed") }
        return (ContinuousClock.now - start).timeInterval
    }

    /// Seconds to open the local store and the purchase store (a launch) over a populated state.
    static func openSeconds(_ folder: URL, catalogURL: URL) throws -> Double {
        let state = try StateDirectory(folder)
        var store: PurchaseStore?
        let elapsed = try time {
            let local = try LocalStore(catalog: Catalog.load(contentsOf: catalogURL), stateDirectory: state)
            store = try PurchaseStore(backend: local, stateDirectory: state)
        }
        store?.close()
        return elapsed
    }

    /// A .storekit catalog of `count` products.
    static func largeCatalog(_ count: Int) throws -> URL {
        let products = (0..<count).map { index in
            ["productID": "com.iosiap.bench.product_\(index)", "type": index % 2 == 0 ? "Consumable" : "NonConsumable",
             "displayPrice": "\(index % 100).99", "referenceName": "Product \(index)",
             "localizations": [["locale": "en_US", "displayName": "Product \(index)", "description": "Benchmark product"]]] as [String: Any]
        }
        let url = scratchDirectory("catalog").appendingPathComponent("Large.storekit")
        try JSONSerialization.data(withJSONObject: ["products": products, "version": ["major": 5, "minor": 0]]).write(to: url)
        return url
    }
}
