#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// The local store's App Transaction: the app's own purchase record, signed with the store's chain like its
/// transactions (its bundle id, its environment). Its id and original purchase date are made the first time
/// one is asked for and then kept, so they are stable for a state directory; the original app version is
/// what QA sets (`iosiap-store app-version`), "1.0" until then. Kept in a one-row table of its own in
/// `localstore.sqlite`, created on first use, so the store's schema and its settings (which a reset clears)
/// are not involved.
enum LocalAppTransaction {
    /// The original app version signed until one is set.
    static let defaultOriginalVersion = "1.0"

    /// What the table holds.
    struct Record: Equatable {
        var id: String
        var originalPurchaseDate: Date
        var originalVersion: String?
        var appVersion: String?
    }

    private static let createTable = """
        CREATE TABLE IF NOT EXISTS app_transaction (
            row INTEGER PRIMARY KEY CHECK (row = 1),
            app_transaction_id TEXT NOT NULL,
            original_purchase_date INTEGER NOT NULL,
            original_app_version TEXT,
            app_version TEXT
        )
        """

    /// The record, made (with a new id, first launched `now`) if there is none yet.
    static func record(in database: SQLiteDatabase, at now: Date) throws(StoreError) -> Record {
        try database.transaction { () throws(StoreError) in
            try database.execute(createTable)
            if let row = try database.query(
                "SELECT app_transaction_id, original_purchase_date, original_app_version, app_version FROM app_transaction").first,
               let id = row[0].text, let milliseconds = row[1].integer {
                return Record(id: id, originalPurchaseDate: Date(timeIntervalSince1970: Double(milliseconds) / 1000),
                              originalVersion: row[2].text, appVersion: row[3].text)
            }
            // An 18-digit number, as the App Store's ids are.
            let record = Record(id: String(UInt64.random(in: 100_000_000_000_000_000..<1_000_000_000_000_000_000)),
                                originalPurchaseDate: now)
            try database.query("INSERT INTO app_transaction (row, app_transaction_id, original_purchase_date) VALUES (1, ?, ?)",
                               [.text(record.id), .integer(Int64(AppTransactionDate(now).value))])
            return record
        }
    }

    /// Sets the original app version, and the current one (`nil`: the same as the original).
    static func setVersions(original: String, current: String?, in database: SQLiteDatabase, at now: Date) throws(StoreError) {
        for (name, value) in [("original app version", Optional(original)), ("app version", current)] {
            guard let value else { continue }
            guard !value.isEmpty, value.utf8.count <= 64 else {
                throw StoreError(.invalidArgument, "the \(name) must be 1 to 64 bytes of text, e.g. \"1.2\"")
            }
        }
        try database.transaction { () throws(StoreError) in
            _ = try record(in: database, at: now)
            try database.query("UPDATE app_transaction SET original_app_version = ?, app_version = ?",
                               [.text(original), current.map { .text($0) } ?? .null])
        }
    }

    /// The App Transaction of `record`, signed by `signer` at `now`.
    static func sign(_ record: Record, signer: TransactionSigner, environment: StoreEnvironment,
                     at now: Date) throws(StoreError) -> StoreAppTransaction {
        let original = record.originalVersion ?? defaultOriginalVersion
        let unsigned = StoreAppTransaction(
            environment: environment, bundleID: signer.bundleID, appVersion: record.appVersion ?? original,
            originalAppVersion: original, originalPurchaseDate: record.originalPurchaseDate, signedDate: now,
            appTransactionID: record.id, originalPlatform: "iOS", signedJWS: "")  // the platform the local store plays
        // Read back from what was signed, so that the game gets exactly the signed values (whole milliseconds).
        let jws = try signer.chain.sign(json: AppTransactionPayload(unsigned))
        return try CompactJWS.decodeUnverified(jws, as: AppTransactionPayload.self).appTransaction(signedJWS: jws)
    }
}
