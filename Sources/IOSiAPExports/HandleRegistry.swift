#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore
import Synchronization

/// The live store handles. C gets a token, never the object's address, and tokens are never reused:
/// a handle used after `iosiap_store_close` is recognized and refused instead of crashing.
///
/// A game passes the same handle every frame, so each thread remembers its last lookup; a generation
/// counter, bumped whenever a handle is registered or removed, tells when that memory is stale. This keeps
/// the idle `iosiap_poll` free of locks.
package enum HandleRegistry {
    private static let handles = Locked<[UInt: StoreHandle]>([:])
    private static let nextToken = Atomic<UInt>(1)
    private static let generation = Atomic<UInt>(0)

    static func register(_ handle: StoreHandle) -> OpaquePointer {
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        handles.withLock { handles in
            handles[token] = handle
            generation.wrappingAdd(1, ordering: .releasing)
        }
        // Shifted so that the value is aligned like a real pointer and never NULL.
        return OpaquePointer(bitPattern: token << 4)!
    }

    package static func handle(_ pointer: OpaquePointer?) throws(StoreError) -> StoreHandle {
        guard let pointer else { throw StoreError(.invalidArgument, "store is NULL") }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) >> 4
        let current = generation.load(ordering: .acquiring)
        let memory = LastLookup.current
        if memory.token == token, memory.generation == current, let handle = memory.handle {
            return handle
        }
        guard let handle = handles.withLock({ $0[token] }) else {
            throw StoreError(.storeNotOpen, "store handle is closed or was never opened")
        }
        memory.remember(token: token, generation: current, handle: handle)
        return handle
    }

    static func remove(_ pointer: OpaquePointer?) -> StoreHandle? {
        guard let pointer else { return nil }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) >> 4
        return handles.withLock { handles in
            defer { generation.wrappingAdd(1, ordering: .releasing) }
            return handles.removeValue(forKey: token)
        }
    }
}

/// A thread's last registry lookup. The handle is not retained: while the generation is unchanged the
/// registry holds it, and the header forbids closing a store while another call on it runs.
private final class LastLookup {
    var token: UInt = 0
    var generation: UInt = .max
    unowned(unsafe) var handle: StoreHandle?

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in if let pointer { Unmanaged<LastLookup>.fromOpaque(pointer).release() } }
        return key
    }()

    static var current: LastLookup {
        if let stored = pthread_getspecific(key) { return Unmanaged<LastLookup>.fromOpaque(stored).takeUnretainedValue() }
        let made = LastLookup()
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }

    func remember(token: UInt, generation: UInt, handle: StoreHandle) {
        self.token = token
        self.generation = generation
        self.handle = handle
    }
}
