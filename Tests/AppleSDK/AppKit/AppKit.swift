// A declarations-only `AppKit` for Linux: the classes StoreKit's macOS interface takes (an NSWindow for
// purchase(confirmIn:options:), an NSViewController for the offer-code and refund sheets) and
// Sources/IOSiAPStoreKit/Live names (a UI context is an NSWindow or an NSViewController on macOS, and a purchase
// shows in the view controller's window), nothing else. Built before the StoreKit stubs (Tests/AppleSDK/StoreKit18
// and StoreKit26), which import it, in scripts/check-storekit.sh's macOS configurations only, into a temporary
// directory; never as a SwiftPM target. Like the StoreKit stub, it must
// never be built where the real AppKit exists: a module named `AppKit` would shadow Apple's.
//
// Sources (declarations transcribed by us; their kinds, superclasses and `@MainActor` kept, members left out):
// - https://developer.apple.com/documentation/appkit/nsresponder   `@MainActor class NSResponder : NSObject`
// - https://developer.apple.com/documentation/appkit/nswindow      `@MainActor class NSWindow : NSResponder`,
//   with `var contentViewController: NSViewController?` (NSWindow.h: `@property (nullable, strong)
//   NSViewController *contentViewController API_AVAILABLE(macos(10.10))`) and `var contentView: NSView?`
//   (`@property (nullable, strong) __kindof NSView *contentView`)
// - https://developer.apple.com/documentation/appkit/nsviewcontroller `@MainActor class NSViewController : NSResponder`
//   with `init(nibName: NSNib.Name?, bundle: Bundle?)` (NSNib.Name is a String; NSViewController.h:
//   `- (instancetype)initWithNibName:(nullable NSNibName)nibNameOrNil bundle:(nullable NSBundle *)nibBundleOrNil
//   NS_DESIGNATED_INITIALIZER`), `var view: NSView` (`@property (strong) IBOutlet NSView *view`) and
//   `var viewIfLoaded: NSView? { get }` (`@property (nullable, readonly, strong) NSView *viewIfLoaded
//   API_AVAILABLE(macos(14.0))`)
// - https://developer.apple.com/documentation/appkit/nsview `@MainActor class NSView : NSResponder` with
//   `unowned(unsafe) var window: NSWindow? { get }` (NSView.h: `@property (nullable, readonly, unsafe_unretained)
//   NSWindow *window`)
// The same in the macOS 15.0 and 26.0 SDKs (AppKit's NSWindow.h, NSViewController.h and NSView.h), so one stub
// serves both StoreKit transcriptions.
// `NSObject` is left out: on Linux it is not the Objective-C root class, and nothing here relies on it.

import Foundation

@MainActor open class NSResponder {}

@MainActor open class NSView: NSResponder {
    open var window: NSWindow? { fatalError() }  // unowned(unsafe) in AppKit; a computed stand-in here
}

@MainActor open class NSViewController: NSResponder {
    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) { fatalError() }
    open var view: NSView { get { fatalError() } set { fatalError() } }
    @available(macOS 14.0, *)
    open var viewIfLoaded: NSView? { fatalError() }
}

@MainActor open class NSWindow: NSResponder {
    open var contentViewController: NSViewController? { get { fatalError() } set { fatalError() } }
    open var contentView: NSView? { get { fatalError() } set { fatalError() } }
}
