#if canImport(FoundationEssentials)
import FoundationEssentials
import Glibc
#else
import Foundation
#endif

/// C strings made for one callback, freed together when it returns.
final class CStringArena {
    private var allocations: [UnsafeMutableRawPointer] = []

    deinit {
        for allocation in allocations { free(allocation) }
    }

    /// A NUL-terminated copy of `text` that lives as long as the arena.
    func copy(_ text: String) -> UnsafePointer<CChar> {
        let pointer = strdup(text)!
        allocations.append(pointer)
        return UnsafePointer(pointer)
    }

    /// A copy of `text`, or NULL.
    func copy(_ text: String?) -> UnsafePointer<CChar>? {
        text.map { copy($0) }
    }

    /// An array of `count` elements that lives as long as the arena.
    func array<Element>(_ elements: [Element]) -> UnsafePointer<Element>? {
        guard !elements.isEmpty else { return nil }
        let pointer = UnsafeMutablePointer<Element>.allocate(capacity: elements.count)
        pointer.initialize(from: elements, count: elements.count)
        allocations.append(UnsafeMutableRawPointer(pointer))
        return UnsafePointer(pointer)
    }

    /// A single value that lives as long as the arena.
    func value<Value>(_ value: Value) -> UnsafePointer<Value> {
        array([value])!
    }
}
