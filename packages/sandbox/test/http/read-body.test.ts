import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { ApiError } from "../../src/domain/api-error.js";
import { bodyTooLarge, readBody } from "../../src/http/read-body.js";

/** A request stream with the given headers; the test writes the body. */
function incoming(headers: Record<string, string>): PassThrough & { headers: Record<string, string> } {
  return Object.assign(new PassThrough(), { headers });
}

describe("reading the body", () => {
  it("answers an empty body at once when none is announced", async () => {
    const req = incoming({});
    expect((await readBody(req, 10)).length).toBe(0);
  });

  it("treats Content-Length: 0 as no body", async () => {
    const req = incoming({ "content-length": "0" });
    expect((await readBody(req, 10)).length).toBe(0);
  });

  it("joins the chunks of an announced body", async () => {
    const req = incoming({ "content-length": "7" });
    const read = readBody(req, 10);
    req.write('{"a"');
    req.end(":1}");
    expect((await read).toString()).toBe('{"a":1}');
  });

  it("reads a chunked body, announced by Transfer-Encoding", async () => {
    const req = incoming({ "transfer-encoding": "chunked" });
    const read = readBody(req, 10);
    req.end("{}");
    expect((await read).toString()).toBe("{}");
  });

  it("accepts a body of exactly the limit", async () => {
    const req = incoming({ "content-length": "4" });
    const read = readBody(req, 4);
    req.end("1234");
    expect((await read).toString()).toBe("1234");
  });

  it("rejects with 413 once a body past the limit has been drained", async () => {
    const req = incoming({ "transfer-encoding": "chunked" });
    const read = readBody(req, 4);
    req.write("123");
    req.end("45");
    await expect(read).rejects.toEqual(bodyTooLarge(4));
  });

  it("rejects with 413 when Content-Length announces more than the limit, whatever arrives", async () => {
    const req = incoming({ "content-length": "100" });
    const read = readBody(req, 4);
    req.end("12");
    await expect(read).rejects.toBeInstanceOf(ApiError);
  });

  it("rejects with the stream's error when the connection fails", async () => {
    const req = incoming({ "content-length": "10" });
    const read = readBody(req, 100);
    const failure = new Error("aborted");
    req.destroy(failure);
    await expect(read).rejects.toBe(failure);
  });
});

describe("the 413 answer", () => {
  it("names the limit, is INPUT_MALFORMED, and closes the connection", () => {
    const error = bodyTooLarge(1024);
    expect(error.status).toBe(413);
    expect(error.code).toBe("INPUT_MALFORMED");
    expect(error.message).toBe("Request body too large: the limit is 1024 bytes");
    expect(error.errors).toEqual({ non_field_errors: ["The body must be at most 1024 bytes."] });
    expect(error.headers).toEqual({ Connection: "close" });
  });
});
