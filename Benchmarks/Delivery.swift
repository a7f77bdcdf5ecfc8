import CIOSiAP
import Foundation
import IOSiAPCore
import IOSiAPExports

/// Rows 3 and 4: event delivery through the C ABI, and the idle poll a game makes every frame.
enum DeliveryBenchmarks {
    /// What the C callbacks count (a global so that a C function pointer can reach it).
    nonisolated(unsafe) static var delivered = 0

    static let countingCallback: iosiap_event_callback = { event, _ in
        if event?.pointee.kind == CInt(IOSIAP_EVENT_PURCHASED.rawValue) { DeliveryBenchmarks.delivered += 1 }
    }

    static func sampleTransaction(_ id: UInt64) -> StoreTransaction {
        StoreTransaction(id: id, originalID: id, productID: "com.iosiap.example.coins_100", productType: .consumable, quantity: 1,
                         purchaseDate: Date(), originalPurchaseDate: Date(), environment: .sandbox, storefront: "USA",
                         signedJWS: String(repeating: "a", count: 600))
    }

    /// A store opened through the C ABI with `callback` (the counting callback unless told), on `folder` (a new
    /// scratch directory unless given).
    static func openStore(catalog: URL, callback: iosiap_event_callback? = countingCallback,
                          folder: URL = scratchDirectory("delivery")) throws -> (OpaquePointer, URL) {
        var options = iosiap_local_store_options()
        options.version = UInt32(IOSIAP_LOCAL_STORE_OPTIONS_VERSION)
        var callbacks = iosiap_callbacks(version: UInt32(IOSIAP_CALLBACKS_VERSION), on_event: callback, user_data: nil, on_open: nil)
        var handle: OpaquePointer?
        let status = catalog.path.withCString { catalogPath in
            folder.path.withCString { statePath in
                options.catalog_path = catalogPath
                options.state_directory = statePath
                return iosiap_store_open_local(&handle, &options, &callbacks)
            }
        }
        guard status == 0, let handle else { throw StoreError(.systemError, "cannot open the store: \(status)") }
        return (handle, folder)
    }

    /// Events per second from iosiap_poll into a C callback (each event marshalled into C structs).
    static func cABIRate(_ count: Int, catalog: URL) throws -> Double {
        let (handle, folder) = try openStore(catalog: catalog)
        defer {
            iosiap_store_close(handle)
            try? FileManager.default.removeItem(at: folder)
        }
        let store = try HandleRegistry.handle(handle).store
        _ = iosiap_poll(handle, 0)
        let events = (0..<count).map { StoreEvent.purchased(requestID: 1, transaction: sampleTransaction(UInt64($0))) }
        for event in events { store.enqueue(event) }
        delivered = 0
        let elapsed = time { while delivered < count { _ = iosiap_poll(handle, 0) } }
        return Double(count) / elapsed
    }

    /// The callback the direct loop calls, read at run time so that the compiler cannot inline it.
    nonisolated(unsafe) static var opaqueCallback: iosiap_event_callback? = nil

    /// (a) The limit: the same C callback called through a function pointer with a ready event.
    static func directCallbackRate(_ count: Int) -> Double {
        var event = iosiap_event()
        event.size = MemoryLayout<iosiap_event>.size
        event.kind = CInt(IOSIAP_EVENT_PURCHASED.rawValue)
        delivered = 0
        if CommandLine.argc > 0 { opaqueCallback = countingCallback }
        return withUnsafePointer(to: &event) { pointer in
            let rate = rate(count) { opaqueCallback?(pointer, nil) }
            precondition(delivered == count)
            return rate
        }
    }

    /// (b) The classic libraries' mechanism: NotificationCenter with string names and a userInfo dictionary.
    static func notificationCenterRate(_ count: Int) -> Double {
        let center = NotificationCenter()
        let name = Notification.Name("IOSiAPPaymentEvent")
        nonisolated(unsafe) var received = 0
        let observer = center.addObserver(forName: name, object: nil, queue: nil) { notification in
            if notification.userInfo?["productIdentifier"] as? String != nil { received += 1 }
        }
        defer { center.removeObserver(observer) }
        return rate(count) {
            let transaction = sampleTransaction(UInt64(received))
            center.post(name: name, object: nil, userInfo: [
                "productIdentifier": transaction.productID, "transactionIdentifier": String(transaction.id),
                "quantity": transaction.quantity, "event": "purchased", "receipt": transaction.signedJWS ?? "",
            ])
        }
    }

    /// (c) The hybrid bridges' mechanism: each event serialized to JSON, passed as a C string, parsed on
    /// the other side.
    static func jsonBridgeRate(_ count: Int) -> Double {
        nonisolated(unsafe) var received = 0
        let receive: @convention(c) (UnsafePointer<CChar>?) -> Void = { text in
            guard let text else { return }
            let data = Data(bytes: text, count: strlen(text))
            if let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any], object["productId"] != nil {
                DeliveryBenchmarks.delivered += 1
            }
        }
        delivered = 0
        let encoder = JSONEncoder()
        return rate(count) {
            received += 1
            let transaction = sampleTransaction(UInt64(received))
            let json = try! encoder.encode(["kind": "purchased", "productId": transaction.productID,
                                            "transactionId": String(transaction.id), "jws": transaction.signedJWS ?? ""])
            json.withUnsafeBytes { bytes in
                var text = Array(bytes.bindMemory(to: CChar.self))
                text.append(0)
                receive(text)
            }
        }
    }

    /// Nanoseconds per iosiap_poll with nothing queued.
    static func idlePollNanoseconds(_ count: Int, catalog: URL) throws -> Double {
        let (handle, folder) = try openStore(catalog: catalog)
        defer {
            iosiap_store_close(handle)
            try? FileManager.default.removeItem(at: folder)
        }
        while iosiap_poll(handle, 0) > 0 {}
        let elapsed = time { for _ in 0..<count { _ = iosiap_poll(handle, 0) } }
        return elapsed / Double(count) * 1e9
    }

    /// Only polls an empty store `count` times: run under valgrind with two counts to count allocations.
    static func idlePollOnly(_ count: Int, catalog: URL) throws {
        let (handle, folder) = try openStore(catalog: catalog)
        Thread.sleep(forTimeInterval: 0.3)  // let the launch work finish first
        while iosiap_poll(handle, 0) > 0 {}
        for _ in 0..<count { _ = iosiap_poll(handle, 0) }
        iosiap_store_close(handle)
        try? FileManager.default.removeItem(at: folder)
    }
}
