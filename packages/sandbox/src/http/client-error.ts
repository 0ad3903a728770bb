// Requests Node cannot even parse (garbage, oversized headers) get the envelope too, instead of a bare 400,
// written straight to the socket since there is no response object.
import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";

/** The whole HTTP/1.1 answer to a request Node's parser refused: 431 for oversized headers, 400 otherwise. */
export function clientErrorAnswer(error: NodeJS.ErrnoException): string {
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : 400;
  const body = JSON.stringify({
    status: false,
    message: status === 431 ? "Request headers too large" : "Malformed HTTP request",
    data: null,
    err_code: "INPUT_MALFORMED",
    errors: {
      non_field_errors: [status === 431 ? "The request headers are too large." : "The request is not valid HTTP/1.1."],
    },
  });
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/** The server's clientError listener: answers when the socket can still be written, else just closes it. */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || error.code === "ECONNRESET") {
    socket.destroy();
    return;
  }
  socket.end(clientErrorAnswer(error));
}
