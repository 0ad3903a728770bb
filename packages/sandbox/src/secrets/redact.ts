// Every way a logged field (a request log entry, a receiver's answer) can spell the organization's API secret. A client may write it in the path or query
// (percent-encoded or not, `+` for a space), or in a body as JSON escapes it: `\"`, `\\`, `\/`, and non-ASCII as
// `\u00e9` in canonical JSON, or escaped twice when JSON text is carried in a string. Each character of the secret
// may take any of its forms independently, so the pattern is built one character at a time.

/** What a secret is replaced with wherever it appears. */
export const REDACTED = "[redacted]";

/** Backslashes before an escaped character: up to three levels of JSON in JSON. Bounded, so no input backtracks. */
const BACKSLASHES = "\\\\{1,7}";

/** JSON's two-character escapes, by the character they stand for. */
const SHORT_ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  "\\": "\\",
  "/": "/",
  "\b": "b",
  "\f": "f",
  "\n": "n",
  "\r": "r",
  "\t": "t",
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** A hexadecimal number of `width` digits in either case (`00e9` matches `00E9` too). */
function hexPattern(value: number, width: number): string {
  const digits = value.toString(16).padStart(width, "0");
  return [...digits].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join("");
}

/** The forms one character (a code point) can take in a logged path, query or body, escapes before the literal. */
function characterForms(character: string): string[] {
  const forms: string[] = [];
  // \uXXXX per UTF-16 unit: an astral character is a surrogate pair in JSON.
  const units = [...Array(character.length).keys()].map(
    (i) => `${BACKSLASHES}u${hexPattern(character.charCodeAt(i), 4)}`,
  );
  forms.push(units.join(""));
  const short = SHORT_ESCAPES[character];
  if (short !== undefined) forms.push(`${BACKSLASHES}${escapeRegExp(short)}`);
  forms.push([...Buffer.from(character, "utf8")].map((byte) => `%${hexPattern(byte, 2)}`).join(""));
  if (character === " ") forms.push("\\+");
  forms.push(escapeRegExp(character));
  return forms;
}

/**
 * A pattern that finds `secret` in any of the forms a logged field can carry it, each character in any of its own.
 * Each character's group is atomic (a lookahead captured, then matched by reference): once a character matched
 * one form the pattern never goes back to try another, so a text of many backslashes costs a few steps per
 * position, not a number of steps that grows with every backslash of the secret.
 *
 * @example
 * secretPattern('sé"c').test('{"k":"s\\u00e9\\"c"}'); // true
 * secretPattern("s c").test("/path?q=s+%63"); // true
 */
export function secretPattern(secret: string): RegExp {
  const groups = [...secret].map((character, i) => `(?=(${characterForms(character).join("|")}))\\${i + 1}`);
  return new RegExp(groups.join(""), "g");
}

/**
 * The patterns built so far, by secret: building one costs more than the request it redacts (a few regular
 * expressions per character), and each organization has one secret.
 */
const patterns = new Map<string, RegExp>();
/** Patterns kept at most (secrets of organizations a replica serves); beyond, it starts over. */
const MAX_PATTERNS = 1000;

/** The pattern of a secret, built once (redactSecrets replaces with it; replace() starts it from 0 every time). */
function sharedPattern(secret: string): RegExp {
  const known = patterns.get(secret);
  if (known) return known;
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  const pattern = secretPattern(secret);
  patterns.set(secret, pattern);
  return pattern;
}

/**
 * `text` with every form of each secret replaced by REDACTED. Run on a whole field before it is cut, so a secret
 * that straddles the cut is not half kept.
 *
 * @example
 * redactSecrets("/x/s3cret?k=s3cr%65t", ["s3cret"]); // "/x/[redacted]?k=[redacted]"
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.replace(sharedPattern(secret), REDACTED);
  return out;
}

/** A text as kept: up to a cap, with its whole size in bytes and whether it was cut. */
export interface CappedText {
  text: string;
  bytes: number;
  truncated: boolean;
}

/** The most bytes one UTF-16 unit of a secret takes in any form: `\uXXXX` behind 7 backslashes (above). */
const MAX_FORM_BYTES_PER_UNIT = 7 + 5;

const longest = (secrets: readonly string[]) => Math.max(0, ...secrets.map((secret) => secret.length));

/**
 * How many bytes of a text to read so that every form of a secret that starts before `maxBytes` ends inside it.
 *
 * @example
 * redactionWindow(1024, ["s3cret"]); // 1096
 */
export function redactionWindow(maxBytes: number, secrets: readonly string[]): number {
  return maxBytes + MAX_FORM_BYTES_PER_UNIT * longest(secrets);
}

/**
 * The body as kept: every form of each secret replaced (redactSecrets), then the first `maxBytes` bytes as text
 * (a character cut in two becomes U+FFFD). Redacted before the cut, so a secret across the cut leaves no part.
 *
 * @example
 * capBody(Buffer.from('{"a":"s3cret"}'), 1024, ["s3cret"]); // { text: '{"a":"[redacted]"}', bytes: 14, truncated: false }
 */
export function capBody(body: Buffer | string, maxBytes: number, secrets: readonly string[]): CappedText {
  const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
  // Only what can reach the cut is read: a form of a secret that starts before it ends within the window.
  const window = bytes.subarray(0, redactionWindow(maxBytes, secrets));
  const redacted = Buffer.from(redactSecrets(window.toString("utf8"), secrets), "utf8");
  const truncated = bytes.length > maxBytes;
  const text = (redacted.length > maxBytes ? redacted.subarray(0, maxBytes) : redacted).toString("utf8");
  return { text, bytes: bytes.length, truncated };
}
