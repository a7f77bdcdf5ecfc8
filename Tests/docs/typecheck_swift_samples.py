"""Type-checks every Swift sample of the docs (```swift blocks in README.md and docs/*.md) against the library's
modules, so that a sample naming an API the library lacks fails the test command. A sample is a fragment: it is
checked as the body of an async throwing function given the names the samples leave to the game (the store, an
event, the local store, a window scene, the server's offer fields, the game's own functions); one that starts
with `case` lines (of a switch over events) is put in such a switch. It runs on the stand-in's build, the one
graph with both the local store and LiveStoreKit.
usage: typecheck_swift_samples.py MODULES_DIR SOURCES_DIR WORK_DIR"""
import pathlib
import re
import subprocess
import sys

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
func sendToServer<Signed>(_ signed: Signed) {}
func showRenewal<Product, Reason>(_ product: Product, reason: Reason) {}
func addRow(_ transaction: StoreTransaction) {}
'''

PARAMETERS = ("store: PurchaseStore, event: StoreEvent, localStore: LocalStore, state: StateDirectory, "
              "transaction: StoreTransaction, windowScene: AnyObject, keyID: String, nonce: UUID, "
              "timestampMilliseconds: Int64, signatureDER: Data")


def samples(root):
    for path in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        for number, match in enumerate(re.finditer(r"^```swift\n(.*?)^```$", path.read_text(), re.S | re.M), 1):
            yield f"{path.relative_to(root)} #{number}", match.group(1)


def main():
    modules, sources, work = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    root = pathlib.Path(__file__).resolve().parents[2]
    module_maps = [f"-fmodule-map-file={path}" for path in sorted(sources.glob("C*/module.modulemap"))]
    found = failed = 0
    for name, body in samples(root):
        found += 1
        lines = body.splitlines()
        imports = [line for line in lines if line.startswith("import ")]
        code = "\n".join(line for line in lines if not line.startswith("import "))
        if code.lstrip().startswith("case "):
            code = "switch event {\n" + code + "\ndefault: break\n}"
        source = work / f"sample_{found}.swift"
        source.write_text(PRELUDE + "\n".join(imports) + f"\n// {name}\nfunc sample({PARAMETERS}) async throws {{\n"
                          "    var save = SaveFile()\n" + code + "\n    _ = save\n}\n")
        command = ["swiftc", "-typecheck", "-swift-version", "6", "-I", modules, str(source)]
        for module_map in module_maps:
            command += ["-Xcc", module_map]
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            failed += 1
            print(f"FAILED: the Swift sample {name} does not type-check:\n{result.stderr}", file=sys.stderr)
    if found == 0:
        print("FAILED: no Swift sample found in the docs", file=sys.stderr)
        return 1
    print(f"docs: {found} Swift samples type-checked, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
