// Which headers the proxy passes on. Everything a client or the service sent goes through as it was (name case,
// order, duplicates), except the hop-by-hop headers of RFC 9110 section 7.6.1 (they describe one connection, and
// the proxy has two) and Host, which names the target (virtual hosts and TLS need it; no signature covers it).

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-authenticate",
  "proxy-authorization",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The headers a `Connection` header names as hop-by-hop too (`Connection: close, X-Trace`). */
function namedByConnection(raw: readonly string[]): Set<string> {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() !== "connection") continue;
    for (const token of raw[i + 1]!.split(",")) named.add(token.trim().toLowerCase());
  }
  return named;
}

/** Whether a header is passed on as it is. */
export function isForwarded(name: string, connectionNamed: ReadonlySet<string> = new Set()): boolean {
  const lower = name.toLowerCase();
  return !HOP_BY_HOP.has(lower) && !connectionNamed.has(lower) && lower !== "host";
}

/**
 * Raw headers (`[name, value, name, value, ...]`, as `message.rawHeaders`) without the hop-by-hop ones and Host,
 * with `host` (the target's) first when given.
 *
 * @example
 * forwardedHeaders(["Host", "127.0.0.1:4030", "X-SIGNATURE", "c2ln", "Connection", "keep-alive"], "api.example:443");
 * // ["Host", "api.example:443", "X-SIGNATURE", "c2ln"]
 */
export function forwardedHeaders(raw: readonly string[], host?: string): string[] {
  const named = namedByConnection(raw);
  const out = host === undefined ? [] : ["Host", host];
  for (let i = 0; i < raw.length; i += 2) {
    if (isForwarded(raw[i]!, named)) out.push(raw[i]!, raw[i + 1]!);
  }
  return out;
}
