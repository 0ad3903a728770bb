// Which requests may enter an organization's request log. Only one whose signature verified for it: anyone who
// knows an API key (they are printed in ready lines) could otherwise fill the organization's log with requests
// of their own, evicting its real entries and showing bodies they chose in its dashboard. A request that names
// a known key but did not verify is only counted, for the organization of that key (each has one key), with no
// body or path kept, only the time of the last one.
import type { IncomingHttpHeaders } from "node:http";
import type { Organization } from "../api/route.js";

/** What becomes of an answered request: an entry in its organization's log, a count for the key it named, or nothing. */
export type Admission = { log: Organization } | { refuse: Organization } | { ignore: true };

/**
 * The decision for an answered request: `signedBy` is the organization its signature verified for (undefined when
 * none did); `keyOrganization` the organization of the API key it named, if that key is known.
 *
 * @example
 * admission(orgA, "key_a", orgA); // { log: orgA }
 * admission(undefined, "key_a", orgA); // { refuse: orgA }
 * admission(undefined, "key_nobody", undefined); // { ignore: true }
 */
export function admission(
  signedBy: Organization | undefined,
  apiKey: string | undefined,
  keyOrganization: Organization | undefined,
): Admission {
  if (signedBy) return { log: signedBy };
  if (apiKey !== undefined && keyOrganization) return { refuse: keyOrganization };
  return { ignore: true };
}

/** The API key a request names, if it names exactly one. */
export function namedKey(headers: IncomingHttpHeaders): string | undefined {
  const key = headers["x-api-key"];
  return typeof key === "string" ? key.trim() : undefined;
}

/** How many requests naming an organization's key were refused, and when the last one arrived. */
export interface RefusedCount {
  count: number;
  /** ISO 8601 real time of the last one; null when none. */
  last_at: string | null;
}

/** Organizations counted at most: only those of known keys are, and past this many the least recent is forgotten. */
export const MAX_COUNTED = 10_000;

/**
 * Refused requests per organization's key, in memory (per replica: a count is a hint for the organization, not a
 * record), in a bounded map: a stream of refused requests costs one counter, however long it runs.
 */
export class RefusedRequests {
  private readonly byOrganization = new Map<string, { count: number; lastAt: number }>();

  constructor(private readonly maxCounted = MAX_COUNTED) {}

  /** Counts one refused request naming organization `org`'s key at real time `nowMs`. */
  count(org: string, nowMs: number): void {
    const counted = this.byOrganization.get(org);
    // Deleted and set again: the Map's order is then least recently refused first.
    this.byOrganization.delete(org);
    this.byOrganization.set(org, { count: (counted?.count ?? 0) + 1, lastAt: nowMs });
    if (this.byOrganization.size > this.maxCounted)
      this.byOrganization.delete(this.byOrganization.keys().next().value!);
  }

  /** The count for organization `org` (zero when none). */
  of(org: string): RefusedCount {
    const counted = this.byOrganization.get(org);
    return counted
      ? { count: counted.count, last_at: new Date(counted.lastAt).toISOString() }
      : { count: 0, last_at: null };
  }
}
