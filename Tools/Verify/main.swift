// iosiap-verify: verifies a signed transaction, renewal info or notification (a JWS) by Apple's algorithm, for a
// game's backend or a shell. Prints the decoded payload as JSON, or the reason it failed.
import Foundation
import IOSiAPCore
import IOSiAPVerification

let usage = """
    usage: iosiap-verify --bundle-id ID [options] (JWS | -)
      Verifies a signed transaction (or, with --renewal-info, signed renewal info; with --notification, an App
      Store Server Notification V2). "-" reads it from stdin.
      --bundle-id ID        the app's bundle id (required for transactions and notifications)
      --root FILE.der       a trusted root certificate, DER; repeatable (default: Apple Root CA - G3).
                            The local store's root is signing/root.der in its state directory.
      --environment NAME    Production (default), Sandbox, Xcode or LocalTesting
      --at signed|now       check the chain at the payload's signing date (default) or now
      --renewal-info        the JWS is signed renewal info
      --notification        the JWS is a notification's signedPayload, or the {"signedPayload": ...} body the
                            App Store POSTs; checked against the app's bundle id and environment
      --app-apple-id ID     the app's App Store id, which a Production notification must carry
    exit status: 0 verified (payload on stdout), 1 verification failed (reason on stderr), 2 bad arguments
    """

func fail(_ message: String, status: Int32) -> Never {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    exit(status)
}

var roots: [[UInt8]] = []
var bundleID: String?
var environment = StoreEnvironment.production
var validationDate = SignedDataVerifier.ValidationDate.signedDate
var renewalInfo = false
var notification = false
var appAppleID: UInt64?
var input: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    func value() -> String {
        guard let value = arguments.popFirst() else { fail("iosiap-verify: \(argument) needs a value\n\n\(usage)", status: 2) }
        return value
    }
    switch argument {
    case "--help", "-h":
        print(usage)
        exit(0)
    case "--root":
        let path = value()
        guard let data = FileManager.default.contents(atPath: path) else { fail("iosiap-verify: cannot read \(path)", status: 2) }
        roots.append(Array(data))
    case "--bundle-id":
        bundleID = value()
    case "--environment":
        let name = value()
        guard let parsed = StoreEnvironment(rawValue: name) else {
            fail("iosiap-verify: unknown environment '\(name)' (Production, Sandbox, Xcode, LocalTesting)", status: 2)
        }
        environment = parsed
    case "--at":
        switch value() {
        case "signed": validationDate = .signedDate
        case "now": validationDate = .now
        case let other: fail("iosiap-verify: --at takes signed or now, not '\(other)'", status: 2)
        }
    case "--renewal-info":
        renewalInfo = true
    case "--notification":
        notification = true
    case "--app-apple-id":
        let text = value()
        guard let id = UInt64(text) else { fail("iosiap-verify: --app-apple-id takes a number, not '\(text)'", status: 2) }
        appAppleID = id
    default:
        guard input == nil, !argument.hasPrefix("--") || argument == "-" else {
            fail("iosiap-verify: unexpected argument '\(argument)'\n\n\(usage)", status: 2)
        }
        input = argument
    }
}
guard let input else { fail(usage, status: 2) }
var jws = (input == "-" ? String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) : input)
    .trimmingCharacters(in: .whitespacesAndNewlines)
guard !(renewalInfo && notification) else { fail("iosiap-verify: --renewal-info and --notification exclude each other", status: 2) }
guard renewalInfo || bundleID != nil else {
    fail("iosiap-verify: --bundle-id is required for a \(notification ? "notification" : "transaction")", status: 2)
}
/// A notification as the App Store POSTs it: {"signedPayload": JWS}.
struct NotificationBody: Decodable {
    var signedPayload: String
}
if notification, jws.hasPrefix("{") {
    guard let body = try? JSONDecoder().decode(NotificationBody.self, from: Data(jws.utf8)) else {
        fail("verification failed: the notification body is not {\"signedPayload\": JWS} [\(StoreErrorCode.verificationInvalidFormat.rawValue)]",
             status: 1)
    }
    jws = body.signedPayload
}

do {
    let verifier = try SignedDataVerifier(trustedRoots: roots.isEmpty ? [AppleRootCertificate.g3DER] : roots,
                                          bundleID: bundleID ?? "", environment: environment, appAppleID: appAppleID,
                                          validationDate: validationDate)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let json = if renewalInfo {
        try encoder.encode(try verifier.verifyRenewalInfo(jws))
    } else if notification {
        try encoder.encode(try verifier.verifyNotification(jws))
    } else {
        try encoder.encode(try verifier.verifyTransaction(jws))
    }
    print(String(decoding: json, as: UTF8.self))
} catch let error as StoreError {
    fail("verification failed: \(error.message) [\(error.code.rawValue)]", status: 1)
} catch {
    fail("iosiap-verify: \(error)", status: 1)
}
