#!/usr/bin/env python3
"""Apple's official app-store-server-library (PyPI) as the client of `iosiap-store serve`: a backend's view of
the local App Store. Purchases are made with the transaction manager; the test registers a key of its own,
points Apple's AppStoreServerAPIClient at the local server, reads transaction info, history (v2, paged and
filtered), subscription statuses and refunds, extends the subscription (one, and every subscriber of a product,
under Apple's rules, with the RENEWAL_EXTENSION summaries), sends consumption information (v2 and v1, refused as Apple
refuses what it documents as invalid), reads the App Transaction and asks for a TEST notification, which a loopback
endpoint receives; Apple's SignedDataVerifier, trusting the store's root, decodes every signed field and the
notification. Unknown ids get Apple's errors; every refused bearer token gets the same 401, naming no key; a request
naming another host is refused. Then, on a state directory of its own at a fast time rate, a subscription bought and
left alone while only serve runs renews on time: DID_RENEW is sent and Get All Subscription Statuses shows it active.
The docs' Python samples run against the same serve.

usage: server_api_with_apple_library.py IOSIAP_STORE CATALOG WORK_DIRECTORY
"""
import json
import os
import socket
import subprocess
import sys
import threading
import time
import uuid
import warnings
from http.server import BaseHTTPRequestHandler, HTTPServer
from urllib.parse import urlparse

import requests

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from appstoreserverlibrary.api_client import APIError, APIException, AppStoreServerAPIClient, GetTransactionHistoryVersion
from appstoreserverlibrary.models.AccountTenure import AccountTenure
from appstoreserverlibrary.models.ConsumptionRequest import ConsumptionRequest
from appstoreserverlibrary.models.ConsumptionRequestV1 import ConsumptionRequestV1
from appstoreserverlibrary.models.ConsumptionStatus import ConsumptionStatus
from appstoreserverlibrary.models.DeliveryStatus import DeliveryStatus
from appstoreserverlibrary.models.DeliveryStatusV1 import DeliveryStatusV1
from appstoreserverlibrary.models.LifetimeDollarsPurchased import LifetimeDollarsPurchased
from appstoreserverlibrary.models.LifetimeDollarsRefunded import LifetimeDollarsRefunded
from appstoreserverlibrary.models.Platform import Platform
from appstoreserverlibrary.models.PlayTime import PlayTime
from appstoreserverlibrary.models.RefundPreference import RefundPreference
from appstoreserverlibrary.models.UserStatus import UserStatus
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.models.ExtendReasonCode import ExtendReasonCode
from appstoreserverlibrary.models.ExtendRenewalDateRequest import ExtendRenewalDateRequest
from appstoreserverlibrary.models.MassExtendRenewalDateRequest import MassExtendRenewalDateRequest
from appstoreserverlibrary.models.NotificationHistoryRequest import NotificationHistoryRequest
from appstoreserverlibrary.models.OrderLookupStatus import OrderLookupStatus
from appstoreserverlibrary.models.NotificationTypeV2 import NotificationTypeV2
from appstoreserverlibrary.models.SendAttemptResult import SendAttemptResult
from appstoreserverlibrary.models.Status import Status
from appstoreserverlibrary.models.Subtype import Subtype
from appstoreserverlibrary.models.TransactionHistoryRequest import Order, ProductType, TransactionHistoryRequest
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier

BUNDLE_ID = "com.example.game"  # what the transaction manager signs with when no game named another
PREFIX = "com.iosiap.example."
KEY_ID, ISSUER_ID = "TESTKEY123", "57246542-96fe-1a63-e053-0824d011072a"


