// The proxy's decisions, each as a table: which headers pass, how a body is decoded for the check, where a request
// goes on the target, and how a violation is printed.
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { collector, decodeBody } from "../src/commands/proxy/body-bytes.js";
import { upstreamPath } from "../src/commands/proxy/forward.js";
import { forwardedHeaders, isForwarded } from "../src/commands/proxy/headers.js";
import { recordOf, violationLine } from "../src/commands/proxy/violations.js";

describe("headers passed on", () => {
  it.each([
    ["X-SIGNATURE", true],
    ["Content-Length", true],
    ["Content-Encoding", true],
    ["Connection", false],
    ["Keep-Alive", false],
    ["Transfer-Encoding", false],
    ["Upgrade", false],
    ["Proxy-Authorization", false],
    ["TE", false],
    ["Host", false],
  ])("%s passes: %s", (name, passes) => {
    expect(isForwarded(name)).toBe(passes);
  });

  it("keeps names, order, case and duplicates, drops what Connection names, and puts the target's Host first", () => {
    const raw = [
      "Host",
      "127.0.0.1:4030",
      "X-Trace",
      "a",
      "Connection",
      "keep-alive, X-Hop",
      "X-Hop",
      "1",
      "x-trace",
      "b",
    ];
    expect(forwardedHeaders(raw, "api.example:443")).toEqual([
      "Host",
      "api.example:443",
      "X-Trace",
      "a",
      "x-trace",
      "b",
    ]);
  });

  it("adds no Host to an answer's headers", () => {
    expect(forwardedHeaders(["Content-Type", "application/json", "Transfer-Encoding", "chunked"])).toEqual([
      "Content-Type",
      "application/json",
    ]);
  });
});

describe("bodies as the check reads them", () => {
  const json = Buffer.from('{"a":1}');
  it.each([
    [undefined, json],
    ["identity", json],
    ["gzip", gzipSync(json)],
    ["deflate", deflateSync(json)],
    ["br", brotliCompressSync(json)],
    ["gzip, deflate", deflateSync(gzipSync(json))],
  ])("decodes Content-Encoding %s", async (encoding, bytes) => {
    expect(await decodeBody(bytes, encoding)).toEqual({ body: json });
  });

  it.each([
    ["an unknown encoding", "zstd", json, 'unknown Content-Encoding "zstd"'],
    ["bytes that do not decode", "gzip", json, "not valid gzip"],
  ])("says why for %s (the body is then not checked)", async (_name, encoding, bytes, reason) => {
    expect(await decodeBody(bytes, encoding)).toEqual({ unchecked: reason });
  });

  // 4 MiB of zeros in a few kilobytes: past a 1 MiB limit, each decoder stops there instead of inflating it all.
  const zeros = Buffer.alloc(4 * 1024 * 1024);
  it.each([
    ["gzip", gzipSync(zeros)],
    ["deflate", deflateSync(zeros)],
    ["br", brotliCompressSync(zeros)],
    ["gzip, br", brotliCompressSync(gzipSync(zeros))],
  ])("refuses to inflate %s past the limit, and says so", async (encoding, bytes) => {
    expect(bytes.length).toBeLessThan(64 * 1024);
    const last = encoding.split(", ")[0];
    expect(await decodeBody(bytes, encoding, 1024 * 1024)).toEqual({ unchecked: `inflates past 1 MiB (${last})` });
  });

  it("decodes a body that inflates to exactly the limit", async () => {
    expect(await decodeBody(gzipSync(Buffer.alloc(1024)), "gzip", 1024)).toEqual({ body: Buffer.alloc(1024) });
  });

  it("keeps a body up to the limit and none over it", () => {
    const small = collector(4);
    small.add(Buffer.from("ab"));
    small.add(Buffer.from("cd"));
    expect(small.bytes()?.toString()).toBe("abcd");
    const large = collector(4);
    large.add(Buffer.from("abc"));
    large.add(Buffer.from("de"));
    expect(large.bytes()).toBeUndefined();
  });
});

describe("where a request goes on the target", () => {
  it.each([
    ["http://api.example", "/cms/x?a=1", "/cms/x?a=1"],
    ["http://api.example/", "/cms/x", "/cms/x"],
    ["http://api.example/base", "/cms/x", "/base/cms/x"],
    ["http://api.example/base/", "/cms/x?q=%20", "/base/cms/x?q=%20"],
  ])("%s + %s -> %s", (target, url, path) => {
    expect(upstreamPath(new URL(target), url)).toBe(path);
  });
});

describe("a printed violation", () => {
  it("names the part, the operation, the pointer and the rule, and drops the query", () => {
    const record = recordOf(
      {
        operationId: "getCustomer",
        part: "response",
        pointer: "/body/data/id",
        rule: "format",
        message: 'must match format "uuid"',
      },
      "GET",
      "/cms/api/v1/customer/1?email=a@b.example",
      200,
    );
    expect(record.path).toBe("/cms/api/v1/customer/1");
    expect(violationLine(record)).toBe('violation response getCustomer /body/data/id format: must match format "uuid"');
  });

  it("names the request for a path the spec does not have", () => {
    const record = recordOf(
      { operationId: undefined, part: "request", pointer: "", rule: "operation", message: "no operation for GET /x" },
      "GET",
      "/x",
    );
    expect(violationLine(record)).toBe("violation request (GET /x) / operation: no operation for GET /x");
  });
});
