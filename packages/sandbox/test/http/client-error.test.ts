import { Duplex } from "node:stream";
import { describe, expect, it } from "vitest";
import { answerClientError, clientErrorAnswer } from "../../src/http/client-error.js";

function errno(code: string): NodeJS.ErrnoException {
  return Object.assign(new Error(code), { code });
}

function body(answer: string): unknown {
  return JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
}

describe("answering a request Node could not parse", () => {
  it("answers 431 in the envelope for oversized headers", () => {
    const answer = clientErrorAnswer(errno("HPE_HEADER_OVERFLOW"));
    expect(answer.startsWith("HTTP/1.1 431 Request Header Fields Too Large\r\n")).toBe(true);
    expect(body(answer)).toEqual({
      status: false,
      message: "Request headers too large",
      data: null,
      err_code: "INPUT_MALFORMED",
      errors: { non_field_errors: ["The request headers are too large."] },
    });
  });

  it("answers 400 in the envelope for anything else", () => {
    const answer = clientErrorAnswer(errno("HPE_INVALID_METHOD"));
    expect(answer.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true);
    expect(body(answer)).toMatchObject({ message: "Malformed HTTP request", err_code: "INPUT_MALFORMED" });
  });

  it("answers NET_TIMEOUT, the document's code for a request that timed out, when Node's timeout fires", () => {
    const answer = clientErrorAnswer(errno("ERR_HTTP_REQUEST_TIMEOUT"));
    expect(answer.startsWith("HTTP/1.1 400 Bad Request\r\n")).toBe(true);
    expect(body(answer)).toEqual({
      status: false,
      message: "Request timed out",
      data: null,
      err_code: "NET_TIMEOUT",
      errors: { non_field_errors: ["The request was not received in time."] },
    });
  });

  it("sends JSON with its byte length and closes the connection", () => {
    const answer = clientErrorAnswer(errno("HPE_INVALID_METHOD"));
    const [head, text] = answer.split("\r\n\r\n") as [string, string];
    expect(head.split("\r\n").slice(1)).toEqual([
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(text)}`,
      "Connection: close",
    ]);
  });

  it("writes the answer to a writable socket, ends it and then destroys it (a half-open client keeps nothing)", async () => {
    const written: string[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    answerClientError(errno("HPE_INVALID_METHOD"), socket);
    expect(written.join("")).toBe(clientErrorAnswer(errno("HPE_INVALID_METHOD")));
    expect(socket.writableEnded).toBe(true);
    await new Promise((resolve) => socket.once("close", resolve));
    expect(socket.destroyed).toBe(true);
  });

  it("only closes a socket the client reset", () => {
    const written: string[] = [];
    const socket = new Duplex({
      read() {},
      write(chunk, _encoding, done) {
        written.push(String(chunk));
        done();
      },
    });
    answerClientError(errno("ECONNRESET"), socket);
    expect(written).toEqual([]);
    expect(socket.destroyed).toBe(true);
  });
});
