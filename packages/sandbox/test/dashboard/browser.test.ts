// The dashboard in real headless Chromium (the system's, through playwright-core): what a person sees and does,
// against a real sandbox and a real webhook receiver. Screenshots go to docs/guides/images/, which the dashboard
// guide embeds.
import { mkdirSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/index.js";
import { Api, createCustomer, payoutQuotationBody } from "../helpers.js";
import { findChromium, INSTALL_HINT, launchChromium } from "./chromium.js";

const chromium = findChromium();
const skipBrowser = !chromium && !process.env.CI;
if (skipBrowser) console.warn(`[dashboard browser test] Chromium not found: skipped. ${INSTALL_HINT}`);
/** A webhook receiver kept for the whole file (the helpers' receivers close after each test); `status` answers. */
async function keptReceiver(status: (index: number) => number) {
  const deliveries: string[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += String(chunk)));
    req.on("end", () => {
      const answer = status(deliveries.push(body) - 1);
      // A refusal says why, as receivers do: the attempt keeps it and the dashboard shows it.
      res.writeHead(answer).end(answer >= 300 ? '{"error":"database busy, try again"}' : "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "localhost", resolve));
  const url = `http://localhost:${(server.address() as AddressInfo).port}/hooks`;
  return { url, deliveries, close: () => new Promise((resolve) => server.close(resolve)) };
}

const IMAGES = fileURLToPath(new URL("../../../../docs/guides/images/", import.meta.url));

describe.skipIf(skipBrowser)("the dashboard in Chromium", () => {
  let browser: Browser;
  let sandbox: Sandbox;
  let api: Api;
  let context: BrowserContext;
  let page: Page;
  let customer: { id: string };
  let receiver: Awaited<ReturnType<typeof keptReceiver>>;

  const shot = (name: string) => page.screenshot({ path: `${IMAGES}${name}.png`, fullPage: true });
  const text = (selector: string) => page.locator(selector).first().textContent();

  beforeAll(async () => {
    if (!chromium) throw new Error(`Chromium is required on CI for the dashboard test. ${INSTALL_HINT}`);
    mkdirSync(IMAGES, { recursive: true });
    browser = await launchChromium(chromium);
    // The helpers' startSandbox closes its sandbox after each test: this file keeps one for all its steps.
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
  });

  it("shows a customer created through the API without a reload", async () => {
    const { createSandbox } = await import("../../src/index.js");
    sandbox = await createSandbox({
      organizations: [
        { name: "Acme Remit", apiKey: "key_dash_a", apiSecret: "secret_dash_a" },
        { name: "Beta Pay", apiKey: "key_dash_b", apiSecret: "secret_dash_b" },
      ],
      autoProgressMs: false,
      webhookRetry: { maxAttempts: 4, initialDelayMs: 100, factor: 2, maxDelayMs: 400 },
    });
    api = new Api(sandbox);
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    // Each wait fails within the test's time with what it waited for.
    context.setDefaultTimeout(8000);
    page = await context.newPage();
    page.on("console", (m) => console.log("console:", m.text()));
    page.on("pageerror", (e) => console.log("pageerror:", e.message));
    page.on("response", async (r) => {
      if (r.url().includes("/api/") && r.status() >= 400)
        console.log("answer:", r.status(), r.url(), await r.text().catch(() => ""));
    });
    await page.goto(sandbox.dashboard[0]!.url);
    await page.locator("#live", { hasText: "Live" }).waitFor();
    // The link's token leaves the address bar (and so the history) once the page has exchanged it.
    expect(page.url()).toBe(`${sandbox.url}/_dashboard/#/records`);
    expect(await page.title()).toBe("Sandbox dashboard · Acme Remit");
    customer = await createCustomer(api, { full_name: "Asha Verma" });
    await page.locator(`a[href="#/record/customers/${customer.id}"]`).waitFor({ timeout: 5000 });
    await shot("dashboard-records");
  });

  it("opens the customer and shows its CUSTOMER event and the attempts against a receiver that answered 500, then 200", async () => {
    receiver = await keptReceiver((index) => (index === 0 ? 500 : 200));
    await api.ok("POST", "/org/api/v1/organizations/api-webhooks", {
      webhook_url: receiver.url,
    });
    await page.click(`a[href="#/record/customers/${customer.id}"]`);
    await page.locator("h3", { hasText: "Events" }).waitFor();
    await api.ok("POST", `/_sandbox/customers/${customer.id}/transition`, { status: "VERIFIED" });
    const card = page.locator("article.event", { hasText: "CUSTOMER VERIFIED" });
    await card.locator("caption", { hasText: "delivered" }).waitFor({ timeout: 5000 });
    const answers = await card.locator("tbody tr td:nth-child(3)").allTextContents();
    expect(answers).toEqual(["500", "200"]);
    expect(await card.locator("tbody tr td:nth-child(5)").allTextContents()).toEqual([
      '{"error":"database busy, try again"}',
      "",
    ]);
    expect(await card.locator("caption").first().textContent()).toContain(receiver.url);
    await shot("dashboard-record");
  });

  it("redelivers the event with Redeliver and shows the new attempt", async () => {
    const card = page.locator("article.event", { hasText: "CUSTOMER VERIFIED" });
    await card.getByRole("button", { name: "Redeliver" }).click();
    await card.locator("caption", { hasText: /Delivery 2 \(redelivery\).*delivered/ }).waitFor({ timeout: 5000 });
    expect(receiver.deliveries).toHaveLength(3);
    expect(await card.locator("table").nth(1).locator("tbody tr td:nth-child(3)").allTextContents()).toEqual(["200"]);
  });

  it("moves a payout to IN_REVIEW with an rfi_link and shows the PAYOUT event it produced", async () => {
    const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "asha@ybl" },
    });
    await api.ok("POST", `/_sandbox/banks/${bank.id}/transition`, { status: "VERIFIED" });
    const body = payoutQuotationBody(customer.id, bank.id, { payment_method: "UPI" });
    const quote = await api.ok("POST", "/pos/api/v1/payout/quotation", body);
    const payout = await api.ok("POST", "/pos/api/v1/payout/initiate", {
      quotation_id: quote.id,
      client_reference_id: "po-1",
    });
    await page.goto(`${sandbox.url}/_dashboard/#/record/payouts/${payout.id}`);
    await page.getByLabel("New status").selectOption("IN_REVIEW");
    await page.getByLabel("reason", { exact: true }).selectOption("Request for information");
    await page.getByLabel("rfi_link").fill("https://rfi.example.com/po-1");
    await page.getByRole("button", { name: "Move" }).click();
    await page.locator(".move .result", { hasText: "Event PAYOUT IN_REVIEW" }).waitFor();
    await page.locator("article.event", { hasText: "PAYOUT IN_REVIEW" }).waitFor();
    expect(await text(".view")).toContain("https://rfi.example.com/po-1");
    await shot("dashboard-move");
  });

  it("expires a quotation when the clock is advanced past its expiry", async () => {
    const bank = await api.ok("POST", "/cms/api/v1/bank/create", {
      customer_id: customer.id,
      bank_account_type: "UPI",
      identifiers: { vpa: "asha2@ybl" },
    });
    await api.ok("POST", `/_sandbox/banks/${bank.id}/transition`, { status: "VERIFIED" });
    const quote = await api.ok(
      "POST",
      "/pos/api/v1/payout/quotation",
      payoutQuotationBody(customer.id, bank.id, { payment_method: "UPI" }),
    );
    const row = page.locator("tr", { hasText: quote.id });
    await page.goto(`${sandbox.url}/_dashboard/#/records`);
    await page.getByLabel("Kind").selectOption("payout_quotations");
    expect(await row.locator("td").nth(3).textContent()).toBe("ACTIVE");
    await page.click('nav a[href="#/controls"]');
    await page.getByLabel("Seconds to advance").fill("301");
    await page.getByRole("button", { name: "Advance" }).click();
    await page.locator(".result", { hasText: "Clock advanced by 301 s" }).waitFor();
    await shot("dashboard-controls");
    await page.click('nav a[href="#/records"]');
    await page.getByLabel("Kind").selectOption("payout_quotations");
    await row.locator("td", { hasText: "EXPIRED" }).waitFor();
  });

  it("shows the request log with its filters and a request's bodies", async () => {
    await api.post("/cms/api/v1/customer/create", { client_reference_id: "dup-x", full_name: "No Country" });
    await page.click('nav a[href="#/requests"]');
    await page.getByLabel("Status").fill("4xx");
    await page.getByRole("button", { name: "Filter" }).click();
    const entry = page.locator(".requests li").first();
    await entry.locator("summary", { hasText: "createCustomer" }).waitFor();
    expect(await entry.locator("summary").textContent()).toMatch(/POST createCustomer 400 REQ_FIELD_MISSING \d+ ms/);
    await entry.locator("summary").click();
    expect(await entry.locator("pre").first().textContent()).toContain('"client_reference_id": "dup-x"');
    await shot("dashboard-requests");
    await page.click('nav a[href="#/events"]');
    await page.locator("article.event").first().waitFor();
    await shot("dashboard-events");
  });

  it("labels every control and works from the keyboard", async () => {
    await page.goto(`${sandbox.url}/_dashboard/#/records`);
    await page.locator("table.records tbody tr").first().waitFor();
    const unlabelled = await page.evaluate(
      () =>
        Array.from(document.querySelectorAll("input, select, button")).filter(
          (el) => !((el as HTMLInputElement).labels?.length || el.textContent?.trim() || el.getAttribute("aria-label")),
        ).length,
    );
    expect(unlabelled).toBe(0);
    await page.reload();
    await page.locator("table.records tbody tr").first().waitFor();
    await page.keyboard.press("Tab");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Skip to content");
    await page.getByLabel("ID or client_reference_id").fill(customer.id);
    await page.keyboard.press("Enter");
    await page.locator("caption", { hasText: "matching" }).waitFor();
    expect(await page.locator("table.records tbody tr").count()).toBe(1);
  });

  it("names each record and shows the date it was created in the records table", async () => {
    await page.goto(`${sandbox.url}/_dashboard/#/records`);
    const row = page.locator("table.records tbody tr", { hasText: customer.id });
    await row.waitFor();
    const cells = await row.locator("td").allTextContents();
    expect(cells[1]).toBe("Asha Verma");
    expect(cells[4]).toContain(String(new Date().getFullYear()));
  });

  it("searches every kind of record by a client_reference_id", async () => {
    await page.goto(`${sandbox.url}/_dashboard/#/records`);
    await page.getByLabel("Kind").selectOption("all");
    await page.getByLabel("ID or client_reference_id").fill("po-1");
    await page.getByRole("button", { name: "Search" }).click();
    const row = page.locator("table.records tbody tr", { hasText: "po-1" });
    await row.waitFor();
    expect(await row.locator("td").nth(1).textContent()).toBe("Payouts");
    expect(await page.locator("table.records thead th").allTextContents()).toEqual([
      "ID",
      "Kind",
      "Name",
      "client_reference_id",
      "Status",
      "Created",
    ]);
  });

  it("links a logged request to the records it names, and the link opens the record", async () => {
    await page.goto(`${sandbox.url}/_dashboard/#/requests`);
    await page.getByLabel("operationId").fill("createCustomer");
    await page.getByLabel("Status").fill("200");
    await page.getByRole("button", { name: "Filter" }).click();
    // The filtered list, not the one it replaces (an entry opened in that one closes when it goes).
    await page.locator('.requests[aria-busy="false"]').waitFor();
    const entry = page.locator(".requests li", { hasText: "createCustomer" }).last();
    await entry.locator("summary").click();
    await entry.locator(`a[href="#/find/${customer.id}"]`).click();
    await page.locator("h2", { hasText: customer.id }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/record/customers/${customer.id}`);
  });

  it("filters the request log by a date range", async () => {
    const local = (ms: number) => {
      const at = new Date(ms - new Date(ms).getTimezoneOffset() * 60_000);
      return at.toISOString().slice(0, 19);
    };
    await page.goto(`${sandbox.url}/_dashboard/#/requests`);
    await page.getByLabel("From").fill(local(Date.now() + 3_600_000));
    await page.getByRole("button", { name: "Filter" }).click();
    await page.locator(".requests li", { hasText: "No requests." }).waitFor();
    await page.getByLabel("From").fill(local(Date.now() - 3_600_000));
    await page.getByLabel("To").fill(local(Date.now() + 3_600_000));
    await page.getByRole("button", { name: "Filter" }).click();
    await page.locator(".requests li summary", { hasText: "createCustomer" }).first().waitFor();
  });

  it("lines the Clock & settings fields up on the left, under their heading", async () => {
    await page.goto(`${sandbox.url}/_dashboard/#/controls`);
    const heading = await page.locator("#settings-title").boundingBox();
    const field = await page.getByLabel("Quotation validity (s)").boundingBox();
    expect(Math.abs(field!.x - heading!.x)).toBeLessThan(4);
  });

  it("fits a phone-sized window without sideways scrolling, attempts, delivery URLs and bodies included", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    const small = await phone.newPage();
    await small.goto(sandbox.dashboard[0]!.url);
    await small.locator("table.records tbody tr").first().waitFor();
    const overflowing = () =>
      small.evaluate(() => {
        const wide = Array.from(document.querySelectorAll("main table, main pre, main caption, main .meta")).filter(
          (el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1,
        );
        return { page: document.documentElement.scrollWidth, elements: wide.map((el) => el.tagName) };
      });
    expect(await overflowing()).toEqual({ page: 390, elements: [] });
    await small.screenshot({ path: `${IMAGES}dashboard-phone.png`, fullPage: true });
    await small.goto(`${sandbox.url}/_dashboard/#/record/customers/${customer.id}`);
    await small.locator("table.attempts td", { hasText: "200" }).first().waitFor();
    await small
      .locator("details")
      .first()
      .evaluate((el) => el.setAttribute("open", ""));
    expect(await overflowing()).toEqual({ page: 390, elements: [] });
    await small.goto(`${sandbox.url}/_dashboard/#/requests`);
    await small.locator(".requests summary").first().click();
    expect(await overflowing()).toEqual({ page: 390, elements: [] });
    await phone.close();
  });

  it("never shows a second organization's session the first organization's records, in the page or its calls", async () => {
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const b = await other.newPage();
    const answers: string[] = [];
    b.on("response", async (response) => {
      if (response.url().includes("/_dashboard/api/") && !response.url().endsWith("/stream"))
        answers.push(await response.text().catch(() => ""));
    });
    await b.goto(sandbox.dashboard[1]!.url);
    await b.locator("table.records tbody td", { hasText: "No records." }).waitFor();
    await b.getByLabel("ID or client_reference_id").fill(customer.id);
    await b.getByRole("button", { name: "Search" }).click();
    await b.locator("caption", { hasText: "matching" }).waitFor();
    await b.goto(`${sandbox.url}/_dashboard/#/record/customers/${customer.id}`);
    await b.locator("[role=alert]", { hasText: "404" }).waitFor();
    await b.goto(`${sandbox.url}/_dashboard/#/events`);
    await b.locator(".events p", { hasText: "No events yet." }).waitFor();
    await b.goto(`${sandbox.url}/_dashboard/#/requests`);
    await b.locator(".requests li", { hasText: "No requests." }).waitFor();
    const direct = await b.evaluate(async (id) => {
      const token = sessionStorage.getItem("exchange-kit-dashboard-session");
      const headers = { Authorization: `Bearer ${token}` };
      return (await fetch(`/_dashboard/api/records/customers/${id}`, { headers })).status;
    }, customer.id);
    expect(direct).toBe(404);
    const seen = [await b.content(), ...answers].join("\n");
    expect(answers.length).toBeGreaterThan(3);
    for (const secret of [customer.id, "Acme Remit", "Asha Verma", sandbox.organizations[0]!.id])
      expect(seen).not.toContain(secret);
    expect(await b.locator("#organization").textContent()).toBe("Beta Pay");
    await other.close();
    await context.close();
    await sandbox.close();
  });
});
