/// The game's UI object near which StoreKit shows a purchase's confirmation or a sheet, carried as an opaque
/// address (C: `iosiap_payment_options.ui_context`): a `UIViewController` or `UIWindowScene` on iOS, tvOS and
/// visionOS, an `NSWindow` or `NSViewController` on macOS.
///
/// The core never dereferences it and does not retain the object: the game keeps it alive until the
/// payment's final event. Only the StoreKit backend turns it back into an object; the local store ignores it.
public struct UIContext: Sendable, Hashable {
    /// The object's address.
    public let address: UInt

    /// The context at `pointer` (from C, a `UIViewController *`, `UIWindowScene *`, `NSWindow *` or
    /// `NSViewController *`).
    public init(_ pointer: UnsafeMutableRawPointer) {
        address = UInt(bitPattern: pointer)
    }

    /// The context of a Swift object (a `UIViewController`, `UIWindowScene`, `NSWindow` or `NSViewController`),
    /// not retained.
    public init(_ object: AnyObject) {
        self.init(Unmanaged.passUnretained(object).toOpaque())
    }

    /// The address as a pointer; never null (both initialisers take a non-null pointer).
    public var pointer: UnsafeMutableRawPointer {
        guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else { preconditionFailure("UIContext at 0") }
        return pointer
    }
}
