import CIOSiAP
import IOSiAPCore

/// The game's callbacks and their payload, as given to an open call (`iosiap_callbacks`).
///
/// `@unchecked Sendable`: the pointers belong to the game, which by the header's thread rules lets the
/// library call back on the thread that polls, or on the library's delivery thread.
struct Callbacks: @unchecked Sendable {
    let onEvent: iosiap_event_callback?
    /// `on_open` of a version 2 struct; nil for version 1.
    let onOpen: iosiap_open_callback?
    let userData: UnsafeMutableRawPointer?

    /// Hands one event to the game.
    func event(_ event: UnsafePointer<iosiap_event>) {
        onEvent?(event, userData)
    }

    /// Calls the game's `on_open` with the store being opened and returns what it answered (`IOSIAP_OK` without one).
    func opened(_ store: OpaquePointer) -> CInt {
        onOpen?(store, userData) ?? IOSIAP_OK.rawValue
    }

    /// The callbacks of a caller's `iosiap_callbacks` (NULL: none), refusing a version this library cannot read.
    static func from(_ callbacks: UnsafePointer<iosiap_callbacks>?) throws(StoreError) -> Callbacks {
        guard let callbacks else { return Callbacks(onEvent: nil, onOpen: nil, userData: nil) }
        // Fields are read one by one: a version 1 struct ends before `on_open`.
        let version = callbacks.pointer(to: \.version)!.pointee
        guard (1...UInt32(IOSIAP_CALLBACKS_VERSION)).contains(version) else {
            throw StoreError(.invalidArgument, "callbacks version \(version) is not supported; "
                + "this library reads versions 1 to \(IOSIAP_CALLBACKS_VERSION) (use IOSIAP_CALLBACKS_INIT)")
        }
        return Callbacks(onEvent: callbacks.pointer(to: \.on_event)!.pointee,
                         onOpen: version >= 2 ? callbacks.pointer(to: \.on_open)!.pointee : nil,
                         userData: callbacks.pointer(to: \.user_data)!.pointee)
    }
}
