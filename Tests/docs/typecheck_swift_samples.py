"""Type-checks every Swift sample of the docs (```swift blocks in README.md and docs/*.md) against the library's
modules, so that a sample naming an API the library lacks fails the test command. A sample is a fragment: it is
checked as the body of an async throwing function given the names the samples leave to the game (the store, an
event, the local store, a window scene, the server's offer fields, the game's own functions); one that starts
with `case` lines (of a switch over events) is put in such a switch. It runs on the stand-in's build, the one
graph with both the local store and LiveStoreKit.
usage: typecheck_swift_samples.py MODULES_DIR SOURCES_DIR WORK_DIR"""
import pathlib
import sys

import doc_samples

PRELUDE = '''
import Foundation
import IOSiAPCore
import IOSiAPLocalStore
import IOSiAPSignedData
import IOSiAPStoreKit
import IOSiAPVerification

/* What the samples leave to the game. */
struct SaveFile { var coins = 0; var grantedTransactionIDs: Set<UInt64> = []; func write() {} }
func grant(_ transaction: StoreTransaction) {}
func takeBack(_ transaction: StoreTransaction) {}
func grantPaidEdition() {}
func sendToServer(_ signedJWS: String) {}
func showRenewal(_ renewsInto: String?, reason: StoreSubscriptionStatus.ExpirationReason?) {}
func addRow(_ transaction: StoreTransaction) {}
'''

PARAMETERS = ("store: PurchaseStore, event: StoreEvent, localStore: LocalStore, state: StateDirectory, "
              "transaction: StoreTransaction, windowScene: AnyObject, keyID: String, nonce: UUID, "
              "timestampMilliseconds: Int64, signatureDER: Data")


def main():
    modules, sources, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    # The C modules: system libraries' module maps, and our C targets' (in their include folders).
    module_maps = [f"-fmodule-map-file={path}"
                   for path in sorted([*sources.glob("C*/module.modulemap"), *sources.glob("C*/include/module.modulemap")])]

    def source(name, body):
        lines = body.splitlines()
        imports = [line for line in lines if line.startswith("import ")]
        code = "\n".join(line for line in lines if not line.startswith("import "))
        if code.lstrip().startswith("case "):
            code = "switch event {\n" + code + "\ndefault: break\n}"
        return (PRELUDE + "\n".join(imports) + f"\n// {name}\nfunc sample({PARAMETERS}) async throws {{\n"
                "    var save = SaveFile()\n" + code + "\n    _ = save\n}\n")

    def command(path):
        return ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, str(path)] + \
            [flag for module_map in module_maps for flag in ("-Xcc", module_map)]

    return doc_samples.check_all("swift", "Swift", "type-check", work, source, command)


if __name__ == "__main__":
    sys.exit(main())
