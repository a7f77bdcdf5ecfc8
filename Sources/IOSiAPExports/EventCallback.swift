import CIOSiAP

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
