#!/usr/bin/env python3
"""Signs a promotional offer with Apple's official app-store-server-library (PyPI), the way a game's server
does, using the key of a .storekit file's subscriptionOffersKeyPair; prints the payment's offer parameters
for the C test: KEY_ID NONCE TIMESTAMP_MS SIGNATURE.

usage: sign_offer_with_apple_library.py CATALOG BUNDLE_ID PRODUCT_ID OFFER_ID
"""
import json
import sys
import textwrap
import time
import uuid

from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator


def main():
    catalog, bundle_id, product_id, offer_id = sys.argv[1:5]
    pair = json.load(open(catalog, encoding="utf-8"))["subscriptionOffersKeyPair"]
    pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(textwrap.wrap(pair["privateKey"], 64)) + "\n-----END PRIVATE KEY-----\n"
    creator = PromotionalOfferSignatureCreator(pem.encode(), pair["id"], bundle_id)
    nonce = uuid.uuid4()
    timestamp = int(time.time() * 1000)
    signature = creator.create_signature(product_id, offer_id, "", nonce, timestamp)
    print(pair["id"], str(nonce), timestamp, signature)
    return 0


if __name__ == "__main__":
    sys.exit(main())
