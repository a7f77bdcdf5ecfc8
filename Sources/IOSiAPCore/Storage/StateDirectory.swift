#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The folder, chosen by the caller, where the journal and the local store keep their databases.
///
/// Two launches against the same folder see the same purchases.
public struct StateDirectory: Sendable, Equatable {
    /// The folder.
    public let url: URL

    /// Uses `url`, creating the folder (and its parents) if needed.
    public init(_ url: URL) throws(StoreError) {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storageFailure, "cannot create state directory \(url.path): \(StoreError.describe(error))")
        }
        self.url = url
    }

    /// Uses the folder at `path`.
    public init(path: String) throws(StoreError) {
        try self.init(URL(fileURLWithPath: path, isDirectory: true))
    }

    /// The path of a file inside the folder.
    package func file(_ name: String) -> String {
        url.appendingPathComponent(name).path
    }
}
