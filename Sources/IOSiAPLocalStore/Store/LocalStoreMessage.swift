#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore

/// An App Store message the local store raised (`LocalStore.sendMessage`, `iosiap-store message`), as QA sees it:
/// what it is about and whether the game has shown it.
public struct LocalStoreMessage: Sendable, Equatable {
    /// The id the game receives (`StoreMessage.id`, its decimal text) and displays it with.
    public let id: Int64
    public let reason: StoreMessage.Reason
    /// The subscription it is about.
    public let productID: String
    /// For a win-back offer message: the offer, when one was named.
    public let offerID: String?
    /// When it was raised.
    public let created: Date
    /// When the game displayed it, or `nil` while it waits.
    public let displayed: Date?

    /// The message as the game receives it.
    public var storeMessage: StoreMessage { StoreMessage(id: String(id), reason: reason) }
}

extension LocalStoreState {
    private static let messageColumns = "id, reason, product_id, offer_id, created, displayed"

    /// Records a message for the game to hear of; returns its id.
    func addMessage(_ reason: StoreMessage.Reason, productID: String, offerID: String?, at date: Date) throws(StoreError) -> Int64 {
        try database.transaction { () throws(StoreError) in
            try database.query("INSERT INTO store_messages (reason, product_id, offer_id, created) VALUES (?, ?, ?, ?)",
                               [.integer(Int64(reason.rawValue)), .text(productID), offerID.map { .text($0) } ?? .null,
                                .real(date.timeIntervalSince1970)])
            return try database.query("SELECT last_insert_rowid()").first?.first?.integer ?? 0
        }
    }

    /// Every message, oldest first; only those not displayed yet with `waitingOnly`.
    func messages(waitingOnly: Bool = false) throws(StoreError) -> [LocalStoreMessage] {
        let condition = waitingOnly ? " WHERE displayed IS NULL" : ""
        return try database.query("SELECT \(Self.messageColumns) FROM store_messages\(condition) ORDER BY id").compactMap { row in
            guard let id = row[0].integer, let reason = row[1].integer.flatMap({ Int32(exactly: $0) }).flatMap(StoreMessage.Reason.init),
                  let productID = row[2].text else { return nil }
            return LocalStoreMessage(id: id, reason: reason, productID: productID, offerID: row[3].text,
                                     created: Self.date(row[4]) ?? .distantPast, displayed: Self.date(row[5]))
        }
    }

    /// Marks message `id` displayed at `date`: false when there is no such message waiting.
    func markMessageDisplayed(_ id: Int64, at date: Date) throws(StoreError) -> Bool {
        try database.query("UPDATE store_messages SET displayed = ? WHERE id = ? AND displayed IS NULL",
                           [.real(date.timeIntervalSince1970), .integer(id)])
        return database.changes == 1
    }
}
