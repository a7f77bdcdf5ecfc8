// swift-tools-version:6.0
import Foundation
import PackageDescription

// Layers (see DESIGN.md §2): the platform-neutral core, the local App Store backend, and the
// system libraries they reach through systemLibrary targets. Nothing outside the toolchain.
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
            dependencies: ["IOSiAPCore"],
            path: "Sources/IOSiAPSignedData"
        ),
        // What needs OpenSSL: signing, certificate chains, on-device verification. Re-exports IOSiAPSignedData.
        .target(
            name: "IOSiAPVerification",
            dependencies: ["CCrypto", "IOSiAPCore", "IOSiAPSignedData"],
            path: "Sources/IOSiAPVerification"
        ),
        .target(
            name: "IOSiAPStoreKit",
            dependencies: ["IOSiAPCore"],
            path: "Sources/IOSiAPStoreKit"
        ),
        .target(
            name: "IOSiAPLocalStore",
            dependencies: ["IOSiAPCore", "IOSiAPVerification"],
            path: "Sources/IOSiAPLocalStore"
        ),
        .systemLibrary(
            name: "CIOSiAP",
            path: "Sources/CIOSiAP"
        ),
        .target(
            name: "IOSiAPExports",
            dependencies: ["CIOSiAP", "IOSiAPCore", "IOSiAPLocalStore", "IOSiAPStoreKit", "IOSiAPVerification"],
            path: "Sources/IOSiAPExports"
        ),
        .executableTarget(
            name: "StoreManager",
            dependencies: ["IOSiAPCore", "IOSiAPLocalStore", "IOSiAPVerification"],
            path: "Tools/StoreManager"
        ),
        .executableTarget(
            name: "VerifyTool",
            dependencies: ["IOSiAPCore", "IOSiAPVerification"],
            path: "Tools/Verify"
        ),
        .executableTarget(
            name: "Benchmarks",
            dependencies: ["CIOSiAP", "IOSiAPCore", "IOSiAPExports", "IOSiAPLocalStore", "IOSiAPVerification"],
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
    ]
}
