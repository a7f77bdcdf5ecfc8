// A declarations-only `AppKit` for Linux: the class StoreKit's macOS purchase(confirmIn:options:) takes and
// Sources/IOSiAPStoreKit/Live names (a UI context is an NSWindow on macOS), nothing else. Built before the
// StoreKit stub (Tests/AppleSDK/StoreKit), which imports it, in scripts/check-storekit.sh's macOS
// configuration only, into a temporary directory; never as a SwiftPM target. Like the StoreKit stub, it must
// never be built where the real AppKit exists: a module named `AppKit` would shadow Apple's.
//
// Sources (declarations transcribed by us; their kinds, superclasses and `@MainActor` kept, members left out):
// - https://developer.apple.com/documentation/appkit/nsresponder   `@MainActor class NSResponder : NSObject`
// - https://developer.apple.com/documentation/appkit/nswindow      `@MainActor class NSWindow : NSResponder`
// `NSObject` is left out: on Linux it is not the Objective-C root class, and nothing here relies on it.

@MainActor open class NSResponder {}

@MainActor open class NSWindow: NSResponder {}
