import CIOSiAP
import Foundation
import IOSiAPCore
import IOSiAPExports

/// Row 11: what `iosiap_is_entitled` costs a game that asks every frame, as its history grows: per call once the
/// journal is read, and the first call after a purchase changed it.
enum EntitlementBenchmarks {
    struct Run {
        /// Nanoseconds per call, steady.
        var perCall: Double
        /// Seconds of the first call after a write to the journal.
        var afterWrite: Double
    }

    static func run(historySize: Int, catalog: URL, calls: Int) throws -> Run {
        let folder = try StorageBenchmarks.populatedState(historySize, entitling: 3)
        defer { try? FileManager.default.removeItem(at: folder) }
        let (handle, _) = try DeliveryBenchmarks.openStore(catalog: catalog, callback: nil, folder: folder)
        defer { iosiap_store_close(handle) }
        let product = "com.iosiap.example.pro_upgrade"
        var entitled: CInt = 0
        let first = product.withCString { iosiap_is_entitled(&entitled, handle, $0) }
        guard first == 0, entitled == 1 else { throw StoreError(.systemError, "pro is not entitled (\(first), \(entitled))") }
        let elapsed = try time {
            for _ in 0..<calls {
                guard product.withCString({ iosiap_is_entitled(&entitled, handle, $0) }) == 0 else {
                    throw StoreError(.systemError, "iosiap_is_entitled failed")
                }
            }
        }
        // A write the view must see: a coin purchase recorded (finished, as the ledger leaves it).
        let store = try HandleRegistry.handle(handle).store
        try store.journal.record(DeliveryBenchmarks.sampleTransaction(UInt64(historySize + 1)), finished: true)
        let afterWrite = try time {
            guard product.withCString({ iosiap_is_entitled(&entitled, handle, $0) }) == 0, entitled == 1 else {
                throw StoreError(.systemError, "iosiap_is_entitled failed after a write")
            }
        }
        return Run(perCall: elapsed / Double(calls) * 1e9, afterWrite: afterWrite)
    }
}
