import IOSiAPCore
import Synchronization

/// The live store handles. C gets a token, never the object's address, and tokens are never reused:
/// a handle used after `iosiap_store_close` is recognized and refused instead of crashing.
enum HandleRegistry {
    private static let handles = Locked<[UInt: StoreHandle]>([:])
    private static let nextToken = Atomic<UInt>(1)

    static func register(_ handle: StoreHandle) -> OpaquePointer {
        let token = nextToken.wrappingAdd(1, ordering: .relaxed).oldValue
        handles.withLock { $0[token] = handle }
        // Shifted so that the value is aligned like a real pointer and never NULL.
        return OpaquePointer(bitPattern: token << 4)!
    }

    static func handle(_ pointer: OpaquePointer?) throws(StoreError) -> StoreHandle {
        guard let pointer else { throw StoreError(.invalidArgument, "store is NULL") }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) >> 4
        guard let handle = handles.withLock({ $0[token] }) else {
            throw StoreError(.storeNotOpen, "store handle is closed or was never opened")
        }
        return handle
    }

    static func remove(_ pointer: OpaquePointer?) -> StoreHandle? {
        guard let pointer else { return nil }
        let token = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(pointer))) >> 4
        return handles.withLock { $0.removeValue(forKey: token) }
    }
}
