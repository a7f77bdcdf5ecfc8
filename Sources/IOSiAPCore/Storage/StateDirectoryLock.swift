#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// An exclusive advisory lock on a state directory's journal, held while a store is open, so that two
/// games (or two stores in one game) never share one journal. The kernel drops it when the process dies,
/// so a killed game never leaves it behind.
final class StateDirectoryLock: @unchecked Sendable {
    private let descriptor = Locked<CInt>(-1)

    /// Takes the lock, or throws `stateDirectoryInUse` without waiting.
    init(path: String) throws(StoreError) {
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw StoreError(.storageFailure, "cannot open lock file \(path): \(String(cString: strerror(errno)))")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let reason = errno
            close(fd)
            if reason == EWOULDBLOCK {
                let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
                throw StoreError(.stateDirectoryInUse, "the state directory \(directory) is used by another open store "
                    + "(in this or another process); close it first")
            }
            throw StoreError(.storageFailure, "cannot lock \(path): \(String(cString: strerror(reason)))")
        }
        descriptor.withLock { $0 = fd }
    }

    deinit {
        release()
    }

    /// Gives the lock up; later calls do nothing. Unlocked before the descriptor is closed: a child process another
    /// thread is starting (between its fork and its exec) holds a copy of the descriptor for a moment, and the lock,
    /// which belongs to the open file rather than to a descriptor, would stay held through that copy: a store opened
    /// again at once would find its directory still in use.
    func release() {
        descriptor.withLock { fd in
            if fd >= 0 {
                flock(fd, LOCK_UN)
                close(fd)
            }
            fd = -1
        }
    }
}
