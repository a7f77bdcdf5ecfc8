import Foundation
import IOSiAPCore
@testable import IOSiAPVerification
import IOSiAPTestSupport
import Testing

/// The `iosiap-verify` command, run as a backend would run it, on forged signed data.
@Suite struct VerifyToolTests {
    /// The tool built beside the test bundle (`swift build --build-tests` builds both).
    static var tool: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("iosiap-verify")
    }

    /// Runs the tool and waits for it on a thread of its own: reading its output to the end and waiting for its exit
    /// block, and must not hold a thread of the concurrency pool meanwhile.
    func run(_ arguments: [String]) async throws -> (status: Int32, reason: Process.TerminationReason, stdout: String, stderr: String) {
        try await onThreadOfItsOwn { try Self.runBlocking(arguments) }
    }

    static func runBlocking(_ arguments: [String]) throws -> (status: Int32, reason: Process.TerminationReason, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = Self.tool
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try ProcessLaunch.run(process)
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, process.terminationReason,
                String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test(arguments: ["1e22", "10000000000000000000000", String(repeating: "4", count: 400), "-10000000000000000000000"])
    func aForgedSignedDateIsRefusedWithExitStatus1NotACrash(signedDate: String) async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.tool.path), "\(Self.tool.path) was not built")
        let chain = try SigningChain.create()
        let directory = TemporaryDirectory()
        let root = directory.url.appendingPathComponent("root.der")
        try Data(chain.root.der).write(to: root)
        let payload = #"{"bundleId":"com.example.game","environment":"Sandbox","productId":"coins","quantity":1,"#
            + #""signedDate":\#(signedDate),"transactionId":"1"}"#
        let jws = try chain.sign(Array(payload.utf8))
        let result = try await run(["--bundle-id", "com.example.game", "--environment", "Sandbox", "--root", root.path, jws])
        #expect(result.reason == .exit, "iosiap-verify was killed by signal \(result.status)")
        #expect(result.status == 1)
        #expect(result.stderr.contains("[-200]") && result.stderr.contains("'signedDate'"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// A notification's signedPayload, given as the JWS or as the body Apple POSTs: verified against the app's
    /// bundle id and environment, printed as JSON; for another app, refused with exit status 1.
    @Test func aNotificationIsVerifiedAndPrinted() async throws {
        let chain = try SigningChain.create()
        let directory = TemporaryDirectory()
        let root = directory.url.appendingPathComponent("root.der")
        try Data(chain.root.der).write(to: root)
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let jws = try chain.sign(Array(#"""
            {"notificationType":"DID_RENEW","notificationUUID":"u-1","signedDate":\#(now),"version":"2.0",
             "data":{"bundleId":"com.example.game","environment":"Sandbox","status":1}}
            """#.utf8))
        for input in [jws, #"{"signedPayload":"\#(jws)"}"#] {
            let result = try await run(["--notification", "--bundle-id", "com.example.game", "--environment", "Sandbox", "--root", root.path, input])
            #expect(result.status == 0, "\(result.stderr)")
            let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
            #expect(printed["notificationType"] as? String == "DID_RENEW" && printed["notificationUUID"] as? String == "u-1")
            #expect((printed["data"] as? [String: Any])?["status"] as? Int == 1)
        }
        let other = try await run(["--notification", "--bundle-id", "com.other.game", "--environment", "Sandbox", "--root", root.path, jws])
        #expect(other.status == 1 && other.stderr.contains("[-208]") && other.stdout.isEmpty, "\(other.stderr)")
    }
}
