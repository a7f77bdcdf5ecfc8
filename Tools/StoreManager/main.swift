// iosiap-store: the transaction manager of the local App Store, for QA and CI. It works on a state
// directory, also while a game runs against it: the game receives what it does within a second.
import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPTransactionManager

let usage = """
    usage: iosiap-store --state DIR [--catalog FILE] [--json] COMMAND [ARGUMENTS]
           iosiap-store help [COMMAND]
    The catalog defaults to the one the state directory was last opened with.
    commands:
    \(commands.map(helpLine).joined(separator: "\n"))
    exit status: 0 done, 1 the store refused (the reason on stderr), 2 bad arguments
    """

/// A command's line in the usage: its name and arguments, then the first sentence of its help, wrapped at word
/// boundaries to 100 columns under a 44-column indent (a longer name and arguments get a line of their own).
func helpLine(_ command: Command) -> String {
    let indent = 44, width = 100
    let head = "  \(command.name) \(command.arguments)"
    var lines = [head.count < indent ? head.padding(toLength: indent, withPad: " ", startingAt: 0) : head]
    if head.count >= indent { lines.append(String(repeating: " ", count: indent)) }
    for word in summary(command.help).split(separator: " ") {
        let last = lines[lines.count - 1]
        let startsLine = last.count == indent
        if !startsLine, last.count + 1 + word.count > width {
            lines.append(String(repeating: " ", count: indent) + word)
        } else {
            lines[lines.count - 1] = last + (startsLine ? "" : " ") + word
        }
    }
    return lines.joined(separator: "\n")
}

/// The first sentence of a help text (which may run over several lines): up to the first ". " that does not end
/// an abbreviation ("e.g.", "i.e."), or the end.
func summary(_ help: String) -> String {
    let text = help.replacingOccurrences(of: "\n", with: " ")
    var searchFrom = text.startIndex
    while let end = text.range(of: ". ", range: searchFrom..<text.endIndex) {
        let before = text[..<end.lowerBound]
        if !before.hasSuffix("e.g"), !before.hasSuffix("i.e") { return before + "." }
        searchFrom = end.upperBound
    }
    return text
}

/// The command names closest to a mistyped `name`: those it starts or that start it, else those one edit away.
func closeCommands(to name: String) -> [String] {
    let names = commands.map(\.name)
    let prefixed = names.filter { $0.hasPrefix(name) || name.hasPrefix($0) }
    if !prefixed.isEmpty { return prefixed }
    func distance(_ a: String, _ b: String) -> Int {  // Levenshtein
        let b = Array(b)
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1]
            for (j, y) in b.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1)))
            }
            previous = current
        }
        return previous[b.count]
    }
    return names.filter { distance($0, name) <= 2 }
}

/// --json: the command's output is JSON, and so is a failure (`{"error": MESSAGE, "status": EXIT_STATUS}` on stderr),
/// for a job that parses what the command says. Read by `fail` wherever it is called from.
nonisolated(unsafe) var json = false

func fail(_ message: String, _ status: Int32) -> Never {
    if json, let object = try? JSONSerialization.data(withJSONObject: ["error": message, "status": status] as [String: Any],
                                                                options: [.sortedKeys]) {
        FileHandle.standardError.write(object + Data("\n".utf8))
    } else {
        FileHandle.standardError.write(Data("iosiap-store: \(message)\n".utf8))
    }
    exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
var statePath: String?
var catalogPath: String?
var rest: [String] = []
while !arguments.isEmpty {
    let next = arguments.removeFirst()
    switch next {
    case "--state": statePath = arguments.isEmpty ? nil : arguments.removeFirst()
    case "--catalog": catalogPath = arguments.isEmpty ? nil : arguments.removeFirst()
    case "--json": json = true
    case "--help", "-h": rest.insert("help", at: 0)
    default: rest.append(next)
    }
}
guard let name = rest.first else { fail("no command\n\n\(usage)", 2) }
if name == "help" || rest.contains("--help") {
    let topic = name == "help" ? rest.dropFirst().first : name
    if let topic, let command = commands.first(where: { $0.name == topic }) {
        print("usage: iosiap-store --state DIR \(command.name) \(command.arguments)\n\(command.help)")
    } else {
        print(usage)
    }
    exit(0)
}
guard let command = commands.first(where: { $0.name == name }) else {
    let close = closeCommands(to: name)
    fail("unknown command '\(name)'" + (close.isEmpty ? "" : "; did you mean \(close.map { "'\($0)'" }.joined(separator: " or "))?")
         + "\n`iosiap-store help` lists the commands", 2)
}
guard let statePath else { fail("--state DIR is required", 2) }

do {
    // A state directory that does not exist is made only for a new store, with its catalog: a mistyped path with
    // no catalog is refused rather than created, and a new store is said so.
    var isDirectory: ObjCBool = false
    let exists = FileManager.default.fileExists(atPath: statePath, isDirectory: &isDirectory)
    if exists, !isDirectory.boolValue { fail("\(statePath) is a file, not a state directory", 2) }
    if !exists, catalogPath == nil {
        fail("state directory \(statePath) does not exist; give --catalog FILE to start a new store there", 2)
    }
    // A new store's catalog is read before its directory is made: a bad catalog leaves nothing behind.
    if !exists, let catalogPath { _ = try Catalog.load(contentsOf: URL(fileURLWithPath: catalogPath)) }
    let directory = try StateDirectory(path: statePath)
    if !exists { FileHandle.standardError.write(Data("iosiap-store: started a new, empty store in \(statePath)\n".utf8)) }
    let remembered = try LocalStore.remembered(in: directory)
    guard let catalogFile = catalogPath ?? remembered.catalogPath else {
        fail("--catalog FILE is required: no game has opened \(statePath) yet", 2)
    }
    // A command that takes nothing refuses what it was given, rather than ignore a mistyped command line.
    if command.arguments.isEmpty, rest.count > 1 { throw UsageError(message: "unexpected '\(rest[1])'") }
    let store = try LocalStore(catalogURL: URL(fileURLWithPath: catalogFile), stateDirectory: directory,
                               bundleID: remembered.bundleID ?? "com.example.game")
    defer {
        store.close()
        // `serve`'s notification sender and clock: none of their threads is in libcurl or SQLite as the process exits.
        _ = store.waitUntilStopped(timeout: .seconds(5))
    }
    // A catalog given once is the directory's from now on, as a game's opening makes it (written only when it
    // changes: a command that only reads takes no write lock).
    if catalogPath != nil, remembered.catalogPath != store.catalog.sourcePath || remembered.bundleID == nil {
        try store.rememberCatalog()
    }
    if let run = command.runInDirectory {
        try run(store, directory, Array(rest.dropFirst()), Output(json: json))
    } else {
        try command.run(store, Array(rest.dropFirst()), Output(json: json))
    }
    // What a control changed is recorded for notification now (when a URL is set), not at the next look of a
    // sender: two controls in a row are two notifications, also while nothing sends. The commands that only read
    // (lists, settings, help) do not look: they take no write lock.
    if command.isControl { _ = try? store.recordNotifications() }
} catch let error as UsageError {
    fail("\(name): \(error.message)\n\nusage: iosiap-store --state DIR \(command.name) \(command.arguments)", 2)
} catch let error as ControlInputError {
    fail("\(name): \(error.message)\n\nusage: iosiap-store --state DIR \(command.name) \(command.arguments)", 2)
} catch let error as StoreError {
    fail("\(error.message) [\(error.code.rawValue)]", 1)
} catch {
    fail("\(error)", 1)
}
