// The nesting bound of request bodies: a body nested deeper than MAX_JSON_DEPTH is refused before anything
// else looks at it. (Bodies and stored rows are then read with signing's parseJson, which V8's escaped-key bug,
// nodejs/node#63785, cannot mislead.)

import { MAX_NESTING_DEPTH } from "@exchange-kit/signing";

/**
 * The deepest nesting of arrays and objects a request body may have (`{}` is depth 1): signing's limit, so
 * whatever the client can sign the sandbox reads, and nothing deeper. Well under the ~1000 levels at which the
 * service's Python `json` fails.
 */
export const MAX_JSON_DEPTH = MAX_NESTING_DEPTH;

/** The nesting depth of JSON text, counting brackets outside strings; stops counting past `limit`. */
export function jsonDepthExceeds(text: string, limit: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
