import { createHmac } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { signTestWebhook } from "@exchange-kit/webhook-verify";
import { describe, expect, it } from "vitest";
import { readDeliveries } from "../src/deliveries.js";
import { run } from "./run.js";

const env = { EXCHANGE_API_KEY: "ek_test_key", EXCHANGE_API_SECRET: "ek_test_secret" };
const dir = mkdtempSync(join(tmpdir(), "exchange-kit-cli-"));
const event = {
  type: "PAYOUT",
  id: "0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d0e",
  event: "SUCCESS",
  timestamp: "2026-03-01T10:15:30Z",
  metadata: { client_reference_id: "po-1", utr: "UTR123456789" },
};

describe("exchange-kit sign", () => {
  it("prints the signature python computes for the canonical body", async () => {
    const cli = run(["sign", "--body", '{"b":"नमस्ते","a":1}', "--timestamp", "1700000000", "--json"], env);
    expect(await cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout());
    // Reference: python3 json.dumps(sort_keys, compact, ensure_ascii) + hmac/sha256/base64.
    expect(printed.body).toBe('{"a":1,"b":"\\u0928\\u092e\\u0938\\u094d\\u0924\\u0947"}');
    expect(printed.headers["X-SIGNATURE"]).toBe("Z2+MODsMPWGlItGge4AIC/9LLZlewRQgt9xC0F133F4=");
    expect(printed.method).toBe("POST");
  });

  it("signs {} and sends no body or Content-Type when no body is given", async () => {
    const cli = run(["sign", "--timestamp", "1700000000", "--json"], env);
    expect(await cli.code).toBe(0);
    const printed = JSON.parse(cli.stdout());
    expect(printed.method).toBe("GET");
    expect(printed.body).toBeNull();
    expect(printed.headers["Content-Type"]).toBeUndefined();
  });

  it("prints a curl command that sends the exact signed body", async () => {
    const cli = run(["sign", "--body", '{"a":"it\'s"}', "--url", "http://127.0.0.1:4020/x"], env);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toContain(`--data-raw '{"a":"it'\\''s"}'`);
    expect(cli.stdout()).not.toMatch(/\u001b\[/); // no colors when not a TTY
  });

  it("exits 2 with a clear message when credentials are missing", async () => {
    const cli = run(["sign", "--body", "{}"], {});
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("no credentials");
  });

  it("exits 2 when the body is not JSON", async () => {
    const cli = run(["sign", "--body", "{nope"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("the body is not JSON");
  });
});

describe("exchange-kit sign, text input", () => {
  it("signs text as the service canonicalizes it: a big integer keeps its digits, 1.10 reads as Python's 1.1", async () => {
    const cli = run(
      ["sign", "--body", '{"r":1.10,"amount":12345678901234567890}', "--timestamp", "1700000000", "--json"],
      env,
    );
    expect(await cli.code).toBe(0);
    const out = JSON.parse(cli.stdout());
    // json.dumps(json.loads(text), sort_keys=True, separators=(",", ":")): what the service signs over
    expect(out.body).toBe('{"amount":12345678901234567890,"r":1.1}');
    const expected = createHmac("sha256", env.EXCHANGE_API_SECRET)
      .update(`${env.EXCHANGE_API_KEY}|1700000000|${out.body}`)
      .digest("base64");
    expect(out.headers["X-SIGNATURE"]).toBe(expected);
  });

  it("exits 2 with the file name when --body-file does not exist, as verify does", async () => {
    const cli = run(["sign", "--body-file", join(dir, "missing.json")], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("cannot read --body-file");
    expect(cli.stderr()).toContain("no such file");
    expect(cli.stderr()).not.toContain("ENOENT:");
  });

  it("exits 2 for a timestamp in milliseconds", async () => {
    const cli = run(["sign", "--body", "{}", "--timestamp", "1700000000000"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("whole seconds");
  });
});

describe("exchange-kit verify, several deliveries", () => {
  const now = () => Math.floor(Date.now() / 1000);
  const signed = (id: string) =>
    signTestWebhook({
      event: { ...event, id },
      apiKey: env.EXCHANGE_API_KEY,
      apiSecret: env.EXCHANGE_API_SECRET,
      timestamp: now(),
    });
  const lines = (...deliveries: { headers: object; body: string }[]) =>
    deliveries.map((d) => JSON.stringify(d)).join("\n") + "\n";

  it("checks every line of a listen --save file and exits 0 when all are valid", async () => {
    const file = join(dir, "saved.jsonl");
    writeFileSync(
      file,
      lines(await signed("0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d01"), await signed("0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d02")),
    );
    const cli = run(["verify", "--delivery", file, "--json"], env);
    expect(await cli.code).toBe(0);
    const results = cli
      .stdout()
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(results.map((r) => [r.valid, r.event.id])).toEqual([
      [true, "0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d01"],
      [true, "0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d02"],
    ]);
  });

  it("exits 1 when one delivery of the file is invalid, naming its code", async () => {
    const good = await signed("0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d03");
    const bad = { ...(await signed("0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d04")) };
    bad.body = bad.body.replace("po-1", "po-2");
    const file = join(dir, "saved-bad.jsonl");
    writeFileSync(file, lines(good, bad));
    const cli = run(["verify", "--delivery", file], env);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toContain("INVALID_SIGNATURE");
    expect(cli.stdout()).toContain("1 of 2 deliveries valid");
  });

  it("reads a delivery whose header names are escaped, even after the input that makes V8 misread them (nodejs/node#63785)", async () => {
    const delivery = await signed("0b3c5d7e-9f1a-4b2c-8d3e-5f6a7b8c9d06");
    const text = JSON.stringify(delivery).replace('"X-SIGNATURE"', '"X-SIGNATUR\\u0045"');
    // Primes the bug: the next object of this shape with an escaped key would be misread by JSON.parse.
    JSON.parse(JSON.stringify(delivery).replace('"X-SIGNATURE"', '"X-SIGNATUR\\\\"'));
    expect(readDeliveries(text, "saved.json")).toEqual([delivery]);
  });
});

describe("exchange-kit verify", () => {
  it("accepts a saved delivery signed with the organization's credentials", async () => {
    const signed = await signTestWebhook({ event, apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET });
    const file = join(dir, "good.json");
    writeFileSync(file, JSON.stringify(signed));
    const cli = run(["verify", "--delivery", file, "--json"], env);
    expect(await cli.code).toBe(0);
    expect(JSON.parse(cli.stdout())).toMatchObject({ valid: true, event: { type: "PAYOUT", event: "SUCCESS" } });
  });

  it("rejects a tampered body with INVALID_SIGNATURE and exit code 1", async () => {
    const signed = await signTestWebhook({ event, apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET });
    const file = join(dir, "tampered.json");
    writeFileSync(file, JSON.stringify({ ...signed, body: signed.body.replace("UTR123456789", "UTR999999999") }));
    const cli = run(["verify", "--delivery", file], env);
    expect(await cli.code).toBe(1);
    expect(cli.stdout()).toContain("invalid INVALID_SIGNATURE");
  });

  it("judges an old delivery stale, unless asked to check it as of its own timestamp", async () => {
    const signed = await signTestWebhook({
      event,
      apiKey: env.EXCHANGE_API_KEY,
      apiSecret: env.EXCHANGE_API_SECRET,
      timestamp: 1700000000,
    });
    const file = join(dir, "old.json");
    writeFileSync(file, JSON.stringify(signed));
    const stale = run(["verify", "--delivery", file, "--json"], env);
    expect(await stale.code).toBe(1);
    expect(JSON.parse(stale.stdout()).code).toBe("TIMESTAMP_OUT_OF_TOLERANCE");
    const atTime = run(["verify", "--delivery", file, "--at-delivery-time", "--json"], env);
    expect(await atTime.code).toBe(0);
  });

  it("verifies a raw body file with the headers given as flags", async () => {
    const signed = await signTestWebhook({ event, apiKey: env.EXCHANGE_API_KEY, apiSecret: env.EXCHANGE_API_SECRET });
    const file = join(dir, "body.json");
    writeFileSync(file, signed.body);
    const cli = run(
      [
        "verify",
        "--body-file",
        file,
        "--timestamp",
        signed.headers["X-TIMESTAMP"],
        "--signature",
        signed.headers["X-SIGNATURE"],
      ],
      env,
    );
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toContain("valid PAYOUT SUCCESS");
  });
});

describe("the command line", () => {
  it("prints the installed package's version for --version and exits 0", async () => {
    const cli = run(["--version"]);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toBe(
      `${JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version}\n`,
    );
  });

  it("exits 2 and lists the commands for an unknown command", async () => {
    const cli = run(["frobnicate"]);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain('unknown command "frobnicate"');
    expect(cli.stderr()).toContain("sandbox");
  });

  it("keeps the exit-code table in every command: 2 for a usage error", async () => {
    for (const name of ["sandbox", "sign", "verify", "listen", "trigger", "demo"]) {
      const cli = run([name, "--no-such-option"], env);
      expect(await cli.code, name).toBe(2);
    }
  });

  it("documents the exit codes in the help", async () => {
    const cli = run(["--help"]);
    expect(await cli.code).toBe(0);
    expect(cli.stdout()).toContain("0 ok, 1 failure");
    expect(cli.stdout()).toContain("2 usage error");
  });

  it("exits 2 for an unknown option, showing the command's usage", async () => {
    const cli = run(["sign", "--bogus"], env);
    expect(await cli.code).toBe(2);
    expect(cli.stderr()).toContain("exchange-kit sign");
  });
});
