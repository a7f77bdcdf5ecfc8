// The baseline of benchmark row 12 (scripts/benchmark.sh): a library of the same Swift runtime libiosiap links
// statically (the standard library, Concurrency, Dispatch and FoundationEssentials, used as libiosiap uses them:
// JSON, files, dates, URLs, tasks), with no code of ours. What libiosiap.so weighs above it is IOSiAP's own.
import Dispatch
import FoundationEssentials

private struct Sample: Codable {
    var id: Int
    var name: String
    var date: Date
}

@_cdecl("size_baseline")
public func sizeBaseline(_ count: Int) -> Int {
    let encoded = (try? JSONEncoder().encode(Sample(id: count, name: UUID().uuidString, date: Date()))) ?? Data()
    let decoded = try? JSONDecoder().decode(Sample.self, from: encoded)
    let folder = URL(fileURLWithPath: "/tmp").appendingPathComponent("size-baseline-\(count)")
    _ = try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    _ = try? Data(contentsOf: folder.appendingPathComponent("missing"))
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: 0)!
    let later = calendar.date(byAdding: .month, value: count, to: Date()) ?? Date()
    let semaphore = DispatchSemaphore(value: 0)
    Task { semaphore.signal() }
    semaphore.wait()
    return (decoded?.id ?? 0) + later.formatted(.iso8601).count
}