def main():
    tool, catalog, work = sys.argv[1:4]
    state = os.path.join(work, "state-server-api")

    def store(*arguments):
        return subprocess.run([tool, "--state", state, "--catalog", catalog, *arguments],
                              check=True, capture_output=True, text=True).stdout

    def new_key():
        return ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())

    # 21 consumables (a history longer than Apple's page of 20), a subscription, a refund.
    for _ in range(21):
        store("buy", PREFIX + "coins_100")
    store("buy", PREFIX + "club_gold_monthly")
    store("refund", "2")
    subscription_id = "22"

    # The backend's key, as App Store Connect hands it out (.p8, PKCS#8); the server keeps its public half.
    signing_key = new_key()
    key_file = os.path.join(work, "server-api-key.p8")
    with open(key_file, "wb") as file:
        file.write(signing_key)
    store("server-key", "add", KEY_ID, ISSUER_ID, key_file)

    # The backend's notification endpoint: a loopback HTTP server that keeps what it is sent.
    receiver, received = notification_endpoint()
    store("notifications", "url", f"http://127.0.0.1:{receiver.server_address[1]}/notifications")

    # serve runs with a developer's proxy settings, naming a proxy that does not exist: the notifications still
    # reach the endpoint on this machine directly.
    dead_proxy = "http://127.0.0.1:9"
    serve_environment = dict(os.environ, http_proxy=dead_proxy, HTTP_PROXY=dead_proxy, https_proxy=dead_proxy,
                             all_proxy=dead_proxy, ALL_PROXY=dead_proxy)
    server = subprocess.Popen([tool, "--state", state, "--catalog", catalog, "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True, env=serve_environment)
    try:
        url = server.stdout.readline().split(" on ")[-1].strip()
        assert url.startswith("http://127.0.0.1:"), f"serve printed no URL: {url!r}"
        run_checks(url, signing_key, new_key(), state, store, subscription_id, received)
        docs_python_samples(url, key_file, state)
        bad_clients(url)
        # Still serving after all that.
        client_for(url, signing_key).get_transaction_info("1")
        assert server.poll() is None, "the server stopped"
        print("bad clients (garbage, huge headers and bodies, a silent connection) got errors; the server kept serving")
        # A change made while serve is down is recorded in the state directory and sent when it serves again.
        server.terminate()
        server.wait(timeout=10)
        before = len(received)
        store("buy", PREFIX + "coins_100")
        server = subprocess.Popen([tool, "--state", state, "--catalog", catalog, "serve", "--port", "0"],
                                  stdout=subprocess.PIPE, text=True, env=serve_environment)
        url = server.stdout.readline().split(" on ")[-1].strip()
        sent_while_down(url, signing_key, state, received, before)
    finally:
        receiver.shutdown()
        server.terminate()
        server.wait(timeout=10)
    renews_while_only_serve_runs(tool, catalog, work, key_file, signing_key, serve_environment)


def notification_endpoint():
    """A loopback HTTP server that keeps the JSON bodies it is POSTed, and the list it keeps them in."""
    received = []

    class Receiver(BaseHTTPRequestHandler):
        def do_POST(self):
            received.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    receiver = HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=receiver.serve_forever, daemon=True).start()
    return receiver, received


def eventually(condition, seconds=30):
    """Polls `condition` every 0.1 s for at most `seconds`; whether it came true."""
    for _ in range(int(seconds * 10)):
        if condition():
            return True
        time.sleep(0.1)
    return condition()


def renews_while_only_serve_runs(tool, catalog, work, key_file, signing_key, serve_environment):
    """A state directory of its own at a fast time rate: a subscription bought, then left alone while only serve
    runs (no game, no control), renews on time, is notified (DID_RENEW) and reads active with its renewal."""
    state = os.path.join(work, "state-server-api-clock")

    def store(*arguments):
        return subprocess.run([tool, "--state", state, "--catalog", catalog, *arguments],
                              check=True, capture_output=True, text=True).stdout

    store("server-key", "add", KEY_ID, ISSUER_ID, key_file)
    receiver, received = notification_endpoint()
    store("notifications", "url", f"http://127.0.0.1:{receiver.server_address[1]}/notifications")
    store("time-rate", "oneRenewalEveryTwoSeconds")
    store("buy", PREFIX + "club_gold_monthly")
    server = subprocess.Popen([tool, "--state", state, "--catalog", catalog, "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True, env=serve_environment)
    try:
        url = server.stdout.readline().split(" on ")[-1].strip()
        root = open(os.path.join(state, "signing", "root.der"), "rb").read()
        verifier = SignedDataVerifier([root], False, Environment.SANDBOX, BUNDLE_ID, None)

        def types():
            return [verifier.verify_and_decode_notification(body["signedPayload"]).rawNotificationType for body in list(received)]

        assert eventually(lambda: "DID_RENEW" in types()), types()
        assert types()[0] == "SUBSCRIBED", types()
        client = client_for(url, signing_key)

        def renewed():
            last = client.get_all_subscription_statuses("1").data[0].lastTransactions[0]
            transaction = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo)
            return last.status == Status.ACTIVE and transaction.originalTransactionId == "1" and transaction.transactionId != "1"

        assert eventually(renewed), client.get_all_subscription_statuses("1")
        print("a subscription left alone while only serve ran renewed on time: DID_RENEW sent, its status active")
    finally:
        receiver.shutdown()
        server.terminate()
        server.wait(timeout=10)


def sent_while_down(url, signing_key, state, received, before):
    for _ in range(100):
        if len(received) > before:
            break
        time.sleep(0.1)
    time.sleep(0.5)  # nothing more may come
    root = open(os.path.join(state, "signing", "root.der"), "rb").read()
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, BUNDLE_ID, None)
    assert len(received) == before + 1, received[before:]
    notification = verifier.verify_and_decode_notification(received[before]["signedPayload"])
    transaction = verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
    assert notification.notificationType == NotificationTypeV2.ONE_TIME_CHARGE, notification
    assert transaction.productId == PREFIX + "coins_100", transaction
    # The history outlives serve: what the first run sent is there, with its attempts, beside the new one.
    now = int(time.time() * 1000)
    history = client_for(url, signing_key).get_notification_history(
        None, NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 60_000))
    assert len(history.notificationHistory) == len(received), (len(history.notificationHistory), len(received))
    assert all(item.sendAttempts[-1].sendAttemptResult == SendAttemptResult.SUCCESS for item in history.notificationHistory)
    print("a purchase made while serve was down was notified when it served again; the history outlived serve")


