import Foundation

/// Where the tests find data files: `../shared/fixtures` beside the repository, and the repository's own.
///
/// A clone of the repository alone has no `../shared`: the tests that read it are then skipped, saying why
/// (`Fixtures.sharedAvailable` gates them), and CI, which has it, runs them. `IOSIAP_SHARED_FIXTURES=DIR` reads
/// the shared fixtures from `DIR` instead; a folder that does not exist shows what such a clone reports, e.g.
/// `IOSIAP_SHARED_FIXTURES=/nonexistent swift test --skip-build --filter CatalogTests`.
public enum Fixtures {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures`, the public data files shared by the project (or `IOSIAP_SHARED_FIXTURES`).
    public static let shared: URL = {
        if let folder = ProcessInfo.processInfo.environment["IOSIAP_SHARED_FIXTURES"], !folder.isEmpty {
            return URL(fileURLWithPath: folder)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    /// Whether `shared` exists; the tests that read it are enabled only then.
    public static let sharedAvailable: Bool = {
        var isFolder: ObjCBool = false
        return FileManager.default.fileExists(atPath: shared.path, isDirectory: &isFolder) && isFolder.boolValue
    }()

    /// Why a test that reads `shared` is skipped when it is missing.
    public static let sharedMissingReason = "reads ../shared/fixtures (the project's shared data files), which this checkout lacks: "
        + "a clone of the repository alone has no ../shared; CI has it and runs this test"

    /// A `.storekit` file of `../shared/fixtures/storekit`.
    public static func storeKitFile(_ name: String) -> URL {
        shared.appendingPathComponent("storekit").appendingPathComponent(name)
    }

    /// `../shared/fixtures/realworld/storekit`: real `.storekit` files and packages of other projects
    /// (`../shared/fixtures/realworld/PROVENANCE.md`).
    public static var realWorldStoreKitFolder: URL {
        shared.appendingPathComponent("realworld/storekit")
    }

    /// The names of the files and packages in `realWorldStoreKitFolder`, sorted; none when it is missing.
    public static var realWorldStoreKitNames: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: realWorldStoreKitFolder.path)) ?? [])
            .filter { $0.hasSuffix(".storekit") }.sorted()
    }

    /// A file or package of `realWorldStoreKitFolder`.
    public static func realWorldStoreKit(_ name: String) -> URL {
        realWorldStoreKitFolder.appendingPathComponent(name)
    }

    /// A file of `../shared/fixtures`, e.g. `certs/AppleRootCA-G3.der`.
    public static func bytes(_ path: String) throws -> [UInt8] {
        Array(try Data(contentsOf: shared.appendingPathComponent(path)))
    }

    /// A text file of `../shared/fixtures`, without surrounding white space.
    public static func text(_ path: String) throws -> String {
        try String(contentsOf: shared.appendingPathComponent(path), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The example catalog, `Examples/Products.storekit`.
    public static let exampleCatalog = repositoryRoot.appendingPathComponent("Examples/Products.storekit")

    /// A public `.storekit` file of format 6.3 (Xcode 27) in `Tests/Fixtures/xcode27` (see its PROVENANCE.md).
    public static func xcode27StoreKit(_ name: String) -> URL {
        repositoryRoot.appendingPathComponent("Tests/Fixtures/xcode27").appendingPathComponent(name)
    }
}
