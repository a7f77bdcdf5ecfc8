// A declarations-only `UIKit` for Linux: the classes StoreKit's purchase(confirmIn:options:) takes and
// Sources/IOSiAPStoreKit/Live names (a UI context is a UIViewController or a UIWindowScene), nothing else.
// Built before the StoreKit stubs (Tests/AppleSDK/StoreKit18 and StoreKit26), which import it, in the
// configurations where UIKit exists (iOS, tvOS, visionOS): by scripts/check-storekit.sh into a temporary directory, and as a
// SwiftPM target only in the Apple graph on Linux (Package.swift, IOSIAP_APPLE_GRAPH=1). Like the StoreKit
// stub, it must never be built where the real UIKit exists: a module named `UIKit` would shadow Apple's.
//
// Sources (declarations transcribed by us; their kinds, superclasses and `@MainActor` kept, members left out):
// - https://developer.apple.com/documentation/uikit/uiresponder        `@MainActor class UIResponder : NSObject`
// - https://developer.apple.com/documentation/uikit/uiviewcontroller   `@MainActor class UIViewController : UIResponder`
// - https://developer.apple.com/documentation/uikit/uiscene            `@MainActor class UIScene : UIResponder`
//   (iOS 13.0, tvOS 13.0, visionOS 1.0)
// - https://developer.apple.com/documentation/uikit/uiwindowscene      `@MainActor class UIWindowScene : UIScene`
// `NSObject` is left out: on Linux it is not the Objective-C root class, and nothing here relies on it.
// Being `@MainActor`, these classes are Sendable, as UIKit's are. The same in the iOS 18.0 and 26.2 SDKs
// (UIResponder.h, UIViewController.h, UIScene.h, UIWindowScene.h), so one stub serves both StoreKit
// transcriptions.

@MainActor open class UIResponder {}

@MainActor open class UIViewController: UIResponder {}

@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIScene: UIResponder {}

@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIWindowScene: UIScene {}
