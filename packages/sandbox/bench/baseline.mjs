// The floor of this machine: a bare node:http server answering a fixed JSON body, no routing, no signature, no
// state. What the sandbox measures next to it shows how much of the latency is the platform's own.
import { createServer } from "node:http";

const body = JSON.stringify({ status: true, message: "ok", data: { id: "3f0e8d7c-2b1a-4c5d-9e8f-7a6b5c4d3e2f" } });
const server = createServer((req, res) => {
  req.resume();
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
server.listen(0, "127.0.0.1", () => process.send?.({ url: `http://127.0.0.1:${server.address().port}` }));
process.on("message", (message) => {
  if (message === "close") server.close(() => process.exit(0)) && server.closeAllConnections();
});
