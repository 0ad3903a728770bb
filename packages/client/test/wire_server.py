#!/usr/bin/env python3
"""An independent check of the client's wire format, using only Python's standard library.

Verifies every request as the service would: the body must be exactly
json.dumps(json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=True),
GET and DELETE must have no body and sign "{}", X-TIMESTAMP must be within 300 s, and
X-SIGNATURE must be Base64(HMAC-SHA256(secret, key|timestamp|canonical)). Answers with the
service's envelope: the request as understood on success, AUTH_INVALID_SIGNATURE otherwise.

Usage: wire_server.py API_KEY API_SECRET LIFETIME_SECONDS
Binds 127.0.0.1 on a free port, prints "listening PORT", and exits by itself after LIFETIME_SECONDS.
"""
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit

API_KEY, API_SECRET, LIFETIME = sys.argv[1], sys.argv[2], float(sys.argv[3])


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def answer(self, status, envelope):
        payload = json.dumps(envelope).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def refuse(self, reason):
        self.answer(401, {"status": False, "message": reason, "data": None,
                          "err_code": "AUTH_INVALID_SIGNATURE", "errors": {"signature": [reason]}})

    def verify(self):
        length = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(length) if length else b""
        if self.headers.get("X-API-KEY") != API_KEY:
            return self.refuse("wrong X-API-KEY")
        stamp = self.headers.get("X-TIMESTAMP") or ""
        if not stamp.isdigit() or abs(time.time() - int(stamp)) > 300:
            return self.refuse("stale or malformed X-TIMESTAMP")
        if self.command in ("GET", "DELETE"):
            if raw:
                return self.refuse("GET and DELETE must not carry a body")
            body, signed = None, "{}"
        else:
            if self.headers.get("Content-Type") != "application/json":
                return self.refuse("Content-Type must be application/json")
            try:
                text = raw.decode("ascii")
                body = json.loads(text)
            except (UnicodeDecodeError, ValueError):
                return self.refuse("body is not ASCII JSON")
            signed = canonical(body)
            if signed != text:
                return self.refuse("body is not canonical: expected " + signed)
        message = (API_KEY + "|" + stamp + "|" + signed).encode("utf-8")
        expected = base64.b64encode(hmac.new(API_SECRET.encode("utf-8"), message, hashlib.sha256).digest()).decode("ascii")
        if not hmac.compare_digest(expected, self.headers.get("X-SIGNATURE") or ""):
            return self.refuse("X-SIGNATURE does not match")
        url = urlsplit(self.path)
        self.answer(200, {"status": True, "message": "verified", "data": {
            "method": self.command, "path": url.path, "query": dict(parse_qsl(url.query)),
            "body": body, "signed": signed}})

    do_GET = do_POST = do_PATCH = do_PUT = do_DELETE = verify


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
# Exits by itself even if whoever started it never stops it.
threading.Timer(LIFETIME, server.shutdown).start()
print("listening", server.server_address[1], flush=True)
server.serve_forever()
