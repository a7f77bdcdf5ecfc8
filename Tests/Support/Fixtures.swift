import Foundation

/// Where the tests find data files: `../shared/fixtures` beside the repository, and the repository's own.
public enum Fixtures {
    /// The repository's root folder.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `../shared/fixtures`, the public data files shared by the project.
    public static let shared = repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/fixtures")

    /// A `.storekit` file of `../shared/fixtures/storekit`.
    public static func storeKitFile(_ name: String) -> URL {
        shared.appendingPathComponent("storekit").appendingPathComponent(name)
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
}
