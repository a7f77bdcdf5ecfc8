import CIOSiAP
import Foundation
import IOSiAPCore
@testable import IOSiAPExports
import Testing

/// A journal row the core cannot read reaches C as its own event kind, without a transaction.
@Suite struct JournalRowUnreadableMarshallingTests {
    @Test func itCarriesTheProductTheStatusAndTheMessageButNoTransaction() {
        let arena = CStringArena()
        let error = StoreError(.storageFailure, "journal row of transaction 1001: unreadable")
        let event = EventMarshalling.event(.journalRowUnreadable(transactionID: 1001, productID: "coins", error: error),
                                           in: arena, verified: true) { _ in fatalError("no products") }
        #expect(event.kind == CInt(IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE.rawValue))
        #expect(IOSIAP_EVENT_JOURNAL_ROW_UNREADABLE.rawValue == 16)  // appended: no kind renumbered
        #expect(event.request_id == 0)
        #expect(event.product_id.map { String(cString: $0) } == "coins")
        #expect(event.status == StoreErrorCode.storageFailure.rawValue)
        #expect(event.message.map { String(cString: $0) } == error.message)
        #expect(event.transaction == nil && event.verified == 0)
    }
}
