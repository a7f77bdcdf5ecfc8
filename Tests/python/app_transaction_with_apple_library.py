#!/usr/bin/env python3
"""Apple's official app-store-server-library (PyPI) accepts the local store's App Transaction with
SignedDataVerifier.verify_and_decode_app_transaction when it trusts the store's root, reads the original app
version set with `iosiap-store app-version`, and rejects it for another bundle id or environment.

usage: app_transaction_with_apple_library.py IOSIAP_STORE STATE_DIRECTORY BUNDLE_ID
"""
import json
import os
import subprocess
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationStatus

from apple_checks import Checks, verification_status


def main():
    tool, state, bundle_id = sys.argv[1:4]

    def store(*arguments):
        return subprocess.run([tool, "--state", state, "--json", *arguments], check=True, capture_output=True, text=True).stdout

    store("app-version", "1.2", "3.0")
    fields = {row["field"]: row["value"] for row in json.loads(store("app-transaction"))}
    jws = fields["jws"]
    root = open(os.path.join(state, "signing", "root.der"), "rb").read()
    check = Checks()

    def status(verifier):
        return verification_status(lambda: verifier.verify_and_decode_app_transaction(jws))

    app = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id, None).verify_and_decode_app_transaction(jws)
    check(app.bundleId == bundle_id and app.rawReceiptType == "Sandbox", "bundle id and environment")
    check(app.originalApplicationVersion == "1.2" and app.applicationVersion == "3.0", "the versions set by app-version")
    check(app.appTransactionId == fields["appTransactionId"] and len(app.appTransactionId) == 18, "the app transaction id")
    check(str(app.originalPurchaseDate) == fields["originalPurchaseDate"], "the original purchase date")
    check(status(SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id + ".other", None))
          == VerificationStatus.INVALID_APP_IDENTIFIER, "another bundle id rejects it")
    check(status(SignedDataVerifier([root], False, Environment.XCODE, bundle_id, None))
          == VerificationStatus.INVALID_ENVIRONMENT, "another environment rejects it")
    # Signed by another chain's root: the chain does not verify (Apple's library checks the Sandbox chain). Apple's
    # root is a public fixture in ../shared (or IOSIAP_SHARED_FIXTURES), which a clone of the repository alone lacks.
    fixtures = os.environ.get("IOSIAP_SHARED_FIXTURES") or os.path.join(
        os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, os.pardir, "shared", "fixtures")
    apple_root = os.path.join(fixtures, "certs", "AppleRootCA-G3.der")
    if os.path.exists(apple_root):
        other_root = open(apple_root, "rb").read()
        check(status(SignedDataVerifier([other_root], False, Environment.SANDBOX, bundle_id, None))
              == VerificationStatus.VERIFICATION_FAILURE, "Apple's root rejects the local store's chain")
    else:
        print(f"apple library: skipped the check against Apple's root: {apple_root} is missing (no ../shared beside the clone)")
    print(f"apple library: App Transaction {app.appTransactionId} verified; {check.summary()}")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
