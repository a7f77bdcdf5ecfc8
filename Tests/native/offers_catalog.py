"""Writes the example catalog with offer codes and win-back offers on its gold subscription, for
subscription_offers.c (the same offers as Tests/IOSiAPLocalStoreTests/SubscriptionOfferRulesTests.swift).
usage: offers_catalog.py EXAMPLE_CATALOG OUTPUT"""
import json
import sys

catalog = json.load(open(sys.argv[1]))
for group in catalog["subscriptionGroups"]:
    for subscription in group["subscriptions"]:
        if subscription["productID"] != "com.iosiap.example.club_gold_monthly":
            continue
        subscription["codeOffers"] = [
            {"referenceName": "gold_three_months_new", "eligibility": ["new"], "internalID": "C0DE0001",
             "isStackable": False, "paymentMode": "payUpFront", "displayPrice": "4.99", "subscriptionPeriod": "P3M",
             "numberOfPeriods": 1},
            {"referenceName": "gold_free_month_back", "eligibility": ["expired"], "internalID": "C0DE0002",
             "isStackable": True, "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1},
        ]
        subscription["winbackOffers"] = [
            {"offerID": "gold_half_price_back", "referenceName": "Half price back", "internalID": "B4CC0001",
             "paymentMode": "payAsYouGo", "displayPrice": "4.99", "subscriptionPeriod": "P1M", "numberOfPeriods": 2},
            {"offerID": "gold_for_the_loyal", "referenceName": "For the loyal", "internalID": "B4CC0002",
             "paymentMode": "free", "subscriptionPeriod": "P1M", "numberOfPeriods": 1,
             "customerEligibilityPaidSubscriptionDurationInMonths": 6},
        ]
json.dump(catalog, open(sys.argv[2], "w"), indent=2)
