// swift-tools-version:6.0
import Foundation
import PackageDescription

// Layers (see DESIGN.md §2): the platform-neutral core, the local App Store backend, and the
// system libraries they reach through systemLibrary targets. Nothing outside the toolchain.

// The Apple graph (IOSIAP_APPLE_GRAPH=1, on Linux only; scripts/check-apple-graph.sh builds it with its own
// --build-path): the package as iOS, tvOS and visionOS build it, built on Linux. Linux then leaves out what
// those platforms leave out, and the declarations-only StoreKit stands in for Apple's (see the end of this file).
#if os(Linux)
let appleGraph = ProcessInfo.processInfo.environment["IOSIAP_APPLE_GRAPH"] != nil
#else
let appleGraph = false
#endif

// The stand-in graph (IOSIAP_STOREKIT_STANDIN=1, on Linux only, with its own --build-path; scripts/test-storekit-standin.sh):
// the Linux package with Tests/StoreKitStandIn, a behavioural StoreKit backed by the local store, as a target named
// `StoreKit`, so that LiveStoreKit is compiled (as iOS) and runs under Tests/IOSiAPStoreKitStandInTests.
#if os(Linux)
let standInGraph = ProcessInfo.processInfo.environment["IOSIAP_STOREKIT_STANDIN"] != nil
#else
let standInGraph = false
#endif

// Where OpenSSL's libcrypto exists, and with it the local App Store, its signer and on-device JWS verification:
// Linux and macOS. The one list that decides it: libiosiap depends on IOSiAPLocalStore and IOSiAPVerification,
// and its IOSIAP_LOCAL_STORE condition is set, on these platforms only; elsewhere (iOS, tvOS, visionOS) the
// functions that need them answer IOSIAP_E_UNSUPPORTED_PLATFORM (Sources/IOSiAPExports/LocalStoreSupport.swift).
let localStorePlatforms: [Platform] = appleGraph ? [.macOS] : [.linux, .macOS]

// Where StoreKit exists, and with it IOSiAPStoreKit in libiosiap: Apple's platforms, and Linux in the graphs that
// give it a StoreKit (the Apple graph's declarations, the stand-in). Elsewhere iosiap_store_open_storekit answers
// IOSIAP_E_UNSUPPORTED_PLATFORM without it, and the library is leaner (see the README's "Size").
let storeKitPlatforms: [Platform] = [.macOS, .iOS, .tvOS, .visionOS] + (appleGraph || standInGraph ? [.linux] : [])

