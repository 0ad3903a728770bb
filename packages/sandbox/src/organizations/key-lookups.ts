// How the server and the request log find the organization of an API key, one request after the other.
import type { OrganizationsByKey } from "../http/auth.js";

/** Keys remembered at most for the request log before it starts over (each is one organization's). */
const REMEMBERED_KEYS = 1000;

/**
 * The lookups by key: authentication's always reads the database and remembers what it read; the request log's,
 * right after the answer, takes what authentication just read for the same key (a read fewer per request on
 * PostgreSQL, and never older than that request's own authentication), and reads the database for a key not
 * seen yet. A key the log cannot look up now (the database is down) logs nothing rather than failing outside
 * any request.
 *
 * @example
 * const byKey = keyLookups((apiKey) => directory.byKey(apiKey));
 * await byKey.auth.get("key_acme"); // read from the database
 * await byKey.log.get("key_acme"); // the same organization, without reading again
 */
export function keyLookups<O>(read: (apiKey: string) => Promise<O | undefined>): {
  auth: OrganizationsByKey<O>;
  log: OrganizationsByKey<O>;
} {
  const remembered = new Map<string, O>();
  const fresh = async (apiKey: string) => {
    const found = await read(apiKey);
    if (found) {
      if (remembered.size >= REMEMBERED_KEYS) remembered.clear();
      remembered.set(apiKey, found);
    } else remembered.delete(apiKey);
    return found;
  };
  const forLog = async (apiKey: string) => {
    try {
      return remembered.get(apiKey) ?? (await fresh(apiKey));
    } catch {
      return undefined;
    }
  };
  return { auth: { get: fresh }, log: { get: forLog } };
}