def docs_python_samples(url, key_file, state):
    """Runs each Python sample of the docs (```python blocks of README.md and docs/*.md) as a backend would, against
    this serve and its state directory. Only the places a sample leaves to the reader are filled in (the address,
    the state directory, the key file, its ids); the names it uses from Apple's library are imported for it. A
    sample that raises fails the test; one that reads a history must have verified the store's transactions."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs"))
    from doc_samples import samples
    filled_in = [('"http://127.0.0.1:8080"', repr(url)), ('"/tmp/iosiap-state/', json.dumps(state + "/")[:-1]),
                 ('"key.p8"', repr(key_file)), ('"KEY_ID"', repr(KEY_ID)), ('"ISSUER_ID"', repr(ISSUER_ID))]
    count = 0
    for name, body in samples("python"):
        count += 1
        for placeholder, value in filled_in:
            body = body.replace(placeholder, value)
        names = {"AppStoreServerAPIClient": AppStoreServerAPIClient, "Environment": Environment,
                 "SignedDataVerifier": SignedDataVerifier, "TransactionHistoryRequest": TransactionHistoryRequest,
                 "GetTransactionHistoryVersion": GetTransactionHistoryVersion}
        try:
            exec(compile(body, name, "exec"), names)
        except Exception as error:
            raise AssertionError(f"the Python sample {name} failed: {error!r}") from error
        if "transactions" in names:
            ids = [transaction.transactionId for transaction in names["transactions"]]
            assert "2" in ids and all(id.isdigit() for id in ids), f"the Python sample {name} read the history {ids}"
    assert count > 0, "no Python sample found in the docs"
    print(f"docs: {count} Python samples ran against serve with Apple's library")


def client_for(url, key):
    client = AppStoreServerAPIClient(key, KEY_ID, ISSUER_ID, BUNDLE_ID, Environment.SANDBOX)
    client._base_url = url  # the library keeps its base URL here; a backend's tests set it the same way
    return client


def api_error(call):
    try:
        call()
    except APIException as error:
        return error
    raise AssertionError("expected an APIException")


def run_checks(url, signing_key, stranger_key, state, store, subscription_id, received):
    client = client_for(url, signing_key)
    root = open(os.path.join(state, "signing", "root.der"), "rb").read()
    verifier = SignedDataVerifier([root], False, Environment.SANDBOX, BUNDLE_ID, None)
    checks = 0

    # Get Transaction Info
    info = client.get_transaction_info("1")
    transaction = verifier.verify_and_decode_signed_transaction(info.signedTransactionInfo)
    assert transaction.transactionId == "1" and transaction.productId == PREFIX + "coins_100", transaction
    checks += 1

    # Get Transaction History v2: two pages by revision, every transaction once, then filters and sort.
    request = TransactionHistoryRequest(sort=Order.ASCENDING)
    first = client.get_transaction_history("1", None, request, GetTransactionHistoryVersion.V2)
    assert first.hasMore and len(first.signedTransactions) == 20 and first.bundleId == BUNDLE_ID, first
    assert first.environment == Environment.SANDBOX, first.rawEnvironment
    second = client.get_transaction_history("1", first.revision, request, GetTransactionHistoryVersion.V2)
    assert not second.hasMore and len(second.signedTransactions) == 2, second
    ids = [verifier.verify_and_decode_signed_transaction(jws).transactionId for jws in first.signedTransactions + second.signedTransactions]
    assert sorted(ids, key=int) == [str(n) for n in range(1, 23)] and ids[-1] == "2", ids  # the refund changed 2 last
    subscriptions = client.get_transaction_history("1", None, TransactionHistoryRequest(
        productTypes=[ProductType.AUTO_RENEWABLE], sort=Order.DESCENDING), GetTransactionHistoryVersion.V2)
    assert [verifier.verify_and_decode_signed_transaction(jws).transactionId for jws in subscriptions.signedTransactions] == [subscription_id]
    revoked = client.get_transaction_history("5", None, TransactionHistoryRequest(revoked=True), GetTransactionHistoryVersion.V2)
    decoded = [verifier.verify_and_decode_signed_transaction(jws) for jws in revoked.signedTransactions]
    assert [t.transactionId for t in decoded] == ["2"] and decoded[0].revocationDate is not None, decoded
    checks += 4

    # Get All Subscription Statuses
    statuses = client.get_all_subscription_statuses("1")
    assert statuses.bundleId == BUNDLE_ID and len(statuses.data) == 1, statuses
    last = statuses.data[0].lastTransactions[0]
    assert last.status == Status.ACTIVE and last.originalTransactionId == subscription_id, last
    renewal = verifier.verify_and_decode_renewal_info(last.signedRenewalInfo)
    assert renewal.productId == PREFIX + "club_gold_monthly" and renewal.originalTransactionId == subscription_id, renewal
    assert verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).transactionId == subscription_id
    assert client.get_all_subscription_statuses("1", [Status.EXPIRED]).data == []
    checks += 2


    # Get Refund History
    refunds = client.get_refund_history("1", None)
    assert not refunds.hasMore and [verifier.verify_and_decode_signed_transaction(j).transactionId for j in refunds.signedTransactions] == ["2"]
    checks += 1

    # Send Consumption Information, checked as Apple documents it: a consented body is accepted; customerConsented
    # other than true is Apple's 400 (4000035), a field out of its values its own code, a consumption percentage for
    # an auto-renewable subscription 4000209. Version 1 (deprecated, every field required) likewise.
    client.send_consumption_information("1", ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED))
    client.send_consumption_information("1", ConsumptionRequest(
        customerConsented=True, sampleContentProvided=True, deliveryStatus=DeliveryStatus.DELIVERED, consumptionPercentage=25_000,
        refundPreference=RefundPreference.GRANT_PRORATED))
    error = api_error(lambda: client.send_consumption_information("1", ConsumptionRequest(
        customerConsented=False, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED)))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_CUSTOMER_CONSENTED, error
    error = api_error(lambda: client.send_consumption_information("1", ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, rawDeliveryStatus="LOST")))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_DELIVERY_STATUS, error
    error = api_error(lambda: client.send_consumption_information(subscription_id, ConsumptionRequest(
        customerConsented=True, sampleContentProvided=False, deliveryStatus=DeliveryStatus.DELIVERED, consumptionPercentage=10_000)))
    assert error.http_status_code == 400 and error.raw_api_error == 4000209, error

    def v1(**changes):
        fields = dict(customerConsented=True, consumptionStatus=ConsumptionStatus.PARTIALLY_CONSUMED, platform=Platform.APPLE,
                      sampleContentProvided=False, deliveryStatus=DeliveryStatusV1.DELIVERED_AND_WORKING_PROPERLY,
                      appAccountToken="", accountTenure=AccountTenure.UNDECLARED, playTime=PlayTime.ONE_TO_SIX_HOURS,
                      lifetimeDollarsRefunded=LifetimeDollarsRefunded.ZERO_DOLLARS,
                      lifetimeDollarsPurchased=LifetimeDollarsPurchased.UNDECLARED, userStatus=UserStatus.ACTIVE)
        fields.update(changes)
        return ConsumptionRequestV1(**fields)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # send_consumption_data: Apple's deprecated version 1
        client.send_consumption_data("1", v1())
        client.send_consumption_data(subscription_id, v1(appAccountToken=str(uuid.uuid4())))
        for changes, code in [(dict(customerConsented=False), APIError.INVALID_CUSTOMER_CONSENTED),
                              (dict(playTime=None, rawPlayTime=8), APIError.INVALID_PLAY_TIME),
                              (dict(userStatus=None), APIError.INVALID_USER_STATUS),
                              (dict(appAccountToken="not-a-uuid"), APIError.INVALID_APP_ACCOUNT_TOKEN)]:
            error = api_error(lambda: client.send_consumption_data("1", v1(**changes)))
            assert error.http_status_code == 400 and error.api_error == code, (changes, error)
    checks += 4

    # Get App Transaction Info: the App Transaction the store signs (`iosiap-store app-transaction`), for any
    # transactionId, originalTransactionId or appTransactionId of the customer; another id is Apple's 404.
    signed = json.loads(store("--json", "app-transaction"))
    app_transaction_id = {row["field"]: row["value"] for row in signed}["appTransactionId"]
    for any_id in ["1", subscription_id, app_transaction_id]:
        app = verifier.verify_and_decode_app_transaction(client.get_app_transaction_info(any_id).signedAppTransactionInfo)
        assert app.appTransactionId == app_transaction_id and app.bundleId == BUNDLE_ID, (any_id, app)
    error = api_error(lambda: client.get_app_transaction_info("999"))
    assert error.http_status_code == 404 and error.api_error == APIError.TRANSACTION_ID_NOT_FOUND, error
    order = client.look_up_order_id("MK5TTTVWJH")  # the local store issues no order ids: invalid
    assert order.status == OrderLookupStatus.INVALID and order.signedTransactions == [], order
    checks += 3

    # Request a Test Notification: the endpoint receives it signed by the store's chain; its status says so.
    token = client.request_test_notification().testNotificationToken
    for _ in range(50):
        if received:
            break
        time.sleep(0.1)
    assert len(received) == 1, received
    notification = verifier.verify_and_decode_notification(received[0]["signedPayload"])
    assert notification.notificationType == NotificationTypeV2.TEST and notification.data.bundleId == BUNDLE_ID, notification
    for _ in range(50):  # the attempt is recorded once the endpoint has answered
        status = client.get_test_notification_status(token)
        if status.sendAttempts:
            break
        time.sleep(0.1)
    assert status.signedPayload == received[0]["signedPayload"], status
    assert [a.sendAttemptResult for a in status.sendAttempts] == [SendAttemptResult.SUCCESS], status.sendAttempts
    error = api_error(lambda: client.get_test_notification_status("0d7bb0a4-4ea8-4b6c-a2e5-4f1f4a6f8c11_1700000000000"))
    assert error.http_status_code == 404 and error.api_error == APIError.TEST_NOTIFICATION_NOT_FOUND, error
    error = api_error(lambda: client.get_test_notification_status("unknown"))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_TEST_NOTIFICATION_TOKEN, error
    checks += 3

    # What happens while the server runs is read at each request and notified (Server Notifications V2),
    # each notification signed by the store's chain and decoded by Apple's verifier.
    before = len(received)
    def wait_for_notifications(count):
        for _ in range(100):
            if len(received) - before >= count:
                return
            time.sleep(0.1)
        raise AssertionError(f"expected {count} notifications, got {received[before:]}")

    # Extend a Subscription Renewal Date, under Apple's rules. The subscription is in its free trial, which
    # cannot be extended (4030004); once renewed (a paid month) it can, twice a year: the status then shows
    # the later end and RENEWAL_EXTENDED is notified; a repeated request identifier answers the first result
    # without extending again; a third extension gets 4030005. Apple's codes for a value out of range and for
    # what is no subscription.
    request = ExtendRenewalDateRequest(extendByDays=7, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION,
                                       requestIdentifier="7d3c2a4e-extend")
    error = api_error(lambda: client.extend_subscription_renewal_date(subscription_id, request))
    assert error.http_status_code == 403 and error.api_error == APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE, error
    store("renew", PREFIX + "club_gold_monthly")
    wait_for_notifications(1)  # DID_RENEW
    last = client.get_all_subscription_statuses("1").data[0].lastTransactions[0]
    renewal_id = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).transactionId
    old_end = verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).expiresDate
    extended = client.extend_subscription_renewal_date(subscription_id, request)
    assert extended.success and extended.originalTransactionId == subscription_id, extended
    assert extended.webOrderLineItemId == renewal_id and extended.effectiveDate == old_end + 7 * 86_400_000, (extended, old_end)
    wait_for_notifications(2)  # RENEWAL_EXTENDED
    again = client.extend_subscription_renewal_date(subscription_id, ExtendRenewalDateRequest(
        extendByDays=30, extendReasonCode=ExtendReasonCode.CUSTOMER_SATISFACTION, requestIdentifier="7d3c2a4e-extend"))
    assert again.effectiveDate == extended.effectiveDate, again
    last = client.get_all_subscription_statuses("1").data[0].lastTransactions[0]
    assert verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).expiresDate == extended.effectiveDate
    error = api_error(lambda: client.extend_subscription_renewal_date(subscription_id, ExtendRenewalDateRequest(
        extendByDays=91, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="too-many-days")))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_EXTEND_BY_DAYS, error
    error = api_error(lambda: client.extend_subscription_renewal_date("1", ExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="not-a-subscription")))
    assert error.http_status_code == 403 and error.api_error == APIError.SUBSCRIPTION_EXTENSION_INELIGIBLE, error
    checks += 4

    # Extend Subscription Renewal Dates for All Active Subscribers (the second extension of the year), done at
    # once: its status is complete with the counts; a storefront filter that leaves the subscriber out extends
    # nothing. Each completed request is notified as RENEWAL_EXTENSION (SUMMARY), whose summary (in place of
    # data) has the counts the status gave. Then a third extension of the subscription is refused.
    gold = PREFIX + "club_gold_monthly"
    elsewhere, everywhere = str(uuid.uuid4()), str(uuid.uuid4())
    answer = client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=elsewhere,
        storefrontCountryCodes=["CAN", "GBR"], productId=gold))
    assert answer.requestIdentifier == elsewhere, answer
    status = client.get_status_of_subscription_renewal_date_extensions(elsewhere, gold)
    assert status.complete and status.succeededCount == 0 and status.failedCount == 0, status
    statuses = {elsewhere: (status, ["CAN", "GBR"])}
    client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.SERVICE_ISSUE_OR_OUTAGE, requestIdentifier=everywhere, productId=gold))
    status = client.get_status_of_subscription_renewal_date_extensions(everywhere, gold)
    assert status.requestIdentifier == everywhere and status.complete, status
    assert status.succeededCount == 1 and status.failedCount == 0 and abs(status.completeDate - time.time() * 1000) < 60_000, status
    statuses[everywhere] = (status, None)
    last = client.get_all_subscription_statuses("1").data[0].lastTransactions[0]
    assert verifier.verify_and_decode_signed_transaction(last.signedTransactionInfo).expiresDate == extended.effectiveDate + 3 * 86_400_000
    wait_for_notifications(5)  # RENEWAL_EXTENDED, two RENEWAL_EXTENSION (SUMMARY)
    summaries = [n for n in (verifier.verify_and_decode_notification(body["signedPayload"]) for body in received[before:])
                 if n.notificationType == NotificationTypeV2.RENEWAL_EXTENSION]
    assert sorted(n.summary.requestIdentifier for n in summaries) == sorted(statuses), summaries
    for notification in summaries:
        summary = notification.summary
        status, storefronts = statuses[summary.requestIdentifier]
        assert notification.subtype == Subtype.SUMMARY and notification.data is None and notification.version == "2.0", notification
        assert summary.productId == gold and summary.bundleId == BUNDLE_ID and summary.environment == Environment.SANDBOX, summary
        assert summary.storefrontCountryCodes == storefronts, summary
        assert (summary.succeededCount, summary.failedCount) == (status.succeededCount, status.failedCount), (summary, status)
    error = api_error(lambda: client.extend_subscription_renewal_date(subscription_id, ExtendRenewalDateRequest(
        extendByDays=1, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier="a-third-one")))
    assert error.http_status_code == 403 and error.api_error == APIError.SUBSCRIPTION_MAX_EXTENSION, error
    error = api_error(lambda: client.get_status_of_subscription_renewal_date_extensions(str(uuid.uuid4()), gold))
    assert error.http_status_code == 404 and error.api_error == APIError.STATUS_REQUEST_NOT_FOUND, error
    error = api_error(lambda: client.extend_renewal_date_for_all_active_subscribers(MassExtendRenewalDateRequest(
        extendByDays=3, extendReasonCode=ExtendReasonCode.OTHER, requestIdentifier=str(uuid.uuid4()), productId=gold,
        storefrontCountryCodes=[])))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_EMPTY_STOREFRONT_COUNTRY_CODE_LIST, error
    checks += 4

    store("buy", PREFIX + "pro_upgrade")
    bought = verifier.verify_and_decode_signed_transaction(client.get_transaction_info("24").signedTransactionInfo)
    assert bought.productId == PREFIX + "pro_upgrade", bought
    store("renew", PREFIX + "club_gold_monthly")
    store("auto-renew", PREFIX + "club_gold_monthly", "off")
    store("refund", "1")
    store("expire", PREFIX + "club_gold_monthly")
    expected = sorted([("DID_RENEW", "", renewal_id), ("RENEWAL_EXTENDED", "", renewal_id), ("RENEWAL_EXTENDED", "", renewal_id),
                       ("RENEWAL_EXTENSION", "SUMMARY", elsewhere), ("RENEWAL_EXTENSION", "SUMMARY", everywhere),
                       ("ONE_TIME_CHARGE", "", "24"), ("DID_RENEW", "", "25"), ("DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_DISABLED", "25"),
                       ("REFUND", "", "1"), ("EXPIRED", "VOLUNTARY", "25")])
    for _ in range(100):
        if len(received) - before >= len(expected):
            break
        time.sleep(0.1)
    time.sleep(0.5)  # nothing more may come
    notified = []
    for body in received[before:]:
        notification = verifier.verify_and_decode_notification(body["signedPayload"])
        if notification.summary:  # checked above
            notified.append((notification.rawNotificationType, notification.rawSubtype, notification.summary.requestIdentifier))
            continue
        transaction = verifier.verify_and_decode_signed_transaction(notification.data.signedTransactionInfo)
        assert notification.data.bundleId == BUNDLE_ID and notification.version == "2.0", notification
        if notification.notificationType == NotificationTypeV2.REFUND:
            assert transaction.revocationDate is not None, transaction
        notified.append((notification.rawNotificationType, notification.rawSubtype or "", transaction.transactionId))
    assert sorted(notified) == expected, notified
    checks += 2

    # Get Notification History: everything sent, TEST included, each with its attempts; filtered by type.
    now = int(time.time() * 1000)
    history = client.get_notification_history(None, NotificationHistoryRequest(startDate=now - 3_600_000, endDate=now + 60_000))
    assert not history.hasMore and len(history.notificationHistory) == len(received), (len(history.notificationHistory), len(received))
    assert all(item.sendAttempts and item.sendAttempts[-1].sendAttemptResult == SendAttemptResult.SUCCESS for item in history.notificationHistory)
    refunds = client.get_notification_history(None, NotificationHistoryRequest(
        startDate=now - 3_600_000, endDate=now + 60_000, notificationType=NotificationTypeV2.REFUND)).notificationHistory
    assert [verifier.verify_and_decode_notification(item.signedPayload).notificationType for item in refunds] == [NotificationTypeV2.REFUND]
    error = api_error(lambda: client.get_notification_history(None, NotificationHistoryRequest(startDate=now, endDate=now - 1)))
    assert error.http_status_code == 400 and error.api_error == APIError.START_DATE_AFTER_END_DATE, error
    checks += 3

    # Apple's errors: an unknown id, a malformed one, and a key the state directory does not know.
    error = api_error(lambda: client.get_transaction_info("999"))
    assert error.http_status_code == 404 and error.api_error == APIError.TRANSACTION_ID_NOT_FOUND, error
    assert error.error_message == "Transaction id not found.", error.error_message
    error = api_error(lambda: client.get_transaction_info("not-a-number"))
    assert error.http_status_code == 400 and error.api_error == APIError.INVALID_TRANSACTION_ID, error
    error = api_error(lambda: client_for(url, stranger_key).get_transaction_info("1"))
    assert error.http_status_code == 401, error
    checks += 3

    # Every refused bearer token gets the same answer, which names no key: a key id the state directory does not
    # have, the one it has with another key's signature, none.
    answers = set()
    for key, key_id in [(signing_key, "NO-SUCH-KEY"), (stranger_key, KEY_ID), (None, None)]:
        headers = {}
        if key:
            refused = AppStoreServerAPIClient(key, key_id, ISSUER_ID, BUNDLE_ID, Environment.SANDBOX)
            headers["Authorization"] = "Bearer " + refused._generate_token()
        answer = requests.get(url + "/inApps/v1/transactions/1", headers=headers, timeout=10)
        answers.add((answer.status_code, answer.headers.get("Content-Type"), answer.text))
    assert len(answers) == 1 and next(iter(answers))[0] == 401, answers
    assert KEY_ID not in next(iter(answers))[2], answers
    # A request naming another host (DNS rebinding) is refused before its token is looked at, on the Server API's
    # paths as on the page's.
    authorization = {"Authorization": "Bearer " + client._generate_token()}
    assert requests.get(url + "/inApps/v1/transactions/1", headers=authorization, timeout=10).status_code == 200
    for path in ["/inApps/v1/transactions/1", "/inApps/v1/subscriptions/1", "/"]:
        answer = requests.get(url + path, headers=dict(authorization, Host="evil.example"), timeout=10)
        assert answer.status_code == 421, (path, answer.status_code, answer.text)
    checks += 2
    print(f"apple library client: {checks} checks against iosiap-store serve passed")


def bad_clients(url):
    """Garbage, oversized requests and a client that sends nothing: each gets an error or is dropped (by
    libmicrohttpd's limits, set in Sources/CMicroHTTPD/shim.h), and none stops the server or holds it."""
    address = urlparse(url)

    def exchange(data):
        with socket.create_connection((address.hostname, address.port), timeout=5) as connection:
            connection.settimeout(1)  # garbage that is no request line may get no answer: it is dropped later
            try:
                connection.sendall(data)
                return connection.recv(2000)
            except (ConnectionResetError, BrokenPipeError, TimeoutError):
                return b""

    silent = socket.create_connection((address.hostname, address.port), timeout=5)  # holds a connection, says nothing
    for data, status in [(b"GET / HTTP/9.9\r\n\r\n", b"505"), (b"GET /" + b"a" * 100_000 + b" HTTP/1.1\r\n\r\n", b"414"),
                         (b"GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + b"b" * 100_000 + b"\r\n\r\n", b"431"),
                         (b"PUT /inApps/v1/transactions/1 HTTP/1.1\r\nHost: x\r\nContent-Length: 200000\r\n\r\n" + b"c" * 200_000, b"413"),
                         (b"POST /api/control/clear HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 200000\r\n\r\n" + b"c" * 200_000, b"413"),
                         (b"\x00\xff garbage\r\n\r\n", b"")]:
        answer = exchange(data)
        assert answer == b"" if not status else answer.startswith(b"HTTP/1.1 " + status), (data[:40], answer)
        if status == b"413":  # the server's own answer carries the same protective headers as the handler's
            assert b"X-Content-Type-Options: nosniff" in answer and b"frame-ancestors 'none'" in answer, answer
    silent.close()


if __name__ == "__main__":
    main()