let package = Package(
    name: "IOSiAP",
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .visionOS(.v2)],
    products: [
        .library(name: "IOSiAPCore", targets: ["IOSiAPCore"]),
        .library(name: "IOSiAPLocalStore", targets: ["IOSiAPLocalStore"]),
        .library(name: "IOSiAPSignedData", targets: ["IOSiAPSignedData"]),
        .library(name: "IOSiAPVerification", targets: ["IOSiAPVerification"]),
        .library(name: "IOSiAPStoreKit", targets: ["IOSiAPStoreKit"]),
        // libiosiap: the C ABI of Include/iosiap/iosiap.h. scripts/build-sdk.sh builds it self-contained.
        .library(name: "iosiap", type: .dynamic, targets: ["IOSiAPExports"]),
        .executable(name: "iosiap-example-session", targets: ["ExampleSession"]),
        .executable(name: "iosiap-verify", targets: ["VerifyTool"]),
        .executable(name: "iosiap-store", targets: ["StoreManager"]),
        .executable(name: "iosiap-benchmarks", targets: ["Benchmarks"]),
    ],
    targets: [
        // <sqlite3.h> and libsqlite3: Debian's libsqlite3-dev on Linux; on Apple platforms every SDK ships both
        // (the SDK's SQLite3 module), so the same shim serves everywhere.
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CCrypto",
            path: "Sources/CCrypto",
            providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]
        ),
        .target(
            name: "IOSiAPCore",
            dependencies: ["CSQLite"],
            path: "Sources/IOSiAPCore"
        ),
        // Signed data without cryptography: JWS parsing, the payloads, server verification. Every platform.
        .target(
            name: "IOSiAPSignedData",
            // libcurl: the local store's notifications and, on Linux, server verifications (where URLSession would
            // link classic Foundation and ICU in); Apple platforms post verifications with URLSession.
            dependencies: ["IOSiAPCore", .target(name: "CCurl", condition: .when(platforms: localStorePlatforms))],
            path: "Sources/IOSiAPSignedData"
        ),
        // Initialises libcrypto, when the library is loaded, without its exit-time cleanup: see its C file.
        .target(
            name: "CCryptoAtExit",
            dependencies: ["CCrypto"],
            path: "Sources/CCryptoAtExit"
        ),
        // What needs OpenSSL: signing, certificate chains, on-device verification. Re-exports IOSiAPSignedData.
        .target(
            name: "IOSiAPVerification",
            dependencies: ["CCrypto", "CCryptoAtExit", "IOSiAPCore", "IOSiAPSignedData"],
            path: "Sources/IOSiAPVerification"
        ),
        .target(
            name: "IOSiAPStoreKit",
            dependencies: ["IOSiAPCore"],
            path: "Sources/IOSiAPStoreKit"
        ),
        // libcurl, the Notifications V2 sender's HTTP client: Debian's libcurl4-openssl-dev; every macOS SDK ships it.
        .systemLibrary(
            name: "CCurl",
            path: "Sources/CCurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .target(
            name: "IOSiAPLocalStore",
            dependencies: ["CCurl", "IOSiAPCore", "IOSiAPVerification"],
            path: "Sources/IOSiAPLocalStore"
        ),
        // GNU libmicrohttpd, the HTTP server of `iosiap-store serve` (the App Store Server API): a tool's
        // dependency on local-store platforms, never libiosiap's.
        .systemLibrary(
            name: "CMicroHTTPD",
            path: "Sources/CMicroHTTPD",
            providers: [.apt(["libmicrohttpd-dev"]), .brew(["libmicrohttpd"])]
        ),
        // The App Store Server API over a local store's history: routing, Apple's JSON shapes, bearer tokens.
        .target(
            name: "IOSiAPServerAPI",
            dependencies: ["CMicroHTTPD", "IOSiAPCore", "IOSiAPLocalStore", "IOSiAPSignedData", "IOSiAPVerification"],
            path: "Sources/IOSiAPServerAPI"
        ),
        // The transaction manager's controls (one implementation behind `iosiap-store`'s commands and the page)
        // and its page in the browser, served beside the Server API by `iosiap-store serve`.
        .target(
            name: "IOSiAPTransactionManager",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPServerAPI", "IOSiAPSignedData"],
            path: "Sources/IOSiAPTransactionManager"
        ),
        .systemLibrary(
            name: "CIOSiAP",
            path: "Sources/CIOSiAP"
        ),
        .target(
            name: "IOSiAPExports",
            dependencies: [
                "CIOSiAP", "IOSiAPCore", "IOSiAPSignedData",
                .target(name: "IOSiAPStoreKit", condition: .when(platforms: storeKitPlatforms)),
                .target(name: "IOSiAPLocalStore", condition: .when(platforms: localStorePlatforms)),
                .target(name: "IOSiAPVerification", condition: .when(platforms: localStorePlatforms)),
            ],
            path: "Sources/IOSiAPExports",
            swiftSettings: [.define("IOSIAP_LOCAL_STORE", .when(platforms: localStorePlatforms))]
        ),
        .executableTarget(
            name: "StoreManager",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPServerAPI", "IOSiAPTransactionManager", "IOSiAPVerification"],
            path: "Tools/StoreManager"
        ),
        .executableTarget(
            name: "VerifyTool",
            dependencies: ["IOSiAPCore", "IOSiAPVerification"],
            path: "Tools/Verify"
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["CIOSiAP", "IOSiAPCore", "IOSiAPExports", "IOSiAPLocalStore", "IOSiAPServerAPI", "IOSiAPVerification"],
            path: "Benchmarks"
        ),
        .executableTarget(
            name: "ExampleSession",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore"],
            path: "Examples/Session"
        ),
        .target(
            name: "IOSiAPTestSupport",
            dependencies: ["IOSiAPCore"],
            path: "Tests/Support"
        ),
        .testTarget(
            name: "IOSiAPCoreTests",
            dependencies: ["IOSiAPCore", "IOSiAPTestSupport"],
            path: "Tests/IOSiAPCoreTests"
        ),
        .testTarget(
            name: "IOSiAPVerificationTests",
            dependencies: ["IOSiAPCore", "IOSiAPVerification", "IOSiAPTestSupport"],
            path: "Tests/IOSiAPVerificationTests"
        ),
        .testTarget(
            name: "IOSiAPStoreKitTests",
            dependencies: ["IOSiAPCore", "IOSiAPStoreKit", "IOSiAPTestSupport"],
            path: "Tests/IOSiAPStoreKitTests"
        ),
        .testTarget(
            name: "IOSiAPLocalStoreTests",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPVerification", "IOSiAPTestSupport"],
            path: "Tests/IOSiAPLocalStoreTests"
        ),
        .testTarget(
            name: "IOSiAPServerAPITests",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPServerAPI", "IOSiAPSignedData", "IOSiAPTestSupport",
                           "IOSiAPVerification"],
            path: "Tests/IOSiAPServerAPITests"
        ),
        .testTarget(
            name: "IOSiAPTransactionManagerTests",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPServerAPI", "IOSiAPTestSupport", "IOSiAPTransactionManager"],
            path: "Tests/IOSiAPTransactionManagerTests"
        ),
        .testTarget(
            name: "IOSiAPExportsTests",
            dependencies: ["CIOSiAP", "IOSiAPCore", "IOSiAPExports"],
            path: "Tests/IOSiAPExportsTests"
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer targets, built only by scripts/fuzz.sh (IOSIAP_FUZZ=1): libFuzzer provides their `main`.
if ProcessInfo.processInfo.environment["IOSIAP_FUZZ"] != nil {
    package.targets += [
        .target(name: "FuzzDriver", path: "Tests/Fuzz/Driver"),
        .executableTarget(name: "FuzzJWS", dependencies: ["FuzzDriver", "IOSiAPCore", "IOSiAPVerification"], path: "Tests/Fuzz/JWS"),
        .executableTarget(name: "FuzzPayload", dependencies: ["FuzzDriver", "IOSiAPCore", "IOSiAPVerification"], path: "Tests/Fuzz/Payload"),
        .executableTarget(name: "FuzzCatalog", dependencies: ["FuzzDriver", "IOSiAPCore", "IOSiAPLocalStore"], path: "Tests/Fuzz/Catalog"),
        .executableTarget(name: "FuzzCABI", dependencies: ["FuzzDriver", "CIOSiAP", "IOSiAPExports"], path: "Tests/Fuzz/CABI"),
        .executableTarget(name: "FuzzServerAPI", dependencies: ["FuzzDriver", "IOSiAPCore", "IOSiAPServerAPI", "IOSiAPVerification"],
                          path: "Tests/Fuzz/ServerAPI"),
    ]
}

// The Apple graph's StoreKit: Tests/AppleSDK/StoreKit27 (the newest SDK's transcription), declarations only, as a target named `StoreKit` (with the
// UIKit stub it imports as a target named `UIKit`), so that `canImport(StoreKit)` is true and LiveStoreKit and
// iosiap_store_open_storekit's StoreKit branch are compiled and linked into libiosiap (nothing of it can run:
// its bodies are fatalError()). As iOS: no IOSIAP_STOREKIT_CHECK_* condition. Only in that configuration and
// only on Linux: a target named `StoreKit` or `UIKit` where Apple's frameworks exist would shadow them.
#if os(Linux)
if appleGraph {
    // Warnings are errors in our code; not in the stub, where library evolution warns about importing Foundation
    // (built without it on Linux), so -warnings-as-errors is set per target, not with -Xswiftc.
    for target in package.targets where target.type != .system {
        target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-warnings-as-errors"])]
    }
    // UIKit's stub (the classes a purchase's UI context is, which StoreKit's stub imports), under the same rule.
    package.targets.append(.target(
        name: "UIKit",
        path: "Tests/AppleSDK/UIKit",
        swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-enable-library-evolution"])]
    ))
    // With the iOS SDK's user-module-version from the stub's header, so `canImport(StoreKit, _version:)` picks
    // the branches an iOS 27 SDK build compiles, as scripts/check-storekit.sh does.
    let storeKitStub = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Tests/AppleSDK/StoreKit27/StoreKit.swift")
    let versionLine = (try? String(contentsOf: storeKitStub, encoding: .utf8))?
        .split(separator: "\n").first { $0.hasPrefix("// user-module-version: ios ") }
    guard let iosVersion = versionLine?.split(separator: " ").dropFirst(3).first else {
        fatalError("Tests/AppleSDK/StoreKit27/StoreKit.swift has no '// user-module-version: ios X macos Y' line")
    }
    package.targets.append(.target(
        name: "StoreKit",
        dependencies: ["UIKit"],
        path: "Tests/AppleSDK/StoreKit27",
        swiftSettings: [.swiftLanguageMode(.v5), .unsafeFlags(["-enable-library-evolution", "-user-module-version", String(iosVersion)])]
    ))
    package.targets.first { $0.name == "IOSiAPStoreKit" }!.dependencies += ["StoreKit", "UIKit"]
}
#endif

// The stand-in graph's StoreKit (see the top of this file): behavioural, backed by the local store, never in the normal
// build. Only the tests that run on it are built there; the others run in the normal graph.
#if os(Linux)
if standInGraph && !appleGraph {
    package.targets.removeAll { $0.type == .test }
    package.targets.append(.target(
        name: "UIKit",
        path: "Tests/AppleSDK/UIKit",
        swiftSettings: [.swiftLanguageMode(.v5)]
    ))
    package.targets.append(.target(
        name: "StoreKit",
        dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPVerification", "UIKit"],
        path: "Tests/StoreKitStandIn",
        // The iOS 27.0 SDK's StoreKit user-module-version, so that LiveStoreKit compiles its newest branches.
        swiftSettings: [.unsafeFlags(["-user-module-version", "816.0.47.2.3"])]
    ))
    package.targets.first { $0.name == "IOSiAPStoreKit" }!.dependencies += ["StoreKit", "UIKit"]
    // iosiap_store_open_storekit asks the stand-in for its App Store as it opens (StoreKitExports.swift).
    let exports = package.targets.first { $0.name == "IOSiAPExports" }!
    exports.dependencies += ["StoreKit"]
    exports.swiftSettings = (exports.swiftSettings ?? []) + [.define("IOSIAP_STOREKIT_STANDIN")]
    package.targets.append(.testTarget(
        name: "IOSiAPStoreKitStandInTests",
        dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPStoreKit", "IOSiAPTestSupport", "StoreKit", "UIKit"],
        path: "Tests/IOSiAPStoreKitStandInTests"
    ))
}
#endif
