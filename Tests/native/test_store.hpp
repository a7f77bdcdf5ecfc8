// The native C++ tests' store on either backend (C++11): opened through the C++ layer, the time between frames, the
// game's window scene, and QA acting from outside with iosiap-store. Built with IOSIAP_STOREKIT_STANDIN against the
// stand-in's libiosiap (scripts/test-storekit-standin.sh), StoreKit instead of the local store, as on an iPhone.
#ifndef IOSIAP_TESTS_TEST_STORE_HPP
#define IOSIAP_TESTS_TEST_STORE_HPP

#include <iosiap/iosiap.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdio.h>  /* popen, pclose */
#include <string>
#ifdef IOSIAP_STOREKIT_STANDIN
#include <stdlib.h> /* setenv */

#include "storekit_standin.h"
#else
#include <chrono>
#include <thread>
#endif

/** Opens `store` as the test's store, events to `delegate`: the local store with `options`. Over StoreKit (the
    stand-in's build) its App Store is the local store on options.catalogPath and options.stateDirectory (what
    `iosiap-store --state` changes), unless IOSIAP_STOREKIT_CONFIGURATION and IOSIAP_STOREKIT_STATE name another: the
    stand-in serves one App Store per process, the first one opened; the journal is in STATE/device, and the
    delivery, verification and server URLs are the options' (bundle id, locale and storefront: the App Store's). */
inline int openTestStore(iosiap::Store &store, const iosiap::LocalStoreOptions &options, iosiap::StoreDelegate *delegate) {
#ifdef IOSIAP_STOREKIT_STANDIN
    setenv("IOSIAP_STOREKIT_CONFIGURATION", options.catalogPath.c_str(), 0);
    setenv("IOSIAP_STOREKIT_STATE", options.stateDirectory.c_str(), 0);
    iosiap::StoreKitOptions storeKit;
    storeKit.stateDirectory = options.stateDirectory + "/device";
    storeKit.deliverOnLibraryThread = options.deliverOnLibraryThread;
    storeKit.verification = options.verification;
    storeKit.serverUrl = options.serverUrl;
    storeKit.sandboxServerUrl = options.sandboxServerUrl;
    return store.openStoreKit(storeKit, delegate);
#else
    return store.openLocal(options, delegate);
#endif
}

/** The time between two frames. Over StoreKit the main run loop runs there, as on iOS: StoreKit's purchase and
    sheets run on the main actor (Tests/StoreKitStandIn/CControls.swift), also when events come on the delivery thread. */
inline void betweenFrames(int milliseconds = 2) {
#ifdef IOSIAP_STOREKIT_STANDIN
    storekit_standin_run_main_loop(milliseconds / 1000.0);
#else
    if (milliseconds > 0) std::this_thread::sleep_for(std::chrono::milliseconds(milliseconds));
#endif
}

/** The game's UIWindowScene, for a UI context: over StoreKit the stand-in's app scene, where StoreKit shows its
    sheets; the local store never dereferences it. */
inline void *gameScene() {
#ifdef IOSIAP_STOREKIT_STANDIN
    return storekit_standin_window_scene();
#else
    static int scene;
    return &scene;
#endif
}

/** Whether subscription group `groupId` has ended, as its status says: StoreKit tells no expiry, which changes no
    transaction (the stand-in's StandInAppStore.dispatch; "Product.SubscriptionInfo.Status"). */
inline bool subscriptionEnded(const iosiap::Store &store, const std::string &groupId) {
    iosiap::SubscriptionStatus status;
    return store.subscriptionStatus(groupId, &status) == IOSIAP_OK && status.state == IOSIAP_SUBSCRIPTION_EXPIRED;
}

/** QA acting on the App Store from outside: `iosiap-store --state STATE --catalog CATALOG ARGUMENTS` in another
    process, as QA runs it beside the game (over StoreKit the C++ layer's local* controls, which need a local
    store, do not reach the App Store). ARGUMENTS are shell words. */
class StoreTool {
public:
    StoreTool(const std::string &tool, const std::string &state, const std::string &catalog)
        : tool_(tool), state_(state), catalog_(catalog) {}

    /** Runs it, its output to the test's (a pipe may follow the arguments); true if it exited 0. */
    bool run(const std::string &arguments) const { return std::system(command(arguments).c_str()) == 0; }
    /** `run`, its output dropped. */
    bool quiet(const std::string &arguments) const { return run(arguments + " >/dev/null"); }
    /** Whether it refuses `arguments` with `status` (it exits 1 naming it: "... [-7]"). */
    bool refused(const std::string &arguments, int status) const {
        return run(arguments + " 2>&1 >/dev/null | grep -qF -- '[" + std::to_string(status) + "]'");
    }
    /** What it printed; empty if it failed. */
    std::string output(const std::string &arguments) const {
        std::string text;
        FILE *pipe = popen(command(arguments).c_str(), "r");
        if (!pipe) return text;
        char buffer[512];
        for (std::size_t count; (count = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) text.append(buffer, count);
        return pclose(pipe) == 0 ? text : std::string();
    }
    /** The transaction a control made or changed, as its sentence names it ("bought ... x2: transaction 12"); 0 if
        it failed. */
    std::uint64_t transaction(const std::string &arguments) const {
        const std::string said = output(arguments);
        const std::size_t at = said.rfind("transaction ");
        return at == std::string::npos ? 0 : std::strtoull(said.c_str() + at + 12, nullptr, 10);
    }

private:
    std::string command(const std::string &arguments) const {
        return "'" + tool_ + "' --state '" + state_ + "' --catalog '" + catalog_ + "' " + arguments;
    }

    std::string tool_, state_, catalog_;
};

/* QA's change: the local store's control, or over StoreKit the same change by iosiap-store; and one the App Store
   refuses with `status`. */
#ifdef IOSIAP_STOREKIT_STANDIN
#define QA(tool, local_control, arguments) (tool).quiet(arguments)
#define QA_REFUSED(tool, local_control, arguments, status) (tool).refused((arguments), (status))
#else
#define QA(tool, local_control, arguments) ((void)(tool), (local_control) == IOSIAP_OK)
#define QA_REFUSED(tool, local_control, arguments, status) ((void)(tool), (local_control) == (status))
#endif

#endif
