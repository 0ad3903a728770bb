// Requests Node cannot even parse (garbage, oversized headers) or that did not arrive in time get the envelope
// too, instead of a bare 400 or 408, written straight to the socket since there is no response object.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

interface ClientErrorKind {
  status: number;
  code: string;
  message: string;
  detail: string;
}

/** What a client error answers: 431 for oversized headers; NET_TIMEOUT (the document's 400) for a slow request. */
export function clientErrorKind(error: NodeJS.ErrnoException): ClientErrorKind {
  if (error.code === "HPE_HEADER_OVERFLOW")
    return {
      status: 431,
      code: "INPUT_MALFORMED",
      message: "Request headers too large",
      detail: "The request headers are too large.",
    };
  // Node's headers and request timeouts (see timeouts.ts). The document's code for "request timed out".
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return {
      status: 400,
      code: "NET_TIMEOUT",
      message: "Request timed out",
      detail: "The request was not received in time.",
    };
  return {
    status: 400,
    code: "INPUT_MALFORMED",
    message: "Malformed HTTP request",
    detail: "The request is not valid HTTP/1.1.",
  };
}

/** The whole HTTP/1.1 answer to a request Node's parser refused or timed out. */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  const { status, code, message, detail } = clientErrorKind(error);
  const body = JSON.stringify({
    status: false,
    message,
    data: null,
    err_code: code,
    errors: { non_field_errors: [detail] },
  });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * The server's clientError listener: answers when the socket can still be written, then closes it for good.
 * Ending alone is not enough: an HTTP server's sockets allow half-open connections, so a client that never
 * closes its side would keep the socket for ever.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(error), () => socket.destroy());
}
