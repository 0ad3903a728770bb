// The dashboard's page and files, shipped in the package (dashboard-ui/) and read once at start: no CDN, no
// build step, nothing fetched at run time, so the dashboard works offline.
import { readdirSync, readFileSync } from "node:fs";
import { extname } from "node:path";

/** dashboard-ui/ beside src/ and dist/: the same path from either, two levels up from this file. */
const UI_DIR = new URL("../../dashboard-ui/", import.meta.url);

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
};

export interface Asset {
  type: string;
  body: Buffer;
}

export interface DashboardUi {
  /** Every file the page loads, by name (nothing else is served: no path is joined from a request). */
  assets: ReadonlyMap<string, Asset>;
  /** index.html, with {{organization}} and {{csrf}} to fill in. */
  template: string;
}

export function loadUi(): DashboardUi {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(UI_DIR)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { type, body: readFileSync(new URL(name, UI_DIR)) });
  }
  return { assets, template: readFileSync(new URL("index.html", UI_DIR), "utf8") };
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page of a session: the template with the organization's name and the session's CSRF token filled in. */
export function pageHtml(template: string, organizationName: string, csrf: string): string {
  return template.replaceAll("{{organization}}", escapeHtml(organizationName)).replaceAll("{{csrf}}", escapeHtml(csrf));
}

/** The page without a valid token or session: says how to get in, shows nothing of any organization. */
export function unauthorizedHtml(reason: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sandbox dashboard: sign-in needed</title></head>
<body><main><h1>Sandbox dashboard</h1><p>${escapeHtml(reason)}</p>
<p>Open the dashboard with the link the sandbox printed when it started (<code>dashboard</code> in its ready line): each
organization has its own, and a restart prints new ones.</p></main></body></html>`;
}
