/*
 * The StoreKit stand-in's C controls (Tests/StoreKitStandIn/CControls.swift), in libiosiap when it is built in the
 * stand-in graph only (scripts/build-sdk.sh --storekit-standin puts this header in the SDK folder): what iOS itself
 * provides around StoreKit, for C and C++ games on Linux.
 */
#ifndef IOSIAP_TESTS_STOREKIT_STANDIN_H
#define IOSIAP_TESTS_STOREKIT_STANDIN_H

#ifdef __cplusplus
extern "C" {
#endif

/* Runs the main run loop for `seconds` on the main thread (StoreKit's purchase is @MainActor), as an iOS app's
   run loop runs between frames; the first call puts the app's window scene in the foreground. 0, or -1 off the
   main thread. */
int storekit_standin_run_main_loop(double seconds);

/* The app's window scene, as a game passes it for a UI context (on iOS `(__bridge void *)window.windowScene`),
   connected as the first storekit_standin_run_main_loop connects it; NULL off the main thread. */
void *storekit_standin_window_scene(void);

/* While `cancelled` is non-zero, AppStore.sync() fails as when the user dismisses the sign-in. 0, or -1. */
int storekit_standin_set_sync_cancelled(int cancelled);

#ifdef __cplusplus
}
#endif

#endif
