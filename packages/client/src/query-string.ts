// The query string of a call, written as openapi-fetch's default serializer writes it, so that a resource method and
// client.raw send the same URL for the same parameters. Kept here rather than imported so that openapi-fetch loads
// with the first client.raw call and not with the client (test/query-string.test.ts compares the two as a table).

const NESTED =
  "Deeply-nested arrays/objects aren\u2019t supported. Provide your own `querySerializer()` to handle these.";

/** `name=value`, the value percent-encoded; nothing for undefined or null; a nested object or array throws. */
function writePrimitive(name: string, value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "object") throw new Error(NESTED);
  return `${name}=${encodeURIComponent(value as string | number | boolean)}`;
}

/** One parameter: an array as repeated keys (form, explode), an object as `name[key]=` pairs (deepObject). */
function writeParam(name: string, value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) {
    return value.length === 0 ? undefined : value.map((item) => writePrimitive(name, item)).join("&");
  }
  if (typeof value === "object") {
    const pairs: string[] = [];
    for (const key in value) pairs.push(writePrimitive(`${name}[${key}]`, (value as Record<string, unknown>)[key]));
    return pairs.join("&");
  }
  return writePrimitive(name, value);
}

/**
 * The query string of `query`, without its `?`: undefined and null left out, arrays as repeated keys, objects as
 * `name[key]=value`, values percent-encoded with encodeURIComponent.
 *
 * @example
 * writeQuery({ limit: 10, status: ["A", "B"], cursor: undefined }); // "limit=10&status=A&status=B"
 */
export function writeQuery(query: Readonly<Record<string, unknown>>): string {
  const parts: string[] = [];
  for (const name in query) {
    const part = writeParam(name, query[name]);
    if (part !== undefined) parts.push(part);
  }
  return parts.join("&");
}

/**
 * The URL of a call: the base, the path as given (its parameters already filled in), and the query if it has any.
 *
 * @example
 * callUrl("https://x.test/v1", "/customers", { limit: 5 }); // "https://x.test/v1/customers?limit=5"
 */
export function callUrl(baseUrl: string, path: string, query: Readonly<Record<string, unknown>>): string {
  let search = writeQuery(query);
  // openapi-fetch drops one leading "?" (a parameter named "?..." as the first one): the same URL either way.
  if (search.startsWith("?")) search = search.slice(1);
  return search === "" ? `${baseUrl}${path}` : `${baseUrl}${path}?${search}`;
}
