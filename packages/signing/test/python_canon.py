"""Reference canonicalizer for the property tests: the server's own rule.

Usage: python3 python_canon.py value|text < lines

value: each line is JSON text of a value; prints the canonical body.
text:  each line is a JSON string holding JSON text; prints "ok <canonical>",
       "err <offset in UTF-16 units> <message>" for a JSONDecodeError,
       or "exc <exception type>" for any other failure.
Lines are split on "\n" only, so U+2028 and friends inside a line are safe.
"""
import json
import sys

sys.setrecursionlimit(20000)


def canonical(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def utf16_offset(text, pos):
    return len(text[:pos].encode("utf-16-le", "surrogatepass")) // 2


def main():
    mode = sys.argv[1]
    data = sys.stdin.buffer.read().decode("utf-8")
    lines = data.split("\n") if data else []
    out = []
    for line in lines:
        if mode == "value":
            out.append(canonical(json.loads(line)))
            continue
        text = json.loads(line)
        try:
            out.append("ok " + canonical(json.loads(text)))
        except json.JSONDecodeError as e:
            out.append("err %d %s" % (utf16_offset(text, e.pos), e.msg))
        except Exception as e:  # RecursionError, ValueError for >4300-digit ints
            out.append("exc " + type(e).__name__)
    sys.stdout.write("\n".join(out))


main()
