#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif
import IOSiAPCore

/// The calling thread's last failure message (`iosiap_last_error_message`), kept in thread-local storage.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// How many failures the thread has had (wrapping), stored as the key's pointer value: no allocation.
    private static let countKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    private static let empty: StaticString = ""

    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, strdup(message))
        free(previous)
        pthread_setspecific(countKey, UnsafeRawPointer(bitPattern: count &+ 1))
    }

    /// Changes with every `set` on the calling thread: tells whether a call failed in between.
    static var count: UInt {
        UInt(bitPattern: pthread_getspecific(countKey))
    }

    static var message: UnsafePointer<CChar> {
        if let stored = pthread_getspecific(key) { return UnsafePointer(stored.assumingMemoryBound(to: CChar.self)) }
        return UnsafeRawPointer(empty.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}

/// Runs the body of an exported function: a `StoreError` becomes its status code and the thread's last
/// error message. Nothing else can escape a `@c` function.
func withStatus(_ body: () throws(StoreError) -> CInt) -> CInt {
    do {
        return try body()
    } catch {
        LastError.set(error.message)
        return error.code.rawValue
    }
}
