#!/usr/bin/env python3
"""Apple's official app-store-server-library (PyPI), an independent verifier, accepts the local store's
signed transactions and renewal infos when it trusts the store's root, reads the offer a transaction used,
and rejects them for another bundle id or environment.

usage: verify_with_apple_library.py STATE_DIRECTORY BUNDLE_ID
"""
import os
import sqlite3
import sys

from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier, VerificationStatus

from apple_checks import Checks, verification_status as status


def main():
    state, bundle_id = sys.argv[1:3]
    root = open(os.path.join(state, "signing", "root.der"), "rb").read()
    rows = sqlite3.connect(os.path.join(state, "localstore.sqlite")).execute(
        "SELECT id, product_id, quantity, signed_jws, signed_renewal_info, offer_type, offer_id FROM transactions").fetchall()
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id, None)
    other_bundle = SignedDataVerifier([root], False, Environment.SANDBOX, bundle_id + ".other", None)
    production = SignedDataVerifier([root], False, Environment.PRODUCTION, bundle_id, 1234)
    check = Checks()

    renewals = offers = 0
    for transaction_id, product_id, quantity, jws, renewal, offer_type, offer_id in rows:
        payload = verifier.verify_and_decode_signed_transaction(jws)
        check(payload.transactionId == str(transaction_id), f"transaction id of {transaction_id}")
        check(payload.productId == product_id and payload.quantity == quantity, f"product and quantity of {transaction_id}")
        check(payload.bundleId == bundle_id and payload.rawEnvironment == "Sandbox", f"bundle and environment of {transaction_id}")
        if offer_type is not None:
            offers += 1
            check(payload.rawOfferType == offer_type and payload.offerIdentifier == offer_id and payload.offerDiscountType is not None,
                  f"the offer of {transaction_id}")
        check(status(lambda: other_bundle.verify_and_decode_signed_transaction(jws)) == VerificationStatus.INVALID_APP_IDENTIFIER,
              f"another bundle id rejects {transaction_id}")
        check(status(lambda: production.verify_and_decode_signed_transaction(jws)) == VerificationStatus.INVALID_ENVIRONMENT,
              f"production rejects {transaction_id}")
        if renewal:
            renewals += 1
            info = verifier.verify_and_decode_renewal_info(renewal)
            check(info.productId == product_id and info.originalTransactionId is not None, f"renewal info of {transaction_id}")
    check(len(rows) > 0 and renewals > 0 and offers > 0, "the session signed transactions, renewal infos and offers")
    print(f"apple library: {len(rows)} signed transactions ({offers} with an offer), {renewals} renewal infos verified")
    print(f"apple library: {check.summary()}")
    return check.exit_status()


if __name__ == "__main__":
    sys.exit(main())
