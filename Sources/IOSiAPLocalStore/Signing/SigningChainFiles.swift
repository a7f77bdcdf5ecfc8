#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
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
            throw StoreError(.storageFailure, "cannot create \(folder.path): \(StoreError.describe(error))")
        }
        notWritableByOthers(folder)
        // The game and the transaction manager may start together: one creates, the other waits and reads.
        let lock = open(folder.appendingPathComponent(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw StoreError(.storageFailure, "cannot open \(folder.path)/.lock") }
        // Unlocked before it is closed: a child process being started on another thread may hold a copy of the
        // descriptor for a moment, which would keep the lock (it belongs to the open file) until its exec.
        defer {
            flock(lock, LOCK_UN)
            close(lock)
        }
        flock(lock, LOCK_EX)
        let names = ["root.der", "intermediate.der", "leaf.der", "leaf-key.p8"]
        let files = names.map { folder.appendingPathComponent($0) }
        if let contents = try? files.map({ try Data(contentsOf: $0) }) {
            ownerOnly(files[3])
            return SigningChain(root: try X509Certificate(der: Array(contents[0])),
                                intermediate: try X509Certificate(der: Array(contents[1])),
                                leaf: try X509Certificate(der: Array(contents[2])),
                                leafKey: try PrivateKey(pkcs8: Array(contents[3])))
        }
        // Valid from 2020 for 30 years: tests and simulations move the store's clock far from today.
        let chain = try SigningChain.create(from: Date(timeIntervalSince1970: 1_577_836_800), days: 30 * 365)
        let contents = [chain.root.der, chain.intermediate.der, chain.leaf.der, chain.leafKey.pkcs8]
        for (index, (file, bytes)) in zip(files, contents).enumerated() {
            try writeFile(bytes, to: file, mode: index == 3 ? 0o600 : 0o644)
        }
        return chain
    }

    /// Writes `bytes` to a temporary file created with `mode`, then renames it over `file`: the file never
    /// exists, even for a moment, with a wider mode or partly written.
    private static func writeFile(_ bytes: [UInt8], to file: URL, mode: mode_t) throws(StoreError) {
        let temporary = file.path + ".tmp-\(getpid())"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        var written = 0
        while written < bytes.count {
            let result = bytes[written...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard result > 0 || (result < 0 && errno == EINTR) else {
                let failed = failure("cannot write \(temporary)")
                close(descriptor)
                unlink(temporary)
                throw failed
            }
            written += max(result, 0)
        }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard synced, rename(temporary, file.path) == 0 else {
            let failed = failure("cannot write \(file.path)")
            unlink(temporary)
            throw failed
        }
    }

    /// Narrows a key file that group or others may read (written by an older version) to its owner. Best
    /// effort: a state directory the process may read but not change (another user's) still opens.
    private static func ownerOnly(_ file: URL) {
        var status = stat()
        guard stat(file.path, &status) == 0, status.st_mode & 0o077 != 0 else { return }
        _ = chmod(file.path, 0o600)
    }

    /// Takes group and others' write permission from the folder (created under a wide umask, or left so):
    /// whoever may write into it could replace the chain the store signs with. Best effort, like `ownerOnly`.
    private static func notWritableByOthers(_ folder: URL) {
        var status = stat()
        guard stat(folder.path, &status) == 0, status.st_mode & 0o022 != 0 else { return }
        _ = chmod(folder.path, status.st_mode & 0o755)
    }

    private static func failure(_ what: String) -> StoreError {
        StoreError(.storageFailure, "\(what): \(String(cString: strerror(errno)))")
    }
}
