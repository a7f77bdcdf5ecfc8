import Foundation
import IOSiAPCore
import IOSiAPVerification

/// The local store's signing chain, kept in `signing/` in the state directory: created on first use, read
/// afterwards, so that every transaction of a state directory is signed by one chain and a game's backend
/// can trust `signing/root.der`.
enum SigningChainFiles {
    static func loadOrCreate(in directory: StateDirectory) throws(StoreError) -> SigningChain {
        let folder = directory.url.appendingPathComponent("signing", isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StoreError(.storageFailure, "cannot create \(folder.path): \(error.localizedDescription)")
        }
        // The game and the transaction manager may start together: one creates, the other waits and reads.
        let lock = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw StoreError(.storageFailure, "cannot open \(folder.path)/.lock") }
        defer { close(lock) }
        flock(lock, LOCK_EX)
        let names = ["root.der", "intermediate.der", "leaf.der", "leaf-key.p8"]
        let files = names.map { folder.appendingPathComponent($0) }
        if let contents = try? files.map({ try Data(contentsOf: $0) }) {
            return SigningChain(root: try X509Certificate(der: Array(contents[0])),
                                intermediate: try X509Certificate(der: Array(contents[1])),
                                leaf: try X509Certificate(der: Array(contents[2])),
                                leafKey: try PrivateKey(pkcs8: Array(contents[3])))
        }
        // Valid from 2020 for 30 years: tests and simulations move the store's clock far from today.
        let chain = try SigningChain.create(from: Date(timeIntervalSince1970: 1_577_836_800), days: 30 * 365)
        for (file, bytes) in zip(files, [chain.root.der, chain.intermediate.der, chain.leaf.der, chain.leafKey.pkcs8]) {
            do {
                try Data(bytes).write(to: file, options: .atomic)
            } catch {
                throw StoreError(.storageFailure, "cannot write \(file.path): \(error.localizedDescription)")
            }
        }
        return chain
    }
}
