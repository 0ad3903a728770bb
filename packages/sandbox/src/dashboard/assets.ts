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
  /** index.html: the same for everyone (it holds nothing of any organization; its script signs in). */
  page: Buffer;
}

export function loadUi(): DashboardUi {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(UI_DIR)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { type, body: readFileSync(new URL(name, UI_DIR)) });
  }
  return { assets, page: readFileSync(new URL("index.html", UI_DIR)) };
}
