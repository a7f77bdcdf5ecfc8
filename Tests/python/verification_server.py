#!/usr/bin/env python3
"""A verification server for tests, on loopback only: prints "port N", then answers POSTs by path.

/valid        {"status": 0} with the transaction id echoed      /rejected   {"status": 21003}
/slow         answers after 3 s                                 /error500   HTTP 500
/hang         answers after 60 s (a server that holds the connection)
/malformed    a body that is not JSON                           /wrong      status 0 for another transaction
/production   {"status": 21007} (a sandbox receipt)             /sandbox    like /valid
/flaky        HTTP 500 the first time per transaction, then valid
/legacy       valid when the body is {"receipt-data": base64, "password": "secret"}, else 21004
/trickle      a valid answer sent a byte every 0.2 s, over 3 s     /huge       a valid answer 2 MiB long
/redirect     307 to /valid                                     /agent      HTTP 403 without a User-Agent, else valid
/whole        {"status": 0.0}                                   /half       {"status": 0.5}
/true         {"status": true}                                  /text       {"status": "0"}
It stops by itself after --lifetime seconds (default 120), and with --stop-on-stdin-eof when its
standard input closes (so that a test that started it stops it by going away). With --requests FILE it appends
"PATH TRANSACTION_ID" to FILE as each POST arrives, so that a test can count what reached it.
"""
import argparse
import base64
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

seen = {}
lock = threading.Lock()
requests_file = None


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, code, body):
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        transaction = request.get("transactionId", "")
        path = self.path
        if requests_file:
            with lock, open(requests_file, "a") as log:
                log.write(f"{path} {transaction}\n")
        if path in ("/valid", "/sandbox"):
            return self.answer(200, {"status": 0, "transactionId": transaction})
        if path == "/rejected":
            return self.answer(200, {"status": 21003})
        if path == "/slow":
            time.sleep(3)
            return self.answer(200, {"status": 0})
        if path == "/hang":
            time.sleep(60)
            try:
                return self.answer(200, {"status": 0, "transactionId": transaction})
            except (BrokenPipeError, ConnectionResetError):  # the client has long gone
                return None
        if path == "/error500":
            return self.answer(500, {"error": "down"})
        if path == "/malformed":
            return self.answer(200, b"<html>not json</html>")
        if path == "/wrong":
            return self.answer(200, {"status": 0, "transactionId": "999999"})
        if path == "/production":
            return self.answer(200, {"status": 21007})
        if path == "/flaky":
            with lock:
                first = transaction not in seen
                seen[transaction] = True
            return self.answer(500 if first else 200, {"status": 0})
        if path == "/trickle":
            data = json.dumps({"status": 0, "transactionId": transaction}).encode().ljust(15)
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            for byte in data:
                self.wfile.write(bytes([byte]))
                self.wfile.flush()
                time.sleep(0.2)
            return None
        if path == "/huge":
            return self.answer(200, json.dumps({"status": 0, "transactionId": transaction, "pad": "x" * (2 << 20)}).encode())
        if path == "/redirect":
            self.send_response(307)
            self.send_header("Location", "/valid")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        if path == "/agent":
            return self.answer(200 if self.headers.get("User-Agent") else 403, {"status": 0, "transactionId": transaction})
        if path == "/whole":
            return self.answer(200, b'{"status": 0.0}')
        if path == "/half":
            return self.answer(200, b'{"status": 0.5}')
        if path == "/true":
            return self.answer(200, b'{"status": true}')
        if path == "/text":
            return self.answer(200, b'{"status": "0"}')
        if path == "/legacy":
            receipt = request.get("receipt-data", "")
            ok = request.get("password") == "secret" and base64.b64decode(receipt).count(b".") == 2
            return self.answer(200, {"status": 0 if ok else 21004})
        return self.answer(404, {"error": "unknown path"})


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--lifetime", type=float, default=120)
    parser.add_argument("--stop-on-stdin-eof", action="store_true")
    parser.add_argument("--requests")
    args = parser.parse_args()
    global requests_file
    requests_file = args.requests
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"port {server.server_address[1]}", flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    deadline = time.time() + args.lifetime
    stdin_closed = threading.Event()
    if args.stop_on_stdin_eof:
        threading.Thread(target=lambda: (sys.stdin.read(), stdin_closed.set()), daemon=True).start()
    while time.time() < deadline and not stdin_closed.is_set():
        time.sleep(0.1)
    server.shutdown()


if __name__ == "__main__":
    main()
