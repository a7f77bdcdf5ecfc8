// A `UIKit` for Linux: the classes StoreKit's purchase(confirmIn:options:) takes and Sources/IOSiAPStoreKit/Live
// names (a UI context is a UIViewController or a UIWindowScene; without one, the foreground-active window scene is
// looked up), nothing else. Built before the StoreKit transcriptions (Tests/AppleSDK/StoreKit18, 26 and 27), which
// import it, in the configurations where UIKit exists (iOS, tvOS, visionOS): by scripts/check-storekit.sh into a
// temporary directory, and as a SwiftPM target in the Apple graph and the stand-in graph on Linux (Package.swift).
// Like the StoreKit transcriptions, it must never be built where the real UIKit exists: a module named `UIKit`
// would shadow Apple's.
//
// Its members hold what a test sets (internal setters, for `@testable import UIKit` in the stand-in's tests), so
// that LiveStoreKit's scene lookup runs on the StoreKit stand-in (Tests/StoreKitStandIn).
//
// Sources (declarations transcribed by us; their kinds, superclasses and `@MainActor` kept):
// - https://developer.apple.com/documentation/uikit/uiresponder        `@MainActor class UIResponder : NSObject`
// - https://developer.apple.com/documentation/uikit/uiviewcontroller   `@MainActor class UIViewController : UIResponder`,
//   `var viewIfLoaded: UIView? { get }`
// - https://developer.apple.com/documentation/uikit/uiview             `@MainActor class UIView : UIResponder`,
//   `var window: UIWindow? { get }`
// - https://developer.apple.com/documentation/uikit/uiwindow           `@MainActor class UIWindow : UIView`,
//   `weak var windowScene: UIWindowScene? { get set }` (iOS 13)
// - https://developer.apple.com/documentation/uikit/uiscene            `@MainActor class UIScene : UIResponder`
//   (iOS 13.0, tvOS 13.0, visionOS 1.0), `var activationState: UIScene.ActivationState { get }`,
//   `enum ActivationState : Int` (`unattached` -1, `foregroundActive`, `foregroundInactive`, `background`)
// - https://developer.apple.com/documentation/uikit/uiwindowscene      `@MainActor class UIWindowScene : UIScene`
// - https://developer.apple.com/documentation/uikit/uiapplication      `@MainActor class UIApplication : UIResponder`,
//   `class var shared: UIApplication { get }`, `var connectedScenes: Set<UIScene> { get }` (iOS 13)
// `NSObject` is left out: on Linux it is not the Objective-C root class. UIResponder is Hashable by identity, as
// NSObject is, so that scenes form a Set. Being `@MainActor`, these classes are Sendable, as UIKit's are.

@MainActor open class UIResponder: Hashable {
    nonisolated public static func == (lhs: UIResponder, rhs: UIResponder) -> Bool { lhs === rhs }
    nonisolated public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    public init() {}
}

@MainActor open class UIView: UIResponder {
    public internal(set) var window: UIWindow?
}

@MainActor open class UIWindow: UIView {
    public weak var windowScene: UIWindowScene?
}

@MainActor open class UIViewController: UIResponder {
    public internal(set) var viewIfLoaded: UIView?
}

@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIScene: UIResponder {
    public enum ActivationState: Int, Sendable {
        case unattached = -1
        case foregroundActive = 0
        case foregroundInactive = 1
        case background = 2
    }

    public internal(set) var activationState: ActivationState = .unattached
}

@available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
@MainActor open class UIWindowScene: UIScene {}

@MainActor open class UIApplication: UIResponder {
    public static let shared = UIApplication()
    @available(iOS 13.0, tvOS 13.0, visionOS 1.0, *)
    public internal(set) var connectedScenes: Set<UIScene> = []
}
