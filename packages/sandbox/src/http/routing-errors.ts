// The answers of a request no route takes: 404 for an unknown path, 405 (with Allow) for a known path and
// another method. The document's NOT_FOUND means "path not found (check the module prefix)", which would send the
// caller looking for a typo in a path that exists; it publishes no code for a wrong method, and UNKNOWN_ERROR is the
// code it gives errors that have none of their own (E5, E9, E10), with the reason in `errors` (docs/gaps.md, 405).
import { ApiError } from "../domain/api-error.js";

export function pathNotFound(): ApiError {
  return new ApiError(
    404,
    "NOT_FOUND",
    "Path not found: check the module prefix (/cms/api/v1, /pis/api/v1, /pos/api/v1, /org/api/v1)",
  );
}

export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return new ApiError(
    405,
    "UNKNOWN_ERROR",
    `Method ${method} not allowed on this path; allowed: ${allowed.join(", ")}`,
    { method: [`Use ${allowed.join(" or ")}.`] },
    { Allow: allowed.join(", ") },
  );
}
