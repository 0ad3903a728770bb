// Peak RSS (VmHWM, Linux) of `exchange-kit proxy` forwarding one POST (a measurement, not a test): a plain JSON body
// of about 1.6 KB (the floor), and a 1,617-byte brotli body that inflates to 1 GiB (issue 34's attack). Pass the
// bin.js of another build (an earlier version) to measure it side by side in the same run.
// Run after `pnpm build`: node bench/proxy-inflate.mjs [OTHER_BIN]
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createServer, request } from "node:http";
import { createInterface } from "node:readline";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { constants, createBrotliCompress } from "node:zlib";

const thisBin = new URL("../dist/bin.js", import.meta.url).pathname;
const otherBin = process.argv[2];
const chunk = Buffer.alloc(1024 * 1024, 0x20);
const bomb = await buffer(
  Readable.from(Array.from({ length: 1024 }, () => chunk)).pipe(
    createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }),
  ),
);
const plain = Buffer.from(
  JSON.stringify({ client_reference_id: "c-1", alpha_3_country_code: "IND", full_name: "x".repeat(1550) }),
);
const target = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
});
await new Promise((r) => target.listen(0, "127.0.0.1", r));
const targetUrl = `http://127.0.0.1:${target.address().port}`;

async function run(bin, body, encoding) {
  const child = spawn(process.execPath, [bin, "proxy", "--target", targetUrl, "--port", "0", "--json"]);
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve) => lines.once("line", (l) => resolve(JSON.parse(l).url)));
  const started = performance.now();
  await new Promise((resolve, reject) => {
    const headers = {
      "content-type": "application/json",
      "content-length": body.length,
      ...(encoding ? { "content-encoding": encoding } : {}),
    };
    const req = request(`${url}/cms/api/v1/customer/create`, { method: "POST", headers }, (res) => {
      res.resume();
      res.on("end", resolve);
    });
    req.on("error", reject);
    req.end(body);
  });
  // The check runs once the request's body is complete; give it time to finish (the old one holds the loop).
  await new Promise((r) => setTimeout(r, 3000));
  const ms = Math.round(performance.now() - started - 3000);
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))[1];
  child.kill();
  return { peakMB: Math.round(Number(hwm) / 1024), answeredMs: ms };
}

console.log(`bomb: ${bomb.length} bytes, 1 GiB inflated; plain: ${plain.length} bytes`);
const builds = [...(otherBin ? [["other", otherBin]] : []), ["this", thisBin]];
for (const [name, bin] of builds) {
  console.log(name, "plain (floor)", JSON.stringify(await run(bin, plain)));
  console.log(name, "brotli 1 GiB", JSON.stringify(await run(bin, bomb, "br")));
}
target.close();
