// The live stream's resume point: every stream carries an event id, so a browser that lost it (a restart, a
// replica replaced behind a balancer) reconnects with Last-Event-ID, and a resumed stream tells the page to
// reload at once, since what changed while it was away is unknown.
import { afterEach, describe, expect, it } from "vitest";
import { isResumedStream } from "../../src/dashboard/live.js";
import type { Sandbox } from "../../src/index.js";
import { Api, createCustomer, startSandbox } from "../helpers.js";
import { openDashboard } from "./session.js";

let sandbox: Sandbox | undefined;
afterEach(async () => {
  await sandbox?.close();
  sandbox = undefined;
});

/** Opens the live stream with the session's headers and answers a reader of its text. */
async function openLive(url: string, session: Record<string, string>, lastEventId?: string) {
  const stop = new AbortController();
  const response = await fetch(`${url}/_dashboard/api/stream`, {
    headers: { ...session, ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }) },
    signal: stop.signal,
  });
  const reader = response.body!.getReader();
  let text = "";
  return {
    response,
    async until(wanted: string): Promise<string> {
      while (!text.includes(wanted)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before "${wanted}": ${text}`);
        text += new TextDecoder().decode(value);
      }
      return text;
    },
    close: () => stop.abort(),
  };
}

describe("the dashboard's live stream across reconnections", () => {
  it.each([
    [undefined, false],
    ["", false],
    ["0", true],
    ["17", true],
  ])("Last-Event-ID %j resumes a stream: %s", (header, resumed) => {
    expect(isResumedStream(header)).toBe(resumed);
  });

  it("gives a first stream an id, so the browser sends Last-Event-ID when it reconnects", async () => {
    sandbox = await startSandbox();
    const session = await openDashboard(sandbox);
    const live = await openLive(sandbox.url, session.headers);
    expect(live.response.headers.get("x-accel-buffering")).toBe("no");
    expect(await live.until("\n\n")).toBe("id: 0\nretry: 1000\n\n");
    await createCustomer(new Api(sandbox), { full_name: "Live Customer" });
    expect(await live.until("event: update")).toContain("event: update\nid: 1\n");
    live.close();
  });

  it("tells a resumed stream to reload at once, with no change made since", async () => {
    sandbox = await startSandbox();
    const session = await openDashboard(sandbox);
    const live = await openLive(sandbox.url, session.headers, "4");
    const text = await live.until("event: update");
    expect(text).toContain(`event: update\nid: 1\ndata: {"requests":true,"kinds":[]}`);
    live.close();
  });
});
