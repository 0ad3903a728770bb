"""Writes test/vectors.json: named inputs with their canonical body and
signature, computed the way the server does it (json, hmac, hashlib,
base64 from the Python standard library), so the table is a reference
independent of the TypeScript code.

Run: python3 test/make_vectors.py [output path, default test/vectors.json]
"""
import base64
import hashlib
import hmac
import json
import os
import sys

API_KEY = "ek_test_key"
API_SECRET = "ek_test_secret"
TIMESTAMP = 1700000000
MAX_SAFE = 2**53 - 1

# (name, JSON text as sent by a client, request method)
INPUTS = [
    ("empty body (GET)", "{}", "GET"),
    ("flat object, keys out of order", '{"fiat":"inr","asset":"usdt","network":"tron"}', "POST"),
    ("nested key sort at every level", '{"z":{"b":1,"a":{"d":[3,{"y":1,"x":2}],"c":null}},"a":true}', "POST"),
    ("Hindi (Devanagari) names", '{"first_name":"अनिल","last_name":"कुमार","city":"मुंबई"}', "POST"),
    ("emoji outside the BMP", '{"note":"paid 👍🏽 🚀","tag":"😀"}', "POST"),
    ("control characters and DEL", '{"s":"\\u0000\\u0001\\b\\t\\n\\u000b\\f\\r\\u001f\\u007f"}', "POST"),
    ("quotes, backslash and slash", '{"s":"He said \\"hi\\" \\\\ C:\\\\path/to"}', "POST"),
    ("line and paragraph separators", '{"s":"a\\u2028b\\u2029c"}', "POST"),
    ("floats in Python repr", '{"a":0.1,"b":1e16,"c":1e-7,"d":1.5e300,"e":123456789012345680000.0,"f":-2.5,"g":1e-5,"h":0.0001,"i":1e15,"j":5e-324}', "POST"),
    ("safe integer limits", '{"max":9007199254740991,"min":-9007199254740991,"zero":0}', "POST"),
    ("integers beyond 2^53 keep every digit", '{"big":123456789012345678901234567890,"neg":-9007199254740993}', "POST"),
    ("float literals 1.0, -0.0 and 1E5", '{"one":1.0,"neg_zero":-0.0,"exp":1E5,"tiny":1e-400,"huge":1E400}', "POST"),
    ("arrays keep their order", '[1,"two",[3,[4,{}]],null,true,false,[],{"b":2,"a":1}]', "POST"),
    ("unicode keys sort by code point", '{"\uff5e":"fullwidth tilde","😀":"grinning face","\ue000":"private use","z":"ascii","é":"latin"}', "POST"),
    ("lone surrogates", '{"s":"\\ud800 lone high, \\udc00 lone low","\\udbff":"key"}', "POST"),
    ("whitespace between tokens", ' {\n\t"b" : [ 1 , 2 ] ,\r\n "a" : "x" } ', "POST"),
    ("duplicate keys keep the last", '{"a":1,"b":2,"a":3}', "POST"),
    ("Python NaN and Infinity literals", '[NaN,Infinity,-Infinity]', "POST"),
    ("payout quotation", json.dumps({
        "asset": "usdt", "fiat": "inr", "network": "tron", "payment_method": "IMPS",
        "customer_id": "0b8f6a52-3c1e-4f7a-9d2b-5e6c7a8b9c0d",
        "bank_id": "7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
        "sending_amount": "100.50",
        "risk_parameters": {
            "ip_address": "203.0.113.7", "device_id": "dev-42",
            "suspicious_activity_report": False, "law_enforcement_agency_report": False,
        },
    }, ensure_ascii=False, indent=2), "POST"),
    ("remittance payout quotation with a Hindi remitter note", json.dumps({
        "asset": "usdc", "fiat": "inr", "network": "polygon", "payment_method": "UPI",
        "customer_id": "0b8f6a52-3c1e-4f7a-9d2b-5e6c7a8b9c0d",
        "bank_id": "7c1d2e3f-4a5b-6c7d-8e9f-0a1b2c3d4e5f",
        "remitter_id": "5f4e3d2c-1b0a-4f9e-8d7c-6b5a4f3e2d1c",
        "is_self_transfer": False, "receiving_amount": "8350.00",
        "risk_parameters": {"ip_address": "2001:db8::1", "note": "सुनीता शर्मा को भुगतान"},
    }, ensure_ascii=False), "POST"),
    ("webhook event", json.dumps({
        "type": "PAYOUT", "id": "9a8b7c6d-5e4f-4a3b-2c1d-0e9f8a7b6c5d", "event": "SUCCESS",
        "timestamp": "2024-03-01T10:15:30Z",
        "metadata": {"client_reference_id": "ref-001", "utr": "UTR123456789"},
    }), "POST"),
    ("top-level scalar", '"just a string"', "POST"),
    # MAX_NESTING_DEPTH: the deepest both canonicalize functions accept; Python reads it (it fails near 1000).
    ("nesting 512 levels deep, the limit", "[" * 256 + '{"k":' * 255 + '{"k":1}' + "}" * 255 + "]" * 256, "POST"),
]

MAX_NESTING_DEPTH = 512


def depth(value):
    """Containers nested one inside the other at the deepest point, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, (list, dict)):
            deepest = max(deepest, d)
            stack.extend((x, d + 1) for x in (v if isinstance(v, list) else v.values()))
    return deepest


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def same_after_json_parse(value):
    """Whether JSON.parse in JavaScript keeps what canonicalize needs: no int
    beyond 2^53 - 1 (JavaScript would round it) and no integral float below
    2^53 (JavaScript cannot tell 1.0 from 1), no NaN or Infinity. Iterative:
    the deepest vector nests 512 levels."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        elif isinstance(v, int):
            if abs(v) > MAX_SAFE:
                return False
        elif isinstance(v, float):
            if not (v == v and abs(v) != float("inf") and not (v.is_integer() and abs(v) < 2**53)):
                return False
    return True


def signature(body):
    message = "%s|%d|%s" % (API_KEY, TIMESTAMP, body)
    digest = hmac.new(API_SECRET.encode(), message.encode(), hashlib.sha256).digest()
    return base64.b64encode(digest).decode()


def main():
    vectors = []
    for name, text, method in INPUTS:
        value = json.loads(text)
        assert depth(value) <= MAX_NESTING_DEPTH, name
        body = canonical(value)
        vectors.append({
            "name": name,
            "method": method,
            "input": text,
            "canonical": body,
            "viaJsonParse": same_after_json_parse(value),
            "signature": signature(body),
        })
    table = {
        "apiKey": API_KEY,
        "apiSecret": API_SECRET,
        "timestamp": TIMESTAMP,
        "generatedBy": "test/make_vectors.py",
        "vectors": vectors,
    }
    default = os.path.join(os.path.dirname(os.path.abspath(__file__)), "vectors.json")
    path = sys.argv[1] if len(sys.argv) > 1 else default
    with open(path, "w", encoding="utf-8") as f:
        json.dump(table, f, ensure_ascii=False, indent=2)
        f.write("\n")


main()
