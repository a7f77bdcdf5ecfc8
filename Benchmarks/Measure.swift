import Foundation
import IOSiAPCore

/// Times `body` running `count` times and returns operations per second.
func rate(_ count: Int, _ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    for _ in 0..<count { try body() }
    return Double(count) / (ContinuousClock.now - start).timeInterval
}

/// Times `body` once and returns its duration in seconds.
func time(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).timeInterval
}

/// One line of the results table.
struct Row: Codable {
    var name: String
    var measured: String
    var baseline: String
    var ratio: Double?
    var target: String
    var met: Bool?
}

/// A scratch state directory.
func scratchDirectory(_ name: String) -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("iosiap-bench-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

func format(_ value: Double, _ unit: String) -> String {
    value >= 100 ? String(format: "%.0f %@", value, unit) : String(format: "%.2f %@", value, unit)
}
