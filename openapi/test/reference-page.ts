// What the docs test does on the built reference page (Redoc 3, from Redocly CLI 2's build-docs), by what a
// reader sees: an operation's section, the request-samples panel on its right, the language menu of that panel.
import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";

/** Redoc 3 gives each operation's section the id `<tag slug>/<operationid in lower case>`. */
export function sectionId(tag: string, operationId: string): string {
  const slug = tag
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `${slug}/${operationId.toLowerCase()}`;
}

/**
 * Opens an operation's route (Redoc 3 renders one operation per route, lazily) and returns its section once its
 * title (the operation's heading) is shown.
 */
export async function openSection(page: Page, id: string): Promise<Locator> {
  await page.evaluate((hash) => {
    location.hash = hash;
  }, `#/${id}`);
  const section = page.locator(`[id="${id}"]`);
  await section.locator("h2").first().waitFor({ state: "visible", timeout: 10_000 });
  // Redoc renders a section's heading before its text on a busy machine, and the text can be in the DOM before it
  // is laid out (textContent set, innerText still ""): wait for the rendered words, the same measure
  // `sectionTitle` reads, not for the box or the DOM text.
  await page.waitForFunction(
    // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is what is waited for.
    (sel) => (document.querySelector(sel) as HTMLElement | null)?.innerText?.trim(),
    `[id="${id}"] h2`,
    { timeout: 10_000 },
  );
  return section;
}

/** The operation's title as the section shows it (its first heading; a webhook's carries a "Webhook" badge). */
export async function sectionTitle(section: Locator): Promise<string> {
  const heading = section.locator("h2").first();
  // A re-render between the wait and the read can blank the heading for a frame: read again until it is back.
  for (let attempt = 0; attempt < 50; attempt++) {
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
    const title = (await heading.innerText()).trim();
    if (title !== "") return title;
    await section.page().waitForTimeout(100);
  }
  return "";
}

/** The request-samples panel in the right-hand column of a section. */
export function requestSamplesPanel(section: Locator): Locator {
  return section.locator('[data-testid="right-panel"] .panel-request-samples').first();
}

/** The language menu: the drop-down of the panel header that is not the server one (which shows the method). */
function languageMenu(panel: Locator): Locator {
  return panel
    .locator('[data-component-name="Panel/PanelHeader"] [data-testid="dropdown"]')
    .filter({ hasNot: panel.page().locator('[data-component-name="Tag/Tag"]') });
}

const exactly = (text: string) => new RegExp(`^\\s*${text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`);

/** The items of the open menu: Redoc renders it at the end of the body, and only the open one is visible. */
const openMenuItems = (panel: Locator) => panel.page().getByRole("menuitem");

/** The labels the language menu offers, in its order (opens the menu, reads it, closes it). */
export async function sampleMenu(panel: Locator): Promise<string[]> {
  const button = languageMenu(panel).locator('button[aria-haspopup="menu"]');
  await button.click();
  const items = openMenuItems(panel);
  await items.first().waitFor({ state: "visible", timeout: 5_000 });
  const labels = (await items.allInnerTexts()).map((text) => text.trim());
  await button.click();
  await items.first().waitFor({ state: "hidden", timeout: 5_000 });
  return labels;
}

/** Picks `label` in the language menu (unless it is already shown) and returns the code as the reader sees it. */
export async function showSample(panel: Locator, label: string): Promise<string> {
  const menu = languageMenu(panel);
  const button = menu.locator('button[aria-haspopup="menu"]');
  const code = panel.locator('pre[data-testid="source-code"]').first();
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
  if ((await button.innerText()).trim() !== label) {
    await code.waitFor({ state: "visible", timeout: 5_000 });
    // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
    const before = await code.innerText();
    await button.click();
    await openMenuItems(panel)
      .filter({ hasText: exactly(label) })
      .click();
    await button.filter({ hasText: exactly(label) }).waitFor({ timeout: 5_000 });
    // The menu's label changes a render before the code does (CI read the last language's code once): wait for it.
    await expect
      // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
      .poll(async () => await code.innerText(), { timeout: 5_000 })
      .not.toBe(before);
  }
  await code.waitFor({ state: "visible", timeout: 5_000 });
  // biome-ignore lint/performance/useDomNodeTextContent: Playwright's innerText is the rendered text a reader sees.
  return code.innerText();
}

/** The names of the alternatives (oneOf, anyOf, if/then) the section shows as tabs, as rendered. */
export async function alternativeNames(section: Locator): Promise<string[]> {
  const tabs = section.locator('[data-section-id="switcher"] [role="tab"]');
  return (await tabs.allInnerTexts()).map((text) => text.trim()).filter((text) => text !== "");
}

/** The example menu of the panel (the request examples of the payload), when one is shown. */
export function exampleMenu(panel: Locator): Locator {
  return panel.locator('[data-testid="panel-body"] button[aria-label="Example"]');
}
