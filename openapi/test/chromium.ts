// Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe): no extra dependency,
// no port, and the exact launch flags are ours. Used by the docs test.
import { spawn, type ChildProcess } from "node:child_process";
import { accessSync, constants, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { killTree } from "./helpers.js";

export const INSTALL_HINT =
  "Install Chromium to run it: `apt-get update && apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH.";

/** The Chromium executable: $CHROMIUM_PATH when set (and only it), else the usual system locations. */
export function findChromium(): string | undefined {
  const candidates = process.env.CHROMIUM_PATH
    ? [process.env.CHROMIUM_PATH]
    : ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome", "/usr/bin/google-chrome-stable"];
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      /* next */
    }
  }
  return undefined;
}

export class Browser {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private buffer = "";
  private sessionId: string | undefined;
  private readonly killTimer: NodeJS.Timeout;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
    lifetimeMs: number,
  ) {
    const input = child.stdio[3] as Writable;
    const output = child.stdio[4] as Readable;
    input.on("error", () => {});
    output.on("data", (chunk: Buffer) => {
      this.buffer += chunk.toString("utf8");
      for (let end = this.buffer.indexOf("\0"); end >= 0; end = this.buffer.indexOf("\0")) {
        const message = JSON.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        const waiter = message.id !== undefined ? this.pending.get(message.id) : undefined;
        if (!waiter) continue;
        this.pending.delete(message.id);
        if (message.error) waiter.reject(new Error(`${message.error.message} (${message.error.code})`));
        else waiter.resolve(message.result);
      }
    });
    child.on("exit", (code, signal) => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`Chromium exited (${signal ?? code})`));
      this.pending.clear();
    });
    // Timebox: whatever the test does, Chromium does not outlive this.
    this.killTimer = setTimeout(() => killTree(child, "SIGKILL"), lifetimeMs);
    this.killTimer.unref();
  }

  /** Starts headless Chromium with a fresh profile in a temp dir, and attaches to its page. */
  static async launch(executable: string, { width = 1280, height = 2400, lifetimeMs = 90_000 } = {}) {
    const profile = mkdtempSync(join(tmpdir(), "exchange-kit-chromium-"));
    const child = spawn(
      executable,
      [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        `--user-data-dir=${profile}`,
        `--window-size=${width},${height}`,
        "--remote-debugging-pipe",
        "about:blank",
      ],
      { detached: true, stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    let stderr = "";
    child.stderr!.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
    const browser = new Browser(child, profile, lifetimeMs);
    try {
      const { targetInfos } = await browser.send("Target.getTargets", {}, 15_000);
      let page = targetInfos.find((t: any) => t.type === "page");
      if (!page) page = { targetId: (await browser.send("Target.createTarget", { url: "about:blank" })).targetId };
      const { sessionId } = await browser.send("Target.attachToTarget", { targetId: page.targetId, flatten: true });
      browser.sessionId = sessionId;
      await browser.send("Page.enable");
      await browser.send("Emulation.setDeviceMetricsOverride", { width, height, deviceScaleFactor: 1, mobile: false });
      return browser;
    } catch (error) {
      await browser.close();
      throw new Error(`Could not drive Chromium (${executable}): ${(error as Error).message}\n${stderr}`);
    }
  }

  /** Sends one DevTools protocol command (to the attached page once there is one). */
  send(method: string, params: Record<string, unknown> = {}, timeoutMs = 30_000, toBrowser = false): Promise<any> {
    const id = ++this.nextId;
    const message: Record<string, unknown> = { id, method, params };
    if (this.sessionId && !toBrowser) message.sessionId = this.sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      (this.child.stdio[3] as Writable).write(`${JSON.stringify(message)}\0`);
    });
  }

  /** Evaluates an expression in the page (awaiting a promise) and returns its JSON value. */
  async evaluate<T = unknown>(expression: string, timeoutMs = 30_000): Promise<T> {
    const { result, exceptionDetails } = await this.send(
      "Runtime.evaluate",
      { expression, awaitPromise: true, returnByValue: true },
      timeoutMs,
    );
    if (exceptionDetails)
      throw new Error(`page error: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value as T;
  }

  async navigate(url: string) {
    await this.send("Page.navigate", { url });
  }

  async screenshot(): Promise<Buffer> {
    const { data } = await this.send("Page.captureScreenshot", { format: "png" });
    return Buffer.from(data, "base64");
  }

  async close() {
    clearTimeout(this.killTimer);
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once("exit", resolve));
      // Ask Chromium to quit (it then reaps its own helper processes); signal the process group if it does not.
      this.send("Browser.close", {}, 3_000, true).catch(() => {});
      const soft = setTimeout(() => killTree(this.child, "SIGTERM"), 3_000);
      const hard = setTimeout(() => killTree(this.child, "SIGKILL"), 6_000);
      await exited;
      clearTimeout(soft);
      clearTimeout(hard);
    }
    rmSync(this.profile, { recursive: true, force: true });
  }
}
