// What a C game needs around the stand-in that iOS itself provides, for the C tests that run libiosiap's
// `iosiap_store_open_storekit` on it (Tests/native/storekit_game.c): C functions, declared in
// Tests/native/storekit_standin.h. Apple's StoreKit has none of them.
import Foundation
@testable import UIKit

/// Runs the main run loop for `seconds`, on the main thread, as an iOS app's run loop runs between the game's
/// frames: StoreKit's purchase and sheets are `@MainActor` ("Product.purchase(confirmIn:options:)"), and on
/// Linux the main actor is the main dispatch queue, which only a run loop (or `dispatchMain`) drains. The first
/// call connects the app's one window scene, foreground-active, as UIKit does for an app on screen
/// ("UIApplication.connectedScenes"). 0 on the main thread, -1 elsewhere.
@c(storekit_standin_run_main_loop)
public func storekit_standin_run_main_loop(_ seconds: Double) -> CInt {
    guard Thread.isMainThread else { return -1 }
    _ = MainActor.assumeIsolated { appWindowScene() }
    RunLoop.main.run(until: Date(timeIntervalSinceNow: max(0, seconds)))
    return 0
}

/// The app's window scene as a game passes it for a UI context (on iOS `(__bridge void *)window.windowScene`: an
/// unretained pointer, the scene kept alive by UIKit), connecting it as `storekit_standin_run_main_loop` does. NULL
/// off the main thread (UIKit's objects are the main thread's).
@c(storekit_standin_window_scene)
public func storekit_standin_window_scene() -> UnsafeMutableRawPointer? {
    guard Thread.isMainThread else { return nil }
    let scene = MainActor.assumeIsolated { appWindowScene() }
    return Unmanaged.passUnretained(scene).toOpaque()
}

/// The one window scene of the app, foreground-active, connected on first use.
@MainActor private func appWindowScene() -> UIWindowScene {
    if let scene = UIApplication.shared.connectedScenes.first as? UIWindowScene { return scene }
    let scene = UIWindowScene()
    scene.activationState = .foregroundActive
    UIApplication.shared.connectedScenes = [scene]
    return scene
}

/// While `cancelled` is non-zero, `AppStore.sync()` throws `userCancelled`, as when the user dismisses the
/// App Store's sign-in. 0 on success, -1 when the stand-in cannot open its store (see `StandInAppStore.shared`).
@c(storekit_standin_set_sync_cancelled)
public func storekit_standin_set_sync_cancelled(_ cancelled: CInt) -> CInt {
    (try? StoreKitStandIn.setSyncCancelled(cancelled != 0)) == nil ? -1 : 0
}
