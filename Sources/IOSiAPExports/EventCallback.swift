import CIOSiAP
import IOSiAPCore

/// The game's event callback and its payload, as given to `iosiap_store_open_local`.
///
/// `@unchecked Sendable`: the pointers belong to the game, which by the header's thread rules lets the
/// library call back on the thread that polls, or on the library's delivery thread.
struct EventCallback: @unchecked Sendable {
    let function: iosiap_event_callback?
    let userData: UnsafeMutableRawPointer?

    func callAsFunction(_ event: UnsafePointer<iosiap_event>) {
        function?(event, userData)
    }
}

extension EventCallback {
    /// The callback of a caller's `iosiap_callbacks` (NULL: none), refusing a version this library cannot read.
    static func from(_ callbacks: UnsafePointer<iosiap_callbacks>?) throws(StoreError) -> EventCallback {
        guard let callbacks else { return EventCallback(function: nil, userData: nil) }
        guard callbacks.pointee.version == IOSIAP_CALLBACKS_VERSION else {
            throw StoreError(.invalidArgument, "callbacks version \(callbacks.pointee.version) is not supported; "
                + "this library reads version \(IOSIAP_CALLBACKS_VERSION) (use IOSIAP_CALLBACKS_INIT)")
        }
        return EventCallback(function: callbacks.pointee.on_event, userData: callbacks.pointee.user_data)
    }
}
