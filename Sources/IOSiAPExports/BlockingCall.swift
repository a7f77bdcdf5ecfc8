#if canImport(FoundationEssentials)
import FoundationEssentials
import Dispatch
#else
import Foundation
#endif
import IOSiAPCore

/// Runs `work` on the library's own thread and blocks the calling (C) thread until it ends: for the C calls that
/// return a result an async Swift API gives (iosiap.h: "call from a loading screen or your own thread, never from
/// the store's callback"). The calling thread is the game's, never one of the pool's: async Swift code awaits
/// `work` itself.
@available(*, noasync, message: "blocks its caller until the work ends; await the async API instead")
func waitFor<Value: Sendable>(_ work: @escaping @Sendable () async throws(StoreError) -> Value) throws(StoreError) -> Value {
    let result = Locked<Result<Value, StoreError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    // On the library's own thread: the C caller's wait does not depend on a thread of the pool coming free.
    Task.detached(executorPreference: SerialThreadExecutor.libraryTasks) {
        do throws(StoreError) {
            let value = try await work()
            result.withLock { $0 = .success(value) }
        } catch {
            result.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try result.withLock { $0! }.get()
}

/// A struct the library makes for the caller to free, with everything it points to kept in one arena: the arena's
/// reference sits right after the struct in the same allocation, so that `free` finds it from the pointer alone.
enum OwnedCopy {
    private static func layout<Value>(_: Value.Type) -> (arenaOffset: Int, byteCount: Int, alignment: Int) {
        let offset = MemoryLayout<Value>.stride
        let rounded = (offset + MemoryLayout<UnsafeRawPointer>.alignment - 1) / MemoryLayout<UnsafeRawPointer>.alignment
            * MemoryLayout<UnsafeRawPointer>.alignment
        return (rounded, rounded + MemoryLayout<UnsafeRawPointer>.size,
                max(MemoryLayout<Value>.alignment, MemoryLayout<UnsafeRawPointer>.alignment))
    }

    /// `build`'s value, with the C strings and arrays it made in the arena, owned by the returned pointer.
    static func make<Value>(_ build: (CStringArena) -> Value) -> UnsafeMutablePointer<Value> {
        let arena = CStringArena()
        let value = build(arena)
        let layout = layout(Value.self)
        let raw = UnsafeMutableRawPointer.allocate(byteCount: layout.byteCount, alignment: layout.alignment)
        let pointer = raw.bindMemory(to: Value.self, capacity: 1)
        pointer.initialize(to: value)
        (raw + layout.arenaOffset).storeBytes(of: Unmanaged.passRetained(arena).toOpaque(), as: UnsafeMutableRawPointer.self)
        return pointer
    }

    /// Frees what `make` made, its arena with it. NULL does nothing.
    static func free<Value>(_ pointer: UnsafeMutablePointer<Value>?) {
        guard let pointer else { return }
        let raw = UnsafeMutableRawPointer(pointer)
        Unmanaged<CStringArena>.fromOpaque((raw + layout(Value.self).arenaOffset).load(as: UnsafeMutableRawPointer.self)).release()
        pointer.deinitialize(count: 1)
        raw.deallocate()
    }
}
