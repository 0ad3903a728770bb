// Run by test/new-spec-event.test.ts in a child process (Node strips the types), with or without a regenerated
// catalog in place of the one @exchange-kit/types ships. Puts the BANK event DEACTIVATED to each package through
// its public API, as built, and prints what each made of it as one JSON object on stdout.
import { PassThrough } from "node:stream";
import { runCli } from "@exchange-kit/cli";
import { createSandbox } from "@exchange-kit/sandbox";
import { signRequest } from "@exchange-kit/signing";
import { signTestWebhook, verifyWebhook } from "@exchange-kit/webhook-verify";

const apiKey = "ek_probe_key";
const apiSecret = "ek_probe_secret";

/** Runs the CLI in-process with captured streams. */
async function cli(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += String(chunk)));
  stderr.on("data", (chunk) => (err += String(chunk)));
  const env = { EXCHANGE_API_KEY: apiKey, EXCHANGE_API_SECRET: apiSecret };
  const code = await runCli(argv, { stdout, stderr, env, signal: new AbortController().signal });
  return { code, stdout: out, stderr: err };
}

/** What verifyWebhook makes of a signed BANK DEACTIVATED delivery with this metadata. */
async function receive(metadata: Record<string, unknown>) {
  const event = {
    type: "BANK",
    id: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
    event: "DEACTIVATED",
    timestamp: "2026-03-01T09:30:05Z",
    metadata,
  };
  const { body, headers } = await signTestWebhook({ event, apiKey, apiSecret });
  return verifyWebhook({ body, headers, apiKey, apiSecret });
}

const sandbox = await createSandbox({
  port: 0,
  autoProgressMs: false,
  organizations: [{ name: "Probe", apiKey, apiSecret }],
});
try {
  const call = async (method: "GET" | "POST", path: string, body?: object) => {
    const signed = await signRequest({ apiKey, apiSecret, body });
    const response = await fetch(`${sandbox.url}${path}`, { method, headers: signed.headers, body: signed.body });
    return (await response.json()) as { status: boolean; err_code?: string; data: { id: string } };
  };
  const customer = await call("POST", "/cms/api/v1/customer/create", {
    client_reference_id: "probe-customer",
    alpha_3_country_code: "IND",
    full_name: "Asha Verma",
  });
  await call("POST", `/_sandbox/customers/${customer.data.id}/transition`, { status: "VERIFIED" });
  const bank = await call("POST", "/cms/api/v1/bank/create", {
    customer_id: customer.data.id,
    bank_account_type: "UPI",
    identifiers: { vpa: "probe@ybl" },
  });
  const report = {
    webhook: await receive({ reason: "Closed by the bank" }),
    webhookWithOtherReason: await receive({ reason: "Because" }),
    usage: (await cli(["trigger", "--help"])).stdout,
    trigger: await cli([
      "trigger",
      "bank",
      "deactivated",
      "--id",
      bank.data.id,
      "--reason",
      "Closed by the bank",
      "--base-url",
      sandbox.url,
      "--json",
    ]),
    controlApi: await call("POST", `/_sandbox/banks/${bank.data.id}/transition`, { status: "DEACTIVATED" }),
  };
  process.stdout.write(JSON.stringify(report));
} finally {
  await sandbox.close();
}
