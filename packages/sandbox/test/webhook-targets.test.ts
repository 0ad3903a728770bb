// Webhook targets of a sandbox listening beyond loopback: the host's own services and its private network are not
// delivered to unless allowed, and an attempt's error does not tell the ports of a host apart. Over real HTTP.
import { createServer as createTcpServer, type Server } from "node:net";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import {
  isInternalAddress,
  listensOnLoopbackOnly,
  TARGET_REFUSED,
  targetRefusal,
  webhookTargetPolicy,
} from "../src/webhooks/webhook-targets.js";
import { Api, type Delivery, startReceiver, startSandbox, verifiedCustomer, waitFor } from "./helpers.js";

const REGISTER = "/org/api/v1/organizations/api-webhooks";

describe("which addresses are internal", () => {
  it.each([
    ["127.0.0.1", true],
    ["127.8.9.10", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["::1", true],
    ["::", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["::ffff:8.8.8.8", false],
    ["93.184.216.34", false],
    ["2606:4700::1111", false],
  ])("%s is internal: %s", (address, internal) => {
    expect(isInternalAddress(address)).toBe(internal);
  });

  it.each([
    ["127.0.0.1", true],
    ["localhost", true],
    ["::1", true],
    ["0.0.0.0", false],
    ["::", false],
    ["192.168.1.5", false],
  ])("listening on %s keeps to loopback: %s", (host, loopback) => {
    expect(listensOnLoopbackOnly(host)).toBe(loopback);
  });
});

describe("targetRefusal", () => {
  const open = webhookTargetPolicy("0.0.0.0", ["127.0.0.1:4000", "hooks.internal"]);
  it.each([
    ["an internal address beyond loopback", "0.0.0.0", [], "http://127.0.0.1:22/", "127.0.0.1", TARGET_REFUSED],
    ["a name that resolves inward", "0.0.0.0", [], "https://inward.example/", "10.0.0.7", TARGET_REFUSED],
    ["localhost by name", "0.0.0.0", [], "http://localhost:22/", "127.0.0.1", TARGET_REFUSED],
    ["a public address", "0.0.0.0", [], "https://hooks.example/", "93.184.216.34", undefined],
    ["any target on loopback", "127.0.0.1", [], "http://127.0.0.1:22/", "127.0.0.1", undefined],
  ])("%s", (_name, host, allowed, url, address, refusal) => {
    expect(targetRefusal(webhookTargetPolicy(host, allowed), new URL(url), address)).toBe(refusal);
  });

  it("lets through a target the allow-list names by host and port, or by host", () => {
    expect(targetRefusal(open, new URL("http://127.0.0.1:4000/h"), "127.0.0.1")).toBeUndefined();
    expect(targetRefusal(open, new URL("http://127.0.0.1:4001/h"), "127.0.0.1")).toBe(TARGET_REFUSED);
    expect(targetRefusal(open, new URL("https://hooks.internal/h"), "10.0.0.7")).toBeUndefined();
  });
});

/** A server that accepts connections and answers what is not HTTP. */
async function notHttp(): Promise<{ url: string; server: Server }> {
  const server = createTcpServer((socket) => socket.end("SSH-2.0-OpenSSH_9.6\r\n"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** A loopback port nothing listens on. */
async function closedPort(): Promise<string> {
  const { url, server } = await notHttp();
  await new Promise((resolve) => server.close(resolve));
  return url;
}

const errorsOf = async (sandbox: Awaited<ReturnType<typeof startSandbox>>) => {
  await sandbox.deliveriesSettled();
  return (await sandbox.events()).flatMap((e) => e.deliveries.flatMap((d) => d.attempts.map((a) => a.error)));
};

describe("a sandbox listening beyond loopback", () => {
  it("does not deliver to a receiver on the host's loopback, and says so the same way whatever listens there", async () => {
    const receiver = await startReceiver();
    const other = await notHttp();
    const closed = await closedPort();
    const errors: Array<string | null>[] = [];
    for (const url of [receiver.url, other.url, closed, "https://[::ffff:127.0.0.1]:9/", "https://10.0.0.1/"]) {
      const sandbox = await startSandbox({ host: "0.0.0.0" });
      const api = new Api(sandbox);
      await api.ok("POST", REGISTER, { webhook_url: url });
      await verifiedCustomer(api);
      errors.push(await errorsOf(sandbox));
    }
    other.server.close();
    expect(receiver.deliveries as Delivery[]).toHaveLength(0);
    for (const attempts of errors) {
      expect(attempts.length).toBeGreaterThan(0);
      expect(new Set(attempts)).toEqual(new Set([TARGET_REFUSED]));
    }
  });

  it("delivers to a loopback receiver the allow-list names", async () => {
    const receiver = await startReceiver();
    const sandbox = await startSandbox({ host: "0.0.0.0", webhookAllowedTargets: [new URL(receiver.url).host] });
    const api = new Api(sandbox);
    await api.ok("POST", REGISTER, { webhook_url: receiver.url });
    await verifiedCustomer(api);
    await waitFor(() => receiver.deliveries.length > 0, "a delivery");
  });

  it("tells an allowed closed port and an allowed port that is not HTTP apart by nothing", async () => {
    const other = await notHttp();
    const closed = await closedPort();
    const errors: Array<string | null>[] = [];
    for (const url of [other.url, closed]) {
      const sandbox = await startSandbox({ host: "0.0.0.0", webhookAllowedTargets: ["127.0.0.1"] });
      const api = new Api(sandbox);
      await api.ok("POST", REGISTER, { webhook_url: url });
      await verifiedCustomer(api);
      errors.push(await errorsOf(sandbox));
    }
    other.server.close();
    expect(errors.map((attempts) => [...new Set(attempts)])).toEqual([
      ["no HTTP answer from the receiver"],
      ["no HTTP answer from the receiver"],
    ]);
  });
});
