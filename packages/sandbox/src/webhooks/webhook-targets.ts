// Where webhook deliveries may go. On loopback (the default) only the host's own user can register a URL, so any
// target is theirs to choose. Listening beyond loopback (--host 0.0.0.0), any organization could register a URL on
// the host's own services or its private network and read, from the attempts, which ports answer: loopback,
// private, link-local and other special addresses are then refused unless the allow-list names the target, and
// an attempt's error says only what a receiver's owner needs.
import { type LookupAddress, type LookupOptions, lookup } from "node:dns";
import { BlockList, isIP } from "node:net";

/** The address ranges no delivery reaches from a sandbox listening beyond loopback, unless allowed. */
const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const)
  INTERNAL.addSubnet(network, prefix, "ipv4");
for (const [network, prefix] of [
  ["::", 127],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const)
  INTERNAL.addSubnet(network, prefix, "ipv6");

/**
 * Whether an IP address is internal to the host or its network (loopback, private, link-local, unspecified,
 * multicast), an IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) by its IPv4 address.
 *
 * @example
 * isInternalAddress("10.1.2.3"); // true
 * isInternalAddress("::ffff:127.0.0.1"); // true
 * isInternalAddress("93.184.216.34"); // false
 */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 0) return true;
  return INTERNAL.check(address, family === 4 ? "ipv4" : "ipv6");
}

/**
 * Whether a listening host keeps the sandbox on loopback (then every target is allowed).
 *
 * @example
 * listensOnLoopbackOnly("127.0.0.1"); // true
 * listensOnLoopbackOnly("0.0.0.0"); // false
 */
export function listensOnLoopbackOnly(host: string): boolean {
  if (host === "localhost") return true;
  const address = host.replace(/^\[|\]$/g, "");
  if (isIP(address) === 0) return false;
  return /^127\./.test(address) || address === "::1" || /^::ffff:127\./i.test(address);
}

/** Which webhook targets are reached: all, or (listening beyond loopback) public ones and those allowed. */
export interface WebhookTargetPolicy {
  /** True when the sandbox listens beyond loopback. */
  readonly restricted: boolean;
  /** `host` or `host:port` entries, as given (lower case), each allowing that target even when internal. */
  readonly allowed: ReadonlySet<string>;
}

/**
 * The policy of a sandbox listening on `host`, with the allow-list (`webhookAllowedTargets`, `--webhook-allow`).
 *
 * @example
 * webhookTargetPolicy("0.0.0.0", ["127.0.0.1:4000"]); // { restricted: true, allowed: Set { "127.0.0.1:4000" } }
 */
export function webhookTargetPolicy(host: string, allowed: readonly string[] = []): WebhookTargetPolicy {
  return {
    restricted: !listensOnLoopbackOnly(host),
    allowed: new Set(allowed.map((entry) => entry.trim().toLowerCase())),
  };
}

/** Whether the allow-list names the URL's host, or its host and port. */
function isAllowed(policy: WebhookTargetPolicy, url: URL): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === "https:" ? "443" : "80");
  return policy.allowed.has(host) || policy.allowed.has(`${host}:${port}`);
}

/** The error of an attempt the policy did not let out: the same words whatever lies at the address. */
export const TARGET_REFUSED =
  "the webhook URL's host is internal to the sandbox's host or network, which a sandbox listening beyond loopback does not deliver to; allow it with --webhook-allow HOST[:PORT] (webhookAllowedTargets)";

/**
 * Why a delivery to `url` at the resolved `address` is refused, or undefined when it may go. A name is judged by
 * the address it resolved to, where the connection is made, so a name that resolves inward is refused too.
 *
 * @example
 * targetRefusal(webhookTargetPolicy("0.0.0.0"), new URL("http://127.0.0.1:22/"), "127.0.0.1"); // TARGET_REFUSED
 */
export function targetRefusal(policy: WebhookTargetPolicy, url: URL, address: string): string | undefined {
  if (!policy.restricted || isAllowed(policy, url)) return undefined;
  const internal = url.hostname === "localhost" || isInternalAddress(address);
  return internal ? TARGET_REFUSED : undefined;
}

/**
 * What an attempt that got no answer says when the sandbox listens beyond loopback: whether it timed out or not,
 * never how the connection failed (refused, reset, not HTTP), which would tell the ports of a host apart.
 *
 * @example
 * attemptError("connect ECONNREFUSED 203.0.113.7:22", { restricted: true, timedOut: false }); // "no HTTP answer from the receiver"
 */
export function attemptError(detail: string, situation: { restricted: boolean; timedOut: boolean }): string {
  if (!situation.restricted || situation.timedOut || detail === TARGET_REFUSED) return detail;
  return "no HTTP answer from the receiver";
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * The `lookup` of a delivery's request: dns.lookup, then the policy on every address it found, so the connection
 * goes only to an address that was judged (no second resolution a name could answer differently).
 */
export function guardedLookup(policy: WebhookTargetPolicy, url: URL) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    lookup(hostname, { ...options, all: true }, (error, found) => {
      if (error) return callback(error, []);
      if (found.some((each) => targetRefusal(policy, url, each.address)))
        return callback(new Error(TARGET_REFUSED), []);
      if (options.all) return callback(null, found);
      callback(null, found[0]!.address, found[0]!.family);
    });
  };
}

/**
 * Why a delivery to a URL whose host is an IP address is refused (no lookup runs for one), or undefined.
 *
 * @example
 * literalRefusal(webhookTargetPolicy("0.0.0.0"), new URL("http://[::1]:22/")); // TARGET_REFUSED
 */
export function literalRefusal(policy: WebhookTargetPolicy, url: URL): string | undefined {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return isIP(host) === 0 ? undefined : targetRefusal(policy, url, host);
}
