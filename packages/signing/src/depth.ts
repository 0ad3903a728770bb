/**
 * Deepest nesting of arrays and objects that `canonicalize` and
 * `canonicalizeText` accept: 512 containers, one inside the other. Python's
 * `json.loads`, which the service parses with, fails with a RecursionError
 * near 1000 levels, so a deeper body could be signed but never verified;
 * 512 keeps well clear of that and of the JavaScript stack.
 *
 * @example
 * import { MAX_NESTING_DEPTH } from "@exchange-kit/signing";
 * if (depthOf(body) > MAX_NESTING_DEPTH) throw new Error("too deep to sign");
 */
export const MAX_NESTING_DEPTH = 512;

/** The reason in both functions' errors, kept short. */
export const TOO_DEEP = `nested deeper than ${MAX_NESTING_DEPTH} levels`;

/** At most this many path segments are shown, half from each end: a path 512 levels deep would be kilobytes. */
const PATH_SEGMENTS_SHOWN = 8;
/** A longer key is cut in the path. */
const SEGMENT_CHARS = 40;

/** `$` and the segments from the root, shortened: `$.a.b[0].c…(500 levels)…[0].d.e.f`. */
export function shortPath(segments: readonly string[]): string {
  const cut = (segment: string) => (segment.length > SEGMENT_CHARS ? `${segment.slice(0, SEGMENT_CHARS)}…` : segment);
  if (segments.length <= PATH_SEGMENTS_SHOWN) return `$${segments.map(cut).join("")}`;
  const half = PATH_SEGMENTS_SHOWN / 2;
  const hidden = segments.length - PATH_SEGMENTS_SHOWN;
  return `$${segments.slice(0, half).map(cut).join("")}…(${hidden} levels)…${segments.slice(-half).map(cut).join("")}`;
}
