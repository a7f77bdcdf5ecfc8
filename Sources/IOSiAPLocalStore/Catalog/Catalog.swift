#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import IOSiAPCore
import IOSiAPVerification

/// A `.storekit` file's `subscriptionOffersKeyPair`: the local stand-in for App Store Connect's In-App
/// Purchase key, which signs promotional offers.
public struct PromotionalOfferKey: Sendable, Equatable {
    /// The key id (8 hex digits in Xcode's files).
    public let id: String
    /// The P-256 private key, base64 PKCS#8.
    public let privateKey: String
}

/// The products and settings of an Xcode `.storekit` file (format versions 1.0 to 6.3), validated.
///
/// Loading never crashes: a malformed file is a `StoreError` with code `invalidCatalog` whose message
/// names the file and the JSON key path, e.g. `Products.storekit: .products[2].displayPrice: …`.
public struct Catalog: Sendable {
    /// The file's `identifier` (absent in format 1.0).
    public let identifier: String?
    /// The format version as `major.minor`, e.g. `"5.0"`; `nil` when the file has none.
    public let formatVersion: String?
    /// Every product: `products`, then `nonRenewingSubscriptions`, then each group's subscriptions.
    public let products: [CatalogProduct]
    /// The settings.
    public let settings: CatalogSettings
    /// The key promotional offers are signed with (`subscriptionOffersKeyPair`), if the file has one.
    public let promotionalOfferKey: PromotionalOfferKey?
    /// The file it was read from, if it was read from one.
    public private(set) var sourcePath: String?

    private let index: [String: Int]

    /// The product with `id`.
    public func product(id: String) -> CatalogProduct? {
        index[id].map { products[$0] }
    }

    /// Reads and validates the file at `url`, or the `Configuration.storekit` of the `.storekit` package (a folder,
    /// as Xcode saves a configuration with images: `Configuration.storekit` beside `Assets/`) at `url`.
    public static func load(contentsOf url: URL) throws(StoreError) -> Catalog {
        // Through symbolic links, as a package linked into place is still a package.
        let type = (try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path))?[.type] as? FileAttributeType
        let isPackage = type == .typeDirectory
        let file = isPackage ? url.appendingPathComponent(packageConfigurationName) : url
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            let what = isPackage ? "the folder \(url.path) has no readable \(packageConfigurationName)" : "cannot read catalog \(url.path)"
            throw StoreError(.catalogNotReadable, "\(what): \(StoreError.describe(error))")
        }
        let fileName = isPackage ? "\(url.lastPathComponent)/\(packageConfigurationName)" : url.lastPathComponent
        var catalog = try Catalog(data: data, fileName: fileName)
        catalog.sourcePath = url.standardizedFileURL.path
        return catalog
    }

    /// The JSON file inside a `.storekit` package.
    static let packageConfigurationName = "Configuration.storekit"

    /// Validates the JSON `data` of a `.storekit` file; `fileName` names it in errors.
    public init(data: Data, fileName: String) throws(StoreError) {
        let file: StoreKitConfigurationFile
        do {
            file = try JSONDecoder().decode(StoreKitConfigurationFile.self, from: data)
        } catch let error as DecodingError {
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty, let found = JSONSyntax.firstProblem(in: data) {
                throw StoreError(.invalidCatalog, "\(fileName): line \(found.line), column \(found.column): not valid JSON: \(found.problem)")
            }
            throw Self.invalid(fileName, error)
        } catch {
            throw StoreError(.invalidCatalog, "\(fileName): \(StoreError.describe(error))")
        }
        var reader = CatalogReader(fileName: fileName)
        let products = try reader.products(of: file)
        identifier = file.identifier
        formatVersion = file.version.map { "\($0.major).\($0.minor)" }
        self.products = products
        settings = try reader.settings(file.settings)
        promotionalOfferKey = try reader.promotionalOfferKey(file.subscriptionOffersKeyPair)
        index = Dictionary(products.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// A signer of this catalog's promotional offers for `bundleID`, as the developer's server would sign
    /// them; `nil` when the file has no `subscriptionOffersKeyPair`.
    public func promotionalOfferSigner(bundleID: String) -> PromotionalOfferSigner? {
        promotionalOfferKey.flatMap { try? PromotionalOfferSigner(privateKey: $0.privateKey, keyID: $0.id, bundleID: bundleID) }
    }

    private static func invalid(_ fileName: String, _ error: DecodingError) -> StoreError {
        let (path, reason): ([CodingKey], String) = switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key], "required key is missing")
        case .typeMismatch(let type, let context): (context.codingPath, "expected \(type)")
        case .valueNotFound(let type, let context): (context.codingPath, "expected \(type), found null")
        case .dataCorrupted(let context): (context.codingPath, "not valid JSON: \(context.debugDescription)")
        @unknown default: ([], "\(error)")
        }
        return StoreError(.invalidCatalog, "\(fileName): \(keyPath(path)): \(reason)")
    }

    static func keyPath(_ path: [CodingKey]) -> String {
        guard !path.isEmpty else { return "." }
        return path.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
    }
}
