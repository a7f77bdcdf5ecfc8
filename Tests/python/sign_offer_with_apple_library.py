#!/usr/bin/env python3
"""Signs offers with Apple's official app-store-server-library (PyPI), the way a game's server does, using the key
of a .storekit file's subscriptionOffersKeyPair, for the C tests:

  sign_offer_with_apple_library.py CATALOG BUNDLE_ID PRODUCT_ID OFFER_ID
      a promotional offer's older signature (PromotionalOfferSignatureCreator);
      prints KEY_ID NONCE TIMESTAMP_MS SIGNATURE
  sign_offer_with_apple_library.py --jws CATALOG BUNDLE_ID PRODUCT_ID OFFER_ID [TRANSACTION_ID]
      the offer signed as a JWS (PromotionalOfferV2SignatureCreator); prints the compact JWS
  sign_offer_with_apple_library.py --intro CATALOG BUNDLE_ID PRODUCT_ID allow|deny TRANSACTION_ID
      an introductory offer eligibility JWS (IntroductoryOfferEligibilitySignatureCreator); prints the compact JWS

A .storekit key pair has no App Store Connect issuer id: the JWS name Apple's documentation's example one.
"""
import json
import sys
import textwrap
import time
import uuid

from appstoreserverlibrary.jws_signature_creator import (IntroductoryOfferEligibilitySignatureCreator,
                                                         PromotionalOfferV2SignatureCreator)
from appstoreserverlibrary.promotional_offer import PromotionalOfferSignatureCreator

ISSUER_ID = "57246542-96fe-1a63-e053-0824d011072a"


def catalog_key(catalog):
    pair = json.load(open(catalog, encoding="utf-8"))["subscriptionOffersKeyPair"]
    pem = "-----BEGIN PRIVATE KEY-----\n" + "\n".join(textwrap.wrap(pair["privateKey"], 64)) + "\n-----END PRIVATE KEY-----\n"
    return pem.encode(), pair["id"]


def main():
    args = sys.argv[1:]
    mode = args.pop(0) if args and args[0] in ("--jws", "--intro") else None
    catalog, bundle_id, product_id = args[0:3]
    key, key_id = catalog_key(catalog)
    if mode == "--jws":
        offer_id = args[3]
        transaction_id = args[4] if len(args) > 4 else None
        print(PromotionalOfferV2SignatureCreator(key, key_id, ISSUER_ID, bundle_id).create_signature(product_id, offer_id, transaction_id))
    elif mode == "--intro":
        decision, transaction_id = args[3:5]
        if decision not in ("allow", "deny"):
            raise SystemExit("say allow or deny, not " + decision)
        creator = IntroductoryOfferEligibilitySignatureCreator(key, key_id, ISSUER_ID, bundle_id)
        print(creator.create_signature(product_id, decision == "allow", transaction_id))
    else:
        creator = PromotionalOfferSignatureCreator(key, key_id, bundle_id)
        nonce = uuid.uuid4()
        timestamp = int(time.time() * 1000)
        signature = creator.create_signature(product_id, args[3], "", nonce, timestamp)
        print(key_id, str(nonce), timestamp, signature)
    return 0


if __name__ == "__main__":
    sys.exit(main())
