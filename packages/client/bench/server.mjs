// A minimal local service for the benchmark: reads the whole request and answers a fixed success envelope.
import { createServer } from "node:http";

const answer = Buffer.from(
  JSON.stringify({
    status: true,
    message: "Success",
    data: { id: "kyc-1", status: "PROCESSING", failure_reason: null },
  }),
);
const server = createServer((req, res) => {
  req.on("data", () => {});
  req.on("end", () => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": answer.length });
    res.end(answer);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => console.log(`listening ${server.address().port}`));
// Never outlive the benchmark.
process.on("disconnect", () => process.exit(0));
setTimeout(() => process.exit(0), 10 * 60_000).unref();
