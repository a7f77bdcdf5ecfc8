import Foundation

/// Prints results as aligned tables, or as JSON with --json.
struct Output: Sendable {
    let json: Bool

    func table(_ header: [String], _ rows: [[String]]) {
        if json {
            let objects = rows.map { Dictionary(uniqueKeysWithValues: zip(header, $0)) }
            print(String(decoding: (try? JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys])) ?? Data(), as: UTF8.self))
            return
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            print(zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces))
        }
    }

    /// `value` as JSON (for --json output richer than a table's rows).
    func encoded(_ value: some Encodable) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: (try? encoder.encode(value)) ?? Data(), as: UTF8.self))
    }

    /// One value: the bare text (for `$(iosiap-store …)`), or with --json an object naming it.
    func value(_ name: String, _ value: String) {
        if json {
            print(String(decoding: (try? JSONSerialization.data(withJSONObject: [name: value], options: [.sortedKeys])) ?? Data(), as: UTF8.self))
        } else {
            print(value)
        }
    }

    func done(_ message: String, _ values: [String: UInt64]) {
        if json {
            var object: [String: Any] = ["ok": true, "message": message]
            for (key, value) in values { object[key] = value }
            print(String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data(), as: UTF8.self))
        } else {
            print(message)
        }
    }
}
